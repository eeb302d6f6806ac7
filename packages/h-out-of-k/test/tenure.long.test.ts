/**
 * Time-bounded, fenced h-out-of-k over 2,000 seeds (issue 28 §3): k = 2, h in {1, 2} per entry,
 * arbiters {0, 1, 2}, ttl 12; holders paused past the ttl, a seeded pause of anyone, a seeded
 * partition that heals, a crash-stopped holder or waiter (P3 or P4) per seed; and 1,000 seeds
 * over the uniform (h,k)-arbiter of n = 5 (every process an arbiter) with the same pauses and
 * partitions and no crash (a dead arbiter needs quorum reselection: README, "What is left").
 * `CRITSEC_LONG=1 npx vitest run test/tenure.long.test.ts` (measured figure in the README).
 */
import { describe, expect, it } from 'vitest';
import { tenureBatch } from './tenure-run.js';

describe('time-bounded grants, long', () => {
  it('2,000 seeds: 0 conflicting effects at a fencing store, 0 fencing violations, 0 stuck while a quorum is alive', async () => {
    const t = await tenureBatch(1, 2_000);
    console.log('h-out-of-k tenure long:', t);
    expect({ conflicts: t.conflicts, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
      conflicts: 0,
      violations: 0,
      stuck: 0,
      bad: [],
    });
    expect(t.expired).toBeGreaterThan(0);
    expect(t.rejected).toBeGreaterThan(0);
  });

  it('1,000 seeds over the uniform (h,k)-arbiter, pauses and partitions: 0 conflicting effects, 0 fencing violations, 0 stuck', async () => {
    const t = await tenureBatch(1, 1_000, { structure: 'uniform', crash: false });
    console.log('h-out-of-k tenure long, uniform:', t);
    expect({ conflicts: t.conflicts, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
      conflicts: 0,
      violations: 0,
      stuck: 0,
      bad: [],
    });
    expect(t.expired).toBeGreaterThan(0);
  });
});
