/**
 * The in-order lane of the scheduler (DESIGN.md 3.2, "one loop over a priority queue"): under a
 * constant delay, messages are sent in (time, seq) order, so they need no heap — a FIFO does,
 * O(1) a message. The lane keeps each message's fields in columns (typed arrays for the numbers,
 * plain arrays for the references) rather than the event object itself, so an in-flight message
 * costs 48 bytes and no object outlives its send. The columns come in fixed-size blocks, taken
 * and given back as the lane grows and shrinks: memory follows the messages in flight (millions
 * at n = 10,000), with no copying and no doubled capacity.
 */
import type { Message, ProcessId } from '@critsec/core';
import type { MsgEvent } from './events.js';

/** Messages per block. */
const BLOCK = 16_384;

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

const newBlock = (): Block => ({
  time: new Float64Array(BLOCK),
  seq: new Float64Array(BLOCK),
  from: new Int32Array(BLOCK),
  to: new Int32Array(BLOCK),
  channel: new Array(BLOCK).fill(undefined),
  msg: new Array(BLOCK).fill(undefined),
  ctx: new Array(BLOCK).fill(undefined),
});

/** A FIFO of message events in (time, seq) order (a queue of column blocks). */
export class MessageLane {
  /** The blocks in use, oldest first: the first message is `blocks[0]` at `head`. */
  readonly #blocks: Block[] = [newBlock()];
  /** One emptied block kept for the next growth. */
  #spare: Block | undefined;
  #head = 0;
  /** The next free index in the last block. */
  #tail = 0;
  #length = 0;

  /** Messages queued. */
  get size(): number {
    return this.#length;
  }

  /** True when `e` goes after the last message queued (or the lane is empty): it may join. */
  fits(e: MsgEvent): boolean {
    if (this.#length === 0) return true;
    const b = this.#blocks[this.#blocks.length - 1]!;
    const t = b.time[this.#tail - 1]!;
    return t < e.time || (t === e.time && b.seq[this.#tail - 1]! < e.seq);
  }

  /** Queues `e` at the end (call {@link fits} first). Keeps its fields, not the object. */
  push(e: MsgEvent): void {
    if (this.#tail === BLOCK) {
      this.#blocks.push(this.#spare ?? newBlock());
      this.#spare = undefined;
      this.#tail = 0;
    }
    const b = this.#blocks[this.#blocks.length - 1]!;
    const i = this.#tail++;
    b.time[i] = e.time;
    b.seq[i] = e.seq;
    b.from[i] = e.from;
    b.to[i] = e.to;
    b.channel[i] = e.channel;
    b.msg[i] = e.msg;
    b.ctx[i] = e.ctx;
    this.#length++;
  }

  /** Arrival time of the first message (time units); `undefined` when empty. */
  headTime(): number | undefined {
    return this.#length === 0 ? undefined : this.#blocks[0]!.time[this.#head];
  }

  /** Creation number of the first message (only when not empty). */
  headSeq(): number {
    return this.#blocks[0]!.seq[this.#head]!;
  }

  /** Takes the first message out, as a new event object. */
  shift(): MsgEvent | undefined {
    if (this.#length === 0) return undefined;
    const b = this.#blocks[0]!;
    const i = this.#head++;
    const ev = at(b, i);
    b.channel[i] = undefined;
    b.msg[i] = undefined;
    b.ctx[i] = undefined;
    this.#length--;
    if (this.#length === 0) {
      // one block left (head and tail in it): start it over
      this.#head = 0;
      this.#tail = 0;
    } else if (this.#head === BLOCK) {
      this.#spare = this.#blocks.shift();
      this.#head = 0;
    }
    return ev;
  }

  /** Every queued message, in order, as event objects. */
  values(): MsgEvent[] {
    const out: MsgEvent[] = [];
    let k = this.#head;
    for (const b of this.#blocks) {
      const end = b === this.#blocks[this.#blocks.length - 1] ? this.#tail : BLOCK;
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
