/**
 * The scheduler (DESIGN.md 3.2: "no timers; one event loop over a priority queue"): the virtual
 * clock in **time units**, the creation sequence that breaks ties between events of the same
 * instant, and the time-ordered queue where timed events wait. It decides nothing: the delivery
 * policy (`policy.ts`) picks what happens next.
 */
import { EventQueue } from './event-queue.js';
import type { MsgEvent, QueuedEvent, TimerEvent } from './events.js';
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
   */
  messagesInOrder(): void {
    this.#inOrder = true;
  }

  /**
   * Queues an event. After {@link messagesInOrder}, a message that goes after every message
   * queued before it joins the in-order lane, O(1); timers, frames and out-of-order messages
   * join the heap. Either way events come out by (time, seq).
   */
  override push(ev: QueuedEvent): void {
    if (this.#inOrder && ev.kind === 'message' && this.#lane.fits(ev)) this.#lane.push(ev);
    else super.push(ev);
  }

  /** Events queued (heap and lane). */
  override get size(): number {
    return super.size + this.#lane.size;
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
    const t = this.#lane.headTime();
    if (t === undefined) return false;
    const h = super.peek();
    return h === undefined || t < h.time || (t === h.time && this.#lane.headSeq() < h.seq);
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
