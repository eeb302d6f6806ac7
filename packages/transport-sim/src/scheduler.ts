/**
 * The scheduler (DESIGN.md 3.2: "no timers; one event loop over a priority queue"): the virtual
 * clock in **time units**, the creation sequence that breaks ties between events of the same
 * instant, and the time-ordered queue where timed events wait. It decides nothing: the delivery
 * policy (`policy.ts`) picks what happens next.
 */
import { EventQueue } from './event-queue.js';
import type { QueuedEvent, TimerEvent } from './events.js';

/**
 * The virtual clock and the time-ordered event queue of one simulated network: `push`, `peek`
 * and `pop` are the queue's (lowest `time` first, then lowest `seq`).
 */
export class Scheduler extends EventQueue<QueuedEvent> {
  #now = 0;
  #seq = 0;

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
   * Queues an event. A message goes by the in-order lane (under a constant delay messages are
   * sent in arrival order); timers and frames, whose times are drawn, by the heap.
   */
  override push(ev: QueuedEvent): void {
    if (ev.kind === 'message') this.pushInOrder(ev);
    else super.push(ev);
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
