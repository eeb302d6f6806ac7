/**
 * The delivery policy (DESIGN.md 3.2): who picks the next event, and where events wait until then.
 *
 * - {@link TimedPolicy}: events wait in the scheduler's time-ordered queue; {@link TimedPolicy.run}
 *   delivers them instant by instant, and after each instant lets every promise continuation run
 *   (drains the microtask queue) *before* the clock moves — local computation takes zero time.
 * - {@link ControlledPolicy}: nothing happens on its own; messages wait in one FIFO queue per
 *   (from, to, channel) link, timers in a list; the caller lists the deliverable events (the
 *   head of each link, every pending timer) and picks one — to enumerate schedules.
 *
 * Either way an event whose turn has come goes to the bottom of the link stack (a message or a
 * frame) or to the inbox (a timer).
 */
import { type Message, type ProcessId, TransportError } from '@critsec/core';
import type { EventSink, LinkBottom, MsgEvent, QueuedEvent, SimMessage, TimerEvent } from './events.js';
import { LinkKeys } from './link-keys.js';
import { type Inbox, nextTurn } from './ports.js';
import type { Scheduler } from './scheduler.js';

/** One deliverable event in controlled mode. */
export type PendingEvent =
  | ({
      /** A message's delivery. */
      readonly kind: 'message';
    } & SimMessage)
  | {
      /** A timer's expiry. */
      readonly kind: 'timer';
      /** The timer's label. */
      readonly label: string;
    };

/** Everything queued in controlled mode: a state fingerprint for schedule exploration. */
export interface SimSnapshot {
  /** Every non-empty link, in the order links were first used, with its messages in FIFO order. */
  readonly links: readonly (SimMessage & {
    /** The link's messages in FIFO order (`msg` is the first of them). */
    readonly queued: readonly Message[];
  })[];
  /** The labels of pending timers, in the order they were set. */
  readonly timers: readonly string[];
}

/** Bounds of a timed run. */
export interface RunOptions {
  /** Stop before the first event after this virtual time (time units). */
  until?: number;
  /** Stop after this many events. */
  maxEvents?: number;
  /** Checked after each instant: stop when it returns true. */
  stopWhen?: () => boolean;
}

/** How a `SimNetwork.run` call ended. */
export interface RunResult {
  /** Events (messages and timers) processed by this call. */
  readonly events: number;
  /** Virtual time at the end. */
  readonly now: number;
  /** Why it stopped. */
  readonly reason: 'idle' | 'until' | 'maxEvents' | 'stopped' | 'closed';
}

/** A delivery policy: holds the waiting events and decides which happens next. */
export interface DeliveryPolicy extends EventSink {
  readonly mode: 'timed' | 'controlled';
  /** Names the bottom of the link stack, where arriving messages and frames go. Once. */
  connect(bottom: LinkBottom): void;
  /** Timed mode: runs the clock (see {@link TimedPolicy.run}). */
  run(options: RunOptions): Promise<RunResult>;
  /** Timed mode: asks a running `run` to return after the current instant. */
  stop(): void;
  /** Controlled mode: the events that may happen next. */
  pending(): PendingEvent[];
  /** Controlled mode: everything queued. */
  snapshot(): SimSnapshot;
  /** Controlled mode: delivers the `index`-th pending event. */
  deliver(index: number): Promise<void>;
  /** Discards every waiting event; a running `run` returns `'closed'`. */
  close(): void;
}

abstract class PolicyBase {
  protected readonly scheduler: Scheduler;
  protected readonly inbox: Inbox;
  protected closed = false;
  #bottom: LinkBottom | undefined;

  constructor(scheduler: Scheduler, inbox: Inbox) {
    this.scheduler = scheduler;
    this.inbox = inbox;
  }

  connect(bottom: LinkBottom): void {
    this.#bottom = bottom;
  }

  /** The event's turn has come: a timer fires (unless cancelled), a message or frame arrives. */
  protected dispatch(ev: QueuedEvent): void {
    if (ev.kind === 'timer') {
      if (!ev.cancelled) this.inbox.fire(ev);
    } else this.#bottom!.arrive(ev);
  }
}

/** Timed mode: the earliest event goes next (ties in creation order). */
export class TimedPolicy extends PolicyBase implements DeliveryPolicy {
  readonly mode = 'timed';
  #running = false;
  #stopRequested = false;

  enqueue(ev: QueuedEvent): void {
    this.scheduler.push(ev);
  }

  enqueueMessage(
    time: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    this.scheduler.pushMessage(time, seq, from, to, channel, msg, ctx);
  }

  enqueueMessageIn(
    delay: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    this.scheduler.pushMessageIn(delay, seq, from, to, channel, msg, ctx);
  }

