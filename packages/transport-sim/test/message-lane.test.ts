/*
 * The in-order lane's block bookkeeping: FIFO order, size and the snapshot hold across block
 * boundaries (first block 64 messages, doubling to 16,384, full-size blocks reused), whatever the
 * interleaving of pushes and shifts.
 */
import { createRng, type Message, type ProcessId } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { MessageLane } from '../src/message-lane.js';

interface Ref {
  time: number;
  seq: number;
  from: ProcessId;
  to: ProcessId;
  msg: Message;
}

function run(seed: number, steps: number, pushBias: number): void {
  const rng = createRng(seed);
  const lane = new MessageLane();
  const ref: Ref[] = [];
  let seq = 0;
  let time = 0;
  const delivered: Ref[] = [];
  const up = {
    deliver: () => {
      throw new Error('not used');
    },
    deliverMessage: (from: ProcessId, to: ProcessId, _c: string, msg: Message) => {
      delivered.push({ ...(msg as unknown as { r: Ref }).r, from, to });
    },
  };
  for (let step = 0; step < steps; step++) {
    if (ref.length === 0 || rng.next() < pushBias) {
      time += rng.int(2) / 2;
      const r: Ref = { time, seq: seq++, from: rng.int(7), to: rng.int(7), msg: { type: 'm' } };
      (r.msg as unknown as { r: Ref }).r = r;
      if (!lane.fits(r.time, r.seq))
        throw new Error(`seed ${seed} step ${step}: a later message does not fit`);
      lane.pushFields(r.time, r.seq, r.from, r.to, 'c', r.msg, undefined);
      ref.push(r);
    } else if (rng.next() < 0.5) {
      const e = lane.shift()!;
      const r = ref.shift()!;
      if (e.time !== r.time || e.seq !== r.seq || e.from !== r.from || e.to !== r.to || e.msg !== r.msg)
        throw new Error(`seed ${seed} step ${step}: shifted seq ${e.seq}, expected ${r.seq}`);
    } else {
      const r = ref.shift()!;
      lane.shiftTo(up);
      const d = delivered.pop()!;
      if (d.seq !== r.seq || d.from !== r.from || d.to !== r.to)
        throw new Error(`seed ${seed} step ${step}: delivered seq ${d.seq}, expected ${r.seq}`);
    }
    if (lane.size !== ref.length || lane.headTime() !== ref[0]?.time)
      throw new Error(`seed ${seed} step ${step}: size ${lane.size}, expected ${ref.length}`);
    if (step % 9973 === 0) expect(lane.values().map((e) => e.seq)).toEqual(ref.map((r) => r.seq));
  }
  expect(lane.values().map((e) => e.seq)).toEqual(ref.map((r) => r.seq));
}

describe('MessageLane', () => {
  it('keeps FIFO order while it grows past several blocks and drains (60,000 pushes first)', () => {
    run(1, 120_000, 0.75);
  });

  it('keeps FIFO order when it hovers around block boundaries (a balanced random walk)', () => {
    for (const seed of [2, 3, 4]) run(seed, 40_000, 0.5);
  });

  it('a lane emptied and refilled starts its block over', () => {
    const lane = new MessageLane();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 200; i++) lane.pushFields(i, round * 1000 + i, 0, 1, 'c', { type: 'm' }, undefined);
      expect(lane.values().map((e) => e.seq)).toEqual(
        Array.from({ length: 200 }, (_, i) => round * 1000 + i),
      );
      lane.clear();
      expect(lane.size).toBe(0);
      expect(lane.headTime()).toBeUndefined();
    }
  });
});
