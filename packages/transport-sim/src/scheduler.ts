/**
 * The scheduler (DESIGN.md 3.2: "no timers; one event loop over a priority queue"): the virtual
 * clock in **time units**, the creation sequence that breaks ties between events of the same
 * instant, and the time-ordered queue where timed events wait. It decides nothing: the delivery
 * policy (`policy.ts`) picks what happens next.
 */
import type { Message, ProcessId } from '@critsec/core';
import { EventQueue } from './event-queue.js';
import type { Deliverer, MsgEvent, QueuedEvent, TimerEvent } from './events.js';
import { MessageLane } from './message-lane.js';

/**
 * The virtual clock and the time-ordered event queue of one simulated network: `push`, `peek`
 * and `pop` are the queue's (lowest `time` first, then lowest `seq`).
 */
export class Scheduler extends EventQueue<QueuedEvent> {
  #now = 0;
  #seq = 0;
  readonly #lane = new MessageLane();
  #inOrder = false;
  /** Where a lane message goes when its turn comes (see {@link messagesInOrder}). */
  #laneUp: Deliverer | undefined;

  /** Current virtual time (time units; in controlled mode, the number of events delivered). */
  get now(): number {
    return this.#now;
  }

  /** Moves the clock to `time` (time units). */
  advanceTo(time: number): void {
    this.#now = time;
  }

  /** Controlled mode: one more event was delivered. */
  tick(): void {
    this.#now++;
  }

  /** The next creation number: events of one instant happen in creation order. */
  nextSeq(): number {
    return this.#seq++;
  }

  /**
   * Messages will mostly be queued in (time, seq) order (a constant delay on every link): from
   * now on they go by the in-order lane. Under drawn delays they stay in the heap, where a lane
   * would only add a test per message.
   *
   * @param up where a message of the lane goes when its turn comes ({@link take}): the lane is
   *   for direct links, where a message's arrival is its delivery. Without it, {@link take}
   *   returns lane messages as event objects, like {@link pop}.
   */
  messagesInOrder(up?: Deliverer): void {
    this.#inOrder = true;
    this.#laneUp = up;
  }

  /**
   * Queues an event. After {@link messagesInOrder}, a message that goes after every message
   * queued before it joins the in-order lane, O(1); timers, frames and out-of-order messages
   * join the heap. Either way events come out by (time, seq).
   */
  override push(ev: QueuedEvent): void {
    if (this.#inOrder && ev.kind === 'message' && this.#lane.fits(ev.time, ev.seq)) this.#lane.push(ev);
    else super.push(ev);
  }

  /** {@link push} of the message event with these fields; the lane keeps them without the object. */
  pushMessage(
    time: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    if (this.#inOrder && this.#lane.fits(time, seq))
      this.#lane.pushFields(time, seq, from, to, channel, msg, ctx);
    else super.push({ kind: 'message', time, seq, from, to, channel, msg, ctx });
  }

  /** {@link pushMessage} of a message arriving `delay` time units from now. */
  pushMessageIn(
    delay: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    this.pushMessage(this.#now + delay, seq, from, to, channel, msg, ctx);
  }

  /**
   * The first event has its turn: a message of the in-order lane is taken out and delivered to
   * the `up` of {@link messagesInOrder} at once (no event object made), and `undefined` returned;
   * any other first event (or a lane message when there is no `up`) is taken out and returned,
   * for the policy to dispatch. `undefined` too when nothing is queued.
   */
  take(): QueuedEvent | undefined {
    if (!this.#laneFirst()) return super.pop();
    if (this.#laneUp === undefined) return this.#lane.shift();
    this.#lane.shiftTo(this.#laneUp);
    return undefined;
  }

  /** Events queued (heap and lane). */
  override get size(): number {
    return super.size + this.#lane.size;
  }

  /**
   * True when an event is queued for `time` (time units), given that none is queued for earlier
   * — the timed policy's current instant: then the same as `nextTime() === time`, without a
   * time to box for every event.
   */
  hasEventAt(time: number): boolean {
    if (this.#lane.headIs(time)) return true;
    const h = super.peek();
    return h !== undefined && h.time === time;
  }

  /** Virtual time of the first event (time units), `undefined` when nothing is queued. */
  nextTime(): number | undefined {
    const l = this.#lane.headTime();
    const h = super.peek();
    if (l === undefined) return h?.time;
    return h === undefined ? l : Math.min(l, h.time);
  }

  /** The first event, left in the queue (a lane message comes as a new object each time). */
  override peek(): QueuedEvent | undefined {
    return this.#laneFirst() ? this.#lane.values()[0] : super.peek();
  }

  /** Takes the first event (lowest `time`, then lowest `seq`) out of the queue. */
  override pop(): QueuedEvent | undefined {
    return this.#laneFirst() ? this.#lane.shift() : super.pop();
  }

  /** Removes every event matching `pred`. */
  override removeWhere(pred: (e: QueuedEvent) => boolean): number {
    const lane = this.#lane.values();
    this.#lane.clear();
    let removed = 0;
    for (const e of lane) {
      if (pred(e)) removed++;
      else this.#lane.push(e as MsgEvent);
    }
    return removed + super.removeWhere(pred);
  }

  /** Every queued event, unordered. */
  override values(): readonly QueuedEvent[] {
    return [...super.values(), ...this.#lane.values()];
  }

  /** The lane's first message goes before the heap's first event. */
  #laneFirst(): boolean {
    return this.#lane.firstBefore(super.peek());
  }

  /** A timer event due `delay` time units from now (not queued yet: the policy holds it). */
  timer(delay: number, fn: () => void, label: string, ctx: unknown): TimerEvent {
    return { kind: 'timer', time: this.#now + delay, seq: this.#seq++, label, fn, ctx, cancelled: false };
  }

  /** Discards every queued event. */
  clear(): void {
    this.removeWhere(() => true);
  }
}