  /**
   * Delivers events in time order until nothing is left, `until` (time units) is passed,
   * `maxEvents` were processed, `stopWhen()` returns true (checked after each instant), or
   * {@link stop} / {@link close} is called.
   * @throws TransportError (rejects) when already running; Error (rejects) with the first
   * exception a message handler or timer threw, naming the seed.
   */
  async run(options: RunOptions): Promise<RunResult> {
    if (this.#running) throw new TransportError('SimNetwork.run() is already running');
    const until = options.until ?? Number.POSITIVE_INFINITY;
    const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
    const s = this.scheduler;
    const inbox = this.inbox;
    this.#running = true;
    this.#stopRequested = false;
    let events = 0;
    let reason: RunResult['reason'] = 'idle';
    try {
      await nextTurn();
      inbox.throwErrors();
      outer: for (;;) {
        if (this.closed) {
          reason = 'closed';
          break;
        }
        if (this.#stopRequested || options.stopWhen?.()) {
          reason = 'stopped';
          break;
        }
        const t = s.nextTime();
        if (t === undefined) break;
        if (t > until) {
          s.advanceTo(Math.max(s.now, until));
          reason = 'until';
          break;
        }
        s.advanceTo(t);
        // nothing is ever queued before the current instant t (delays are ≥ 0)
        while (s.hasEventAt(t)) {
          if (events >= maxEvents) {
            reason = 'maxEvents';
            break outer;
          }
          events++;
          // a message of the in-order lane is delivered by the scheduler itself (no event object)
          const ev = s.take();
          if (ev !== undefined) this.dispatch(ev);
        }
        await nextTurn();
        inbox.throwErrors();
      }
    } finally {
      this.#running = false;
    }
    return { events, now: s.now, reason };
  }

  stop(): void {
    this.#stopRequested = true;
  }

  /** Nothing is pending for a caller to pick in timed mode. */
  pending(): PendingEvent[] {
    return [];
  }

  snapshot(): SimSnapshot {
    return { links: [], timers: [] };
  }

  /** @throws TransportError (rejects): picking events is for controlled mode. */
  async deliver(_index: number): Promise<void> {
    throw new TransportError('SimNetwork.deliver() is for controlled mode');
  }

  close(): void {
    this.closed = true;
    this.scheduler.clear();
  }
}

/** The messages of one (from, to, channel) link in controlled mode, in FIFO order. */
interface LinkQueue {
  readonly from: number;
  readonly to: number;
  readonly channel: string;
  readonly items: MsgEvent[];
  head: number;
}

/** Controlled mode: the caller picks every event; the clock counts delivered events. */
export class ControlledPolicy extends PolicyBase implements DeliveryPolicy {
  readonly mode = 'controlled';
  readonly #keys: LinkKeys;
  readonly #links = new Map<number, LinkQueue>();
  readonly #timers: TimerEvent[] = [];

  constructor(scheduler: Scheduler, inbox: Inbox, n: number) {
    super(scheduler, inbox);
    this.#keys = new LinkKeys(n);
  }

  /** A timer joins the timer list; a message joins the end of its link's queue. */
  enqueue(ev: QueuedEvent): void {
    if (ev.kind === 'timer') {
      this.#timers.push(ev);
      return;
    }
    const m = ev as MsgEvent;
    const key = this.#keys.of(m.from, m.to, m.channel);
    let q = this.#links.get(key);
    if (q === undefined) {
      q = { from: m.from, to: m.to, channel: m.channel, items: [], head: 0 };
      this.#links.set(key, q);
    }
    q.items.push(m);
  }

  enqueueMessage(
    time: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    this.enqueue({ kind: 'message', time, seq, from, to, channel, msg, ctx });
  }

  enqueueMessageIn(
    delay: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    this.enqueueMessage(this.scheduler.now + delay, seq, from, to, channel, msg, ctx);
  }

  /** @throws TransportError (rejects): the clock is the caller's in controlled mode. */
  async run(_options: RunOptions): Promise<RunResult> {
    throw new TransportError(
      'SimNetwork.run() is for timed mode; use pending()/deliver() in controlled mode',
    );
  }

  stop(): void {}

  /** The head of every non-empty link (links in first-use order), then every pending timer in order. */
  pending(): PendingEvent[] {
    const out: PendingEvent[] = [];
    for (const q of this.#links.values()) {
      const head = q.items[q.head];
      if (head !== undefined)
        out.push({ kind: 'message', from: head.from, to: head.to, channel: head.channel, msg: head.msg });
    }
    for (const t of this.#timers) if (!t.cancelled) out.push({ kind: 'timer', label: t.label });
    return out;
  }

  snapshot(): SimSnapshot {
    const links: (SimMessage & { queued: Message[] })[] = [];
    for (const q of this.#links.values()) {
      if (q.head >= q.items.length) continue;
      const queued = q.items.slice(q.head).map((e) => e.msg);
      links.push({ from: q.from, to: q.to, channel: q.channel, msg: queued[0]!, queued });
    }
    return { links, timers: this.#timers.filter((t) => !t.cancelled).map((t) => t.label) };
  }

  /**
   * Delivers the `index`-th event of {@link pending}, then lets continuations run.
   * @throws TransportError (rejects) for a bad index; Error (rejects) with what a handler threw.
   */
  async deliver(index: number): Promise<void> {
    const chosen = this.#take(index);
    this.scheduler.tick();
    this.dispatch(chosen);
    await this.inbox.settle();
  }

  close(): void {
    this.closed = true;
    this.scheduler.clear();
    this.#links.clear();
    this.#timers.length = 0;
  }

  #take(index: number): QueuedEvent {
    let i = 0;
    for (const q of this.#links.values()) {
      if (q.head >= q.items.length) continue;
      if (i === index) {
        const chosen = q.items[q.head]!;
        q.head++;
        if (q.head === q.items.length) {
          q.items.length = 0;
          q.head = 0;
        }
        return chosen;
      }
      i++;
    }
    for (let k = this.#timers.length - 1; k >= 0; k--)
      if (this.#timers[k]!.cancelled) this.#timers.splice(k, 1);
    const t = this.#timers[index - i];
    if (t === undefined)
      throw new TransportError(
        `SimNetwork.deliver(${index}): only ${i + this.#timers.length} events are pending`,
      );
    this.#timers.splice(index - i, 1);
    return t;
  }
}
