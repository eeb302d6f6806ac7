/**
 * The in-order lane of the scheduler (DESIGN.md 3.2, "one loop over a priority queue"): under a
 * constant delay, messages are sent in (time, seq) order, so they need no heap — a FIFO does,
 * O(1) a message. The lane keeps each message's fields in columns (typed arrays for the numbers,
 * plain arrays for the references) rather than the event object itself, so an in-flight message
 * costs about 48 bytes and no object outlives its send: millions in flight at n = 10,000 stay
 * cheap for the garbage collector.
 */
import type { Message, ProcessId } from '@critsec/core';
import type { MsgEvent } from './events.js';

const INITIAL_CAPACITY = 1024;

/** A FIFO of message events in (time, seq) order (a ring buffer of columns). */
export class MessageLane {
  #mask = INITIAL_CAPACITY - 1;
  #head = 0;
  #length = 0;
  #time = new Float64Array(INITIAL_CAPACITY);
  #seq = new Float64Array(INITIAL_CAPACITY);
  #from = new Int32Array(INITIAL_CAPACITY);
  #to = new Int32Array(INITIAL_CAPACITY);
  #channel: (string | undefined)[] = new Array(INITIAL_CAPACITY).fill(undefined);
  #msg: (Message | undefined)[] = new Array(INITIAL_CAPACITY).fill(undefined);
  #ctx: unknown[] = new Array(INITIAL_CAPACITY).fill(undefined);

  /** Messages queued. */
  get size(): number {
    return this.#length;
  }

  /** True when `e` goes after the last message queued (or the lane is empty): it may join. */
  fits(e: MsgEvent): boolean {
    if (this.#length === 0) return true;
    const last = (this.#head + this.#length - 1) & this.#mask;
    const t = this.#time[last]!;
    return t < e.time || (t === e.time && this.#seq[last]! < e.seq);
  }

  /** Queues `e` at the end (call {@link fits} first). Keeps its fields, not the object. */
  push(e: MsgEvent): void {
    if (this.#length > this.#mask) this.#grow();
    const i = (this.#head + this.#length) & this.#mask;
    this.#time[i] = e.time;
    this.#seq[i] = e.seq;
    this.#from[i] = e.from;
    this.#to[i] = e.to;
    this.#channel[i] = e.channel;
    this.#msg[i] = e.msg;
    this.#ctx[i] = e.ctx;
    this.#length++;
  }

  /** Arrival time of the first message (time units); `undefined` when empty. */
  headTime(): number | undefined {
    return this.#length === 0 ? undefined : this.#time[this.#head];
  }

  /** Creation number of the first message (only when not empty). */
  headSeq(): number {
    return this.#seq[this.#head]!;
  }

  /** Takes the first message out, as a new event object. */
  shift(): MsgEvent | undefined {
    if (this.#length === 0) return undefined;
    const i = this.#head;
    const ev = this.#at(i);
    this.#channel[i] = undefined;
    this.#msg[i] = undefined;
    this.#ctx[i] = undefined;
    this.#head = (i + 1) & this.#mask;
    this.#length--;
    return ev;
  }

  /** Every queued message, in order, as event objects. */
  values(): MsgEvent[] {
    const out: MsgEvent[] = [];
    for (let k = 0; k < this.#length; k++) out.push(this.#at((this.#head + k) & this.#mask));
    return out;
  }

  /** Discards every queued message. */
  clear(): void {
    while (this.#length > 0) this.shift();
    this.#head = 0;
  }

  #at(i: number): MsgEvent {
    return {
      kind: 'message',
      time: this.#time[i]!,
      seq: this.#seq[i]!,
      from: this.#from[i]! as ProcessId,
      to: this.#to[i]! as ProcessId,
      channel: this.#channel[i]!,
      msg: this.#msg[i]!,
      ctx: this.#ctx[i],
    };
  }

  /** Doubles the capacity, the queued messages first in the new columns. */
  #grow(): void {
    const old = this.#mask + 1;
    const cap = old * 2;
    const order = (k: number) => (this.#head + k) & this.#mask;
    const time = new Float64Array(cap);
    const seq = new Float64Array(cap);
    const from = new Int32Array(cap);
    const to = new Int32Array(cap);
    const channel: (string | undefined)[] = new Array(cap).fill(undefined);
    const msg: (Message | undefined)[] = new Array(cap).fill(undefined);
    const ctx: unknown[] = new Array(cap).fill(undefined);
    for (let k = 0; k < this.#length; k++) {
      const i = order(k);
      time[k] = this.#time[i]!;
      seq[k] = this.#seq[i]!;
      from[k] = this.#from[i]!;
      to[k] = this.#to[i]!;
      channel[k] = this.#channel[i];
      msg[k] = this.#msg[i];
      ctx[k] = this.#ctx[i];
    }
    this.#time = time;
    this.#seq = seq;
    this.#from = from;
    this.#to = to;
    this.#channel = channel;
    this.#msg = msg;
    this.#ctx = ctx;
    this.#head = 0;
    this.#mask = cap - 1;
  }
}
