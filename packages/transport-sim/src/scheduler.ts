/**
 * The scheduler (DESIGN.md 3.2: "no timers; one event loop over a priority queue"): the virtual
 * clock in **time units**, the creation sequence that breaks ties between events of the same
 * instant, and the time-ordered queue where timed events wait. It decides nothing: the delivery
 * policy (`policy.ts`) picks what happens next.
 */
import { EventQueue } from './event-queue.js';
import type { QueuedEvent, TimerEvent } from './events.js';

/** The virtual clock and the time-ordered event queue of one simulated network. */
export class Scheduler {
  readonly #queue = new EventQueue<QueuedEvent>();
  #now = 0;
  #seq = 0;

  /** Current virtual time (time units; in controlled mode, the number of events delivered). */
  get now(): number {
    return this.#now;
  }

  /** Events waiting in the time-ordered queue. */
  get size(): number {
    return this.#queue.size;
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

  /** A timer event due `delay` time units from now (not queued yet: the policy holds it). */
  timer(delay: number, fn: () => void, label: string, ctx: unknown): TimerEvent {
    return { kind: 'timer', time: this.#now + delay, seq: this.#seq++, label, fn, ctx, cancelled: false };
  }

  /** Queues an event at its `time`. */
  push(ev: QueuedEvent): void {
    this.#queue.push(ev);
  }

  /** The earliest event (lowest `time`, then `seq`), left in the queue. */
  peek(): QueuedEvent | undefined {
    return this.#queue.peek();
  }

  /** Takes the earliest event out of the queue. */
  pop(): QueuedEvent | undefined {
    return this.#queue.pop();
  }

  /** Discards every queued event. */
  clear(): void {
    this.#queue.removeWhere(() => true);
  }
}
