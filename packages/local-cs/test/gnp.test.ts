/*
 * The G(n, p) edges of `randomGraph` (gnp.ts, Batagelj & Brandes 2005): one PRNG draw per edge
 * instead of one per pair (issue 26: `--graph random:100000:0.0001` drew 5·10⁹ times and ran
 * silently for minutes), and still every pair an edge independently with probability p.
 */
import { createRng } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { gnpEdges } from '../src/gnp.js';

/** `createRng(seed).next`, counting its draws. */
function counted(seed: number) {
  const rng = createRng(seed);
  const c = {
    draws: 0,
    next: () => {
      c.draws++;
      return rng.next();
    },
  };
  return c;
}

describe('gnpEdges', () => {
  it('draws once per edge plus once: O(n + m), not n(n−1)/2', () => {
    const n = 20_000;
    const p = 0.0005; // 99,990 expected edges among 199,990,000 pairs
    const rnd = counted(3);
    const edges = gnpEdges(n, p, rnd.next);
    expect(rnd.draws).toBe(edges.length + 1);
    expect(Math.abs(edges.length - (p * n * (n - 1)) / 2)).toBeLessThan(5 * Math.sqrt((p * n * (n - 1)) / 2));
  });

  it('gives every pair the probability p, independently of its place in the order', () => {
    const n = 8;
    const p = 0.3;
    const samples = 20_000;
    const rnd = counted(11);
    const hits = new Map<string, number>();
    let ordered = true;
    for (let s = 0; s < samples; s++) {
      for (const [w, v] of gnpEdges(n, p, rnd.next)) {
        ordered &&= w < v;
        hits.set(`${w},${v}`, (hits.get(`${w},${v}`) ?? 0) + 1);
      }
    }
    expect(ordered).toBe(true);
    expect(hits.size).toBe((n * (n - 1)) / 2);
    // binomial standard deviation √(p(1−p)/samples) ≈ 0.0032: 5 of them
    for (const [pair, h] of hits)
      expect({ pair, off: Math.abs(h / samples - p) < 0.016 }).toEqual({ pair, off: true });
  });

  it('p = 0: no edge; p = 1: every pair once, in order', () => {
    expect(gnpEdges(50, 0, createRng(1).next)).toEqual([]);
    const all = gnpEdges(5, 1, createRng(1).next);
    expect(all).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
      [0, 3],
      [1, 3],
      [2, 3],
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
  });
});
