/**
 * Issue 27 §3: "one h-out-of-k `release` for the sender's own current request while it still
 * waits wedges the whole cluster". The scene (`forged-release.ts`): n = 5, k = 2, h drawn in 1..2,
 * unit delays; from t = 20, the first instant P4 waits in `entry()`, `release(seq, ts 1)` of that
 * request from P4 to P0 and P1. Before the rules of `src/arbiter.ts` ("a release before the OK"),
 * 161 of the first 200 seeds failed: 155 locked up (1, 2 and 3 among them) — the arbiter ended the
 * entry, and P4 waited for its OK for ever, holding the other arbiters' units — and 6 broke
 * Σ units ≤ k (the arbiter had given its OK, and gave the units again). Now an arbiter asks P4
 * with `probe` about a `release` before its OK, or stamped at or below its OK's clock, and keeps
 * the units of a granted entry until P4 answers. What stays (README, third deviation): a forged
 * `release` whose clock is above the OK's is an honest exit's at the arbiter.
 */
import { collectReached } from '@critsec/core/kit';
import { describe, expect, it } from 'vitest';
import { forgedRelease } from './forged-release.js';

describe("a release of P4's current request while it waits, from P4 to P0 and P1 (issue 27 §3)", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: Σ units ≤ k throughout, every process completes its rounds, P4 asks again`, async () => {
      const reached = collectReached();
      const { r, errors, released, granted } = await forgedRelease(seed);
      reached.stop();
      expect(released).toBeDefined();
      expect(granted).toBe(false);
      expect(r.violation).toBeNull();
      expect(r.stuck).toEqual([]);
      expect(r.ok).toBe(true);
      expect(errors).toEqual([]);
      expect(reached.counts.get('h-out-of-k:request-again') ?? 0).toBeGreaterThan(0);
    });
  }

  it('seeds 1–200: 0 lock-ups, 0 violations (in 80 runs the OK had been given when it arrived)', async () => {
    const bad: string[] = [];
    let granted = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const x = await forgedRelease(seed);
      expect(x.released).toBeDefined();
      if (x.granted) granted++;
      if (!x.r.ok || x.errors.length > 0) bad.push(`seed ${seed}: ${x.r.failure ?? x.errors[0]}`);
    }
    expect(bad).toEqual([]);
    expect(granted).toBe(80);
  });

  it('what stays: the same release stamped ts 1000 (above the OK) — 0 lock-ups, 6 of 200 over k', async () => {
    let stuck = 0;
    let unsafe = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const { r } = await forgedRelease(seed, 20, undefined, 1000);
      if (r.violation !== null) unsafe++;
      else if (!r.ok) stuck++;
    }
    expect([stuck, unsafe]).toEqual([0, 6]);
  });
});
