import { describe, expect, it } from 'vitest';
import { type SeededOptions, seededRun } from './seeded.js';

/** The short run of `seeded.long.test.ts`'s workload (100 seeds here, 10⁴ there). */
const OPTIONS: SeededOptions = { n: 3, names: 6, rounds: 2, sharedNames: 3, k: 2 };

describe('many names, mixed modes, seeded over the simulator', () => {
  it('100 seeds: 0 violations, 0 stuck, nothing left held or queued anywhere', async () => {
    const totals = { grants: 0, nulls: 0, timeouts: 0, aborts: 0, maxShared: 0 };
    for (let seed = 1; seed <= 100; seed++) {
      const r = await seededRun(seed, OPTIONS);
      expect(r.violations, `seed ${seed}`).toEqual([]);
      expect(r.stuck, `seed ${seed}`).toBe(0);
      expect(r.leftover, `seed ${seed}`).toBe(0);
      totals.grants += r.grants;
      totals.nulls += r.nulls;
      totals.timeouts += r.timeouts;
      totals.aborts += r.aborts;
      totals.maxShared = Math.max(totals.maxShared, r.maxShared);
    }
    // every path was taken
    expect(totals.nulls).toBeGreaterThan(0);
    expect(totals.timeouts).toBeGreaterThan(0);
    expect(totals.aborts).toBeGreaterThan(0);
    expect(totals.maxShared).toBe(OPTIONS.k);
    console.log('locks seeded (100 seeds):', totals);
  });
});
