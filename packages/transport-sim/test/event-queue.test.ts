import { createRng } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { EventQueue, type SimEvent } from '../src/event-queue.js';

/** Events taken out of a queue fed by a seeded mix of heap and in-order pushes and pops. */
function drive(seed: number, inOrderShare: number) {
  const rng = createRng(seed);
  const q = new EventQueue<SimEvent>();
  const reference: SimEvent[] = [];
  const popped: SimEvent[] = [];
  const sizes: number[] = [];
  let now = 0;
  let seq = 0;
  for (let step = 0; step < 20_000; step++) {
    const r = rng.next();
    if (r < 0.45) {
      // a constant delay (usually in order) or a drawn one
      const inOrder = rng.next() < inOrderShare;
      const e = { time: now + (inOrder ? 1 : Math.floor(rng.next() * 5)), seq: seq++ };
      reference.push(e);
      if (inOrder) q.pushInOrder(e);
      else q.push(e);
    } else if (q.size > 0) {
      const e = q.pop()!;
      popped.push(e);
      sizes.push(q.size - (reference.length - popped.length));
      now = e.time;
    }
  }
  for (let e = q.pop(); e !== undefined; e = q.pop()) popped.push(e);
  return { popped, reference, sizes };
}

describe('EventQueue', () => {
  it.each([
    [1, 0],
    [2, 0.5],
    [3, 0.95],
    [4, 1],
  ])('pops by (time, seq) whatever lane each event took (seed %i, in-order share %f)', (seed, share) => {
    const { popped, reference, sizes } = drive(seed, share);
    expect(sizes.every((d) => d === 0)).toBe(true);
    const sorted = [...reference].sort((a, b) => a.time - b.time || a.seq - b.seq);
    expect(popped).toEqual(sorted);
  });

  it('keeps every event across a long in-order run (the lane compacts) and removes by predicate', () => {
    const q = new EventQueue<SimEvent>();
    for (let i = 0; i < 10_000; i++) q.pushInOrder({ time: i, seq: i });
    for (let i = 0; i < 6_000; i++) expect(q.pop()).toEqual({ time: i, seq: i });
    q.push({ time: 0.5, seq: 10_001 });
    expect(q.size).toBe(4_001);
    expect(q.values()).toHaveLength(4_001);
    expect(q.removeWhere((e) => e.seq % 2 === 1)).toBe(2_001);
    expect(q.peek()).toEqual({ time: 6_000, seq: 6_000 });
    expect(q.size).toBe(2_000);
  });
});
