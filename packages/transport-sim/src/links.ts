/**
 * The link stack of the simulator (DESIGN.md 3.2): what carries a message from the sending end
 * (`ports.ts`) to the delivery policy and back up to the one deliver path. Two stacks:
 *
 * - faults off: {@link DirectLinks} — a message is one event; in timed mode it arrives after a
 *   delay, FIFO per (from, to, channel) (`arrival.ts`); in controlled mode it waits in its
 *   link's queue until the caller picks it;
 * - faults on: {@link SessionLinks} over {@link FaultyLink} — the reliable-FIFO session layer of
 *   `@critsec/transport` over raw frames that are lost, doubled and reordered.
 */
import type { Message, ProcessId, Rng } from '@critsec/core';
import type { SessionStats } from '@critsec/transport';
import { Arrivals } from './arrival.js';
import type { FrameCounters } from './counters.js';
import type { DelayModel } from './delay.js';
import type { Deliverer, EventSink, LinkBottom, LinkEvent, LinkTop, MsgEvent } from './events.js';
import type { FaultOptions } from './faulty-link.js';
import type { Scheduler } from './scheduler.js';
import { SessionLinks, type SetTimer } from './session-links.js';

/** A link stack: messages enter at the top, events whose time has come arrive at the bottom. */
export interface LinkStack {
  readonly top: LinkTop;
  readonly bottom: LinkBottom;
  /** The session layer's counters (none without faults). */
  sessions(): Iterable<Readonly<SessionStats>>;
}

/** Faults off: each message is one event, handed straight to the deliver path when it arrives. */
class DirectLinks implements LinkTop, LinkBottom {
  readonly #arrivals: Arrivals | undefined;
  readonly #sink: EventSink;
  readonly #up: Deliverer;

  /** @param arrivals arrival times (timed mode); `undefined` in controlled mode. */
  constructor(arrivals: Arrivals | undefined, sink: EventSink, up: Deliverer) {
    this.#arrivals = arrivals;
    this.#sink = sink;
    this.#up = up;
  }

  /** A message leaves: it will arrive after its link's delay (timed) or when picked (controlled). */
  send(m: MsgEvent): void {
    if (this.#arrivals !== undefined) m.time = this.#arrivals.at(m.from, m.to, m.channel);
    this.#sink.enqueue(m);
  }

  /** {@link send} of the message with these fields, without the event object. */
  sendMessage(
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    const arrivals = this.#arrivals;
    if (arrivals === undefined) this.#sink.enqueueMessageIn(0, seq, from, to, channel, msg, ctx);
    else if (arrivals.constant)
      this.#sink.enqueueMessageIn(arrivals.delay(), seq, from, to, channel, msg, ctx);
    else this.#sink.enqueueMessage(arrivals.at(from, to, channel), seq, from, to, channel, msg, ctx);
  }

  /** A message arrives: delivered. */
  arrive(ev: LinkEvent): void {
    this.#up.deliver(ev as MsgEvent);
  }
}

/** What {@link createLinkStack} builds from. */
export interface LinkStackOptions {
  readonly n: number;
  readonly mode: 'timed' | 'controlled';
  readonly scheduler: Scheduler;
  /** The network's generator (delays, faults). */
  readonly rng: Rng;
  readonly delay: DelayModel;
  readonly linkDelay: ((from: ProcessId, to: ProcessId) => DelayModel | undefined) | undefined;
  readonly fifo: boolean;
  readonly faults: FaultOptions | undefined;
  readonly sink: EventSink;
  readonly up: Deliverer;
  readonly frameCounters: FrameCounters;
  readonly setTimer: SetTimer;
}

/** The stack for the options: direct links, or session links over a faulty raw link. */
export function createLinkStack(o: LinkStackOptions): LinkStack {
  const arrivals = (fifo: boolean) =>
    new Arrivals({ n: o.n, clock: o.scheduler, rng: o.rng, delay: o.delay, linkDelay: o.linkDelay, fifo });
  if (o.faults === undefined) {
    const timed = o.mode === 'timed' ? arrivals(o.fifo) : undefined;
    // direct links: a message's arrival is its delivery, so the lane hands it straight up
    if (timed?.constant) o.scheduler.messagesInOrder(o.up);
    const direct = new DirectLinks(timed, o.sink, o.up);
    return { top: direct, bottom: direct, sessions: () => [] };
  }
  const sessions = new SessionLinks({
    ...o,
    faults: o.faults,
    counters: o.frameCounters,
    arrivals: arrivals(o.faults.reorder === false),
  });
  return { top: sessions, bottom: sessions.raw, sessions: () => sessions.stats() };
}
