/**
 * The session layer of the simulator's link stack under faults (DESIGN.md 3.2): for every ordered
 * pair of processes one `ReliableLink` of `@critsec/transport` — the same reliable-FIFO session
 * layer the TCP transport runs over its connections — numbering, acknowledging and resending
 * messages over a {@link FaultyLink} that loses, doubles and reorders its frames. Above it,
 * messages arrive in order, exactly once, at the one deliver path (`ports.ts`).
 *
 * The link of pair (a, b) sends a's data frames to b and takes b's acks; b's link of pair (b, a)
 * takes those data frames and answers with acks. A retransmission timer (`'retransmit'`, every
 * `retransmitEvery` time units) runs while a link has unacknowledged messages.
 */
import type { Message, ProcessId, Rng } from '@critsec/core';
import { ReliableLink, type SessionFrame, type SessionStats } from '@critsec/transport';
import type { Arrivals } from './arrival.js';
import type { FrameCounters } from './counters.js';
import type { Deliverer, Envelope, EventSink, LinkTop, MsgEvent } from './events.js';
import { type FaultOptions, FaultyLink, type FrameReceiver } from './faulty-link.js';
import type { Scheduler } from './scheduler.js';

/** Sets a timer of the simulator (time units); used for retransmissions. */
export type SetTimer = (delay: number, fn: () => void, label: string) => void;

/** What {@link SessionLinks} needs: its own and its raw link's. */
export interface SessionLinksOptions {
  readonly n: number;
  readonly faults: FaultOptions;
  readonly rng: Rng;
  /** Arrival times of raw frames. */
  readonly arrivals: Arrivals;
  readonly scheduler: Scheduler;
  /** Where raw frames wait (the delivery policy). */
  readonly sink: EventSink;
  readonly counters: FrameCounters;
  /** Where delivered messages go. */
  readonly up: Deliverer;
  readonly setTimer: SetTimer;
}

interface Session {
  readonly link: ReliableLink<Envelope>;
  /** A retransmission timer is pending. */
  armed: boolean;
}

/** Reliable, FIFO, exactly-once message links over a faulty raw link. */
export class SessionLinks implements LinkTop, FrameReceiver {
  /** The raw link below (the bottom of the stack). */
  readonly raw: FaultyLink;
  readonly #n: number;
  /** The one deliver path above (`Inbox.deliver`, bound). */
  readonly #deliver: (m: Envelope) => void;
  readonly #setTimer: SetTimer;
  readonly #scheduler: Scheduler;
  readonly #every: number;
  readonly #sessions = new Map<number, Session>();

  constructor(o: SessionLinksOptions) {
    this.#n = o.n;
    this.#deliver = o.up.deliver.bind(o.up);
    this.#setTimer = o.setTimer;
    this.#scheduler = o.scheduler;
    this.#every = o.faults.retransmitEvery ?? 4;
    this.raw = new FaultyLink({ ...o, up: this });
  }

  /** A message enters its pair's session link (numbered, buffered, transmitted). */
  send(m: MsgEvent): void {
    const session = this.#session(m.from, m.to);
    session.link.send(m);
    this.#arm(session);
  }

  /** {@link send} of the message event with these fields (the session link keeps the object). */
  sendMessage(
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    this.send({ kind: 'message', time: this.#scheduler.now, seq, from, to, channel, msg, ctx });
  }

  /** A raw frame from → to got through: into `to`'s session link for peer `from`. */
  receive(from: ProcessId, to: ProcessId, frame: SessionFrame<Envelope>): void {
    this.#session(to, from).link.receive(frame);
  }

  /** The session links' counters. */
  *stats(): Iterable<Readonly<SessionStats>> {
    for (const s of this.#sessions.values()) yield s.link.stats;
  }

  #session(self: ProcessId, peer: ProcessId): Session {
    const key = self * this.#n + peer;
    let s = this.#sessions.get(key);
    if (s === undefined) {
      const link = new ReliableLink<Envelope>({
        session: `sim-${self}`,
        transmit: this.raw.path(self, peer),
        deliver: this.#deliver,
      });
      s = { link, armed: false };
      this.#sessions.set(key, s);
    }
    return s;
  }

  #arm(session: Session): void {
    if (session.armed) return;
    session.armed = true;
    this.#setTimer(
      this.#every,
      () => {
        session.armed = false;
        if (session.link.unacked > 0) {
          session.link.retransmit();
          this.#arm(session);
        }
      },
      'retransmit',
    );
  }
}
