/**
 * The in-order lane of the scheduler (DESIGN.md 3.2, "one loop over a priority queue"): under a
 * constant delay, messages are sent in (time, seq) order, so they need no heap — a FIFO does,
 * O(1) a message. The lane keeps each message's fields in columns (typed arrays for the numbers,
 * plain arrays for the references) rather than the event object itself, so an in-flight message
 * costs 48 bytes and no object outlives its send. The columns come in blocks, taken and given
 * back as the lane grows and shrinks: memory follows the messages in flight (millions at
 * n = 10,000), with no copying. Block capacities start at {@link FIRST_BLOCK} and double up to
 * {@link BLOCK}, so a network that carries a handful of messages (an exploration builds
 * thousands of them) does not pay for a full block up front.
 */
import type { Message, ProcessId } from '@critsec/core';
import type { SimEvent } from './event-queue.js';
import type { Deliverer, MsgEvent } from './events.js';

/** Largest block capacity (messages). */
const BLOCK = 16_384;
/** Capacity of a lane's first block (messages). */
const FIRST_BLOCK = 64;

/** One block of columns. */
interface Block {
  readonly time: Float64Array;
  readonly seq: Float64Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly channel: (string | undefined)[];
  readonly msg: (Message | undefined)[];
  readonly ctx: unknown[];
}

const newBlock = (capacity: number): Block => ({
  time: new Float64Array(capacity),
  seq: new Float64Array(capacity),
  from: new Int32Array(capacity),
  to: new Int32Array(capacity),
  channel: new Array(capacity).fill(undefined),
  msg: new Array(capacity).fill(undefined),
  ctx: new Array(capacity).fill(undefined),
});

/** A FIFO of message events in (time, seq) order (a queue of column blocks). */
export class MessageLane {
  /** The blocks in use, oldest first: the first message is `blocks[0]` at `head`. */
  readonly #blocks: Block[] = [newBlock(FIRST_BLOCK)];
  /** One emptied full-size block kept for the next growth. */
  #spare: Block | undefined;
  #head = 0;
  /** The next free index in the last block. */
  #tail = 0;
  #length = 0;

  /** Messages queued. */
  get size(): number {
    return this.#length;
  }

  /**
   * True when a message of arrival `time` and creation number `seq` goes after the last message
   * queued (or the lane is empty): it may join.
   */
  fits(time: number, seq: number): boolean {
    if (this.#length === 0) return true;
    const b = this.#blocks[this.#blocks.length - 1]!;
    const t = b.time[this.#tail - 1]!;
    return t < time || (t === time && b.seq[this.#tail - 1]! < seq);
  }

  /** Queues `e` at the end (call {@link fits} first). Keeps its fields, not the object. */
  push(e: MsgEvent): void {
    this.pushFields(e.time, e.seq, e.from, e.to, e.channel, e.msg, e.ctx);
  }

  /** Queues the message with these fields at the end (call {@link fits} first). */
  pushFields(
    time: number,
    seq: number,
    from: ProcessId,
    to: ProcessId,
    channel: string,
    msg: Message,
    ctx: unknown,
  ): void {
    let b = this.#blocks[this.#blocks.length - 1]!;
    if (this.#tail === b.time.length) {
      b = this.#spare ?? newBlock(Math.min(BLOCK, 2 * b.time.length));
      this.#blocks.push(b);
      this.#spare = undefined;
      this.#tail = 0;
    }
    const i = this.#tail++;
    b.time[i] = time;
    b.seq[i] = seq;
    b.from[i] = from;
    b.to[i] = to;
    b.channel[i] = channel;
    b.msg[i] = msg;
    b.ctx[i] = ctx;
    this.#length++;
  }

  /** True when the first message arrives at `time` (time units); false when empty. */
  headIs(time: number): boolean {
    return this.#length > 0 && this.#blocks[0]!.time[this.#head] === time;
  }

  /**
   * True when there is a first message and it goes before `e` by (time, seq), or `e` is
   * `undefined`. (Compares here: no arrival time leaves the lane as a number to box.)
   */
  firstBefore(e: SimEvent | undefined): boolean {
    if (this.#length === 0) return false;
    if (e === undefined) return true;
    const b = this.#blocks[0]!;
    const t = b.time[this.#head]!;
    return t < e.time || (t === e.time && b.seq[this.#head]! < e.seq);
  }

  /** Arrival time of the first message (time units); `undefined` when empty. */
  headTime(): number | undefined {
    return this.#length === 0 ? undefined : this.#blocks[0]!.time[this.#head];
  }

  /** Takes the first message out, as a new event object. */
  shift(): MsgEvent | undefined {
    if (this.#length === 0) return undefined;
    const ev = at(this.#blocks[0]!, this.#head);
    this.#drop();
    return ev;
  }

  /**
   * Takes the first message out and delivers it to `up` (`deliverMessage`), without making an
   * event object: the lane is emptied of it before `up` runs (which may queue more).
   */
  shiftTo(up: Deliverer): void {
    if (this.#length === 0) return;
    const b = this.#blocks[0]!;
    const i = this.#head;
    const from = b.from[i]! as ProcessId;
    const to = b.to[i]! as ProcessId;
    const channel = b.channel[i]!;
    const msg = b.msg[i]!;
    const ctx = b.ctx[i];
    this.#drop();
    up.deliverMessage(from, to, channel, msg, ctx);
  }

  /** Forgets the first message (read already). */
  #drop(): void {
    const b = this.#blocks[0]!;
    const i = this.#head++;
    b.channel[i] = undefined;
    b.msg[i] = undefined;
    b.ctx[i] = undefined;
    this.#length--;
    if (this.#length === 0) {
      // one block left (head and tail in it): start it over
      this.#head = 0;
      this.#tail = 0;
    } else if (this.#head === b.time.length) {
      // kept for reuse only at full size, so the blocks after it keep their doubled capacity
      const emptied = this.#blocks.shift()!;
      if (emptied.time.length === BLOCK) this.#spare = emptied;
      this.#head = 0;
    }
  }

  /** Every queued message, in order, as event objects. */
  values(): MsgEvent[] {
    const out: MsgEvent[] = [];
    let k = this.#head;
    for (const b of this.#blocks) {
      const end = b === this.#blocks[this.#blocks.length - 1] ? this.#tail : b.time.length;
      for (; k < end; k++) out.push(at(b, k));
      k = 0;
    }
    return out.slice(0, this.#length);
  }

  /** Discards every queued message. */
  clear(): void {
    while (this.#length > 0) this.shift();
  }
}

/** The message at index `i` of block `b`, as a new event object. */
function at(b: Block, i: number): MsgEvent {
  return {
    kind: 'message',
    time: b.time[i]!,
    seq: b.seq[i]!,
    from: b.from[i]! as ProcessId,
    to: b.to[i]! as ProcessId,
    channel: b.channel[i]!,
    msg: b.msg[i]!,
    ctx: b.ctx[i],
  };
}
