import { describe, expect, it } from 'vitest';
import { quantile, summarize, type TimedRound, windowThroughput } from '../src/stats.js';

const rounds = (durations: readonly number[], start = 0): TimedRound[] => {
  let t = start;
  return durations.map((d) => {
    const r = { start: t, end: t + d };
    t += d;
    return r;
  });
};

describe('quantile (nearest rank)', () => {
  it('picks the ⌈q·n⌉-th smallest', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(xs, 0.5)).toBe(50);
    expect(quantile(xs, 0.99)).toBe(99);
    expect(quantile(xs, 1)).toBe(100);
    expect(quantile([7], 0.5)).toBe(7);
    expect(quantile([1, 2, 3], 0.5)).toBe(2);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('summarize', () => {
  it('reports quantiles, mean and max of round durations', () => {
    const s = summarize(rounds([3, 1, 2, 10]));
    expect(s).toEqual({ count: 4, p50: 2, p99: 10, mean: 4, max: 10 });
  });
});

describe('windowThroughput', () => {
  it('is rounds per second over a lone client’s span', () => {
    const t = windowThroughput([rounds([1, 1, 1, 1])]);
    expect(t).toEqual({ perSecond: 1000, rounds: 4, windowMs: 4 });
  });

  it('counts only rounds ending while every client runs', () => {
    // A: 0–10 ms in 1 ms rounds; B: 5–20 ms in 5 ms rounds → window 5–10 ms.
    const t = windowThroughput([rounds(new Array(10).fill(1)), rounds([5, 5, 5], 5)]);
    expect(t.windowMs).toBe(5);
    // A's rounds ending at 6,7,8,9,10 and B's ending at 10.
    expect(t.rounds).toBe(6);
    expect(t.perSecond).toBeCloseTo(1200);
  });

  it('is zero without rounds or when the clients never overlap', () => {
    expect(windowThroughput([]).perSecond).toBe(0);
    expect(windowThroughput([rounds([1]), rounds([1], 5)]).perSecond).toBe(0);
  });
});
