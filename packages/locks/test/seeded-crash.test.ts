import { describe, expect, it } from 'vitest';
import { type SeededOptions, seededRun } from './seeded.js';

/**
 * `seeded.test.ts`'s workload with a member crash-stopped (issue 28 §4 through the manager): 5
 * members, 6 names — 3 shared with k = 3 = n − 2 (the uniform (h,k)-arbiter then has alternatives
 * for every h), 3 exclusive-only —, `reselect` and a `ttl` (a dead holder's locks come back), a
 * random member crash-stopped at a random time in 0 … 11.
 */
const OPTIONS: SeededOptions = {
  n: 5,
  names: 6,
  rounds: 2,
  sharedNames: 3,
  k: 3,
  crashStop: true,
  reselect: true,
  ttl: 30,
};
const SEEDS = 20;

describe('many names, mixed modes, a member crash-stopped, seeded over the simulator', () => {
  it(`${SEEDS} seeds with reselect: 0 violations, every live member's loops finish`, async () => {
    const cpu0 = process.cpuUsage();
    const totals = { grants: 0, nulls: 0, timeouts: 0, aborts: 0, maxShared: 0 };
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = await seededRun(seed, OPTIONS);
      expect(r.violations, `seed ${seed}`).toEqual([]);
      expect(r.stuck, `seed ${seed} (P${r.crashed} crashed)`).toBe(0);
      totals.grants += r.grants;
      totals.nulls += r.nulls;
      totals.timeouts += r.timeouts;
      totals.aborts += r.aborts;
      totals.maxShared = Math.max(totals.maxShared, r.maxShared);
    }
    expect(totals.maxShared).toBeGreaterThanOrEqual(2);
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `locks seeded with a crash-stop (${SEEDS} seeds):`,
      totals,
      `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
    );
  });

  it('without reselect the same faults leave live members stuck', async () => {
    let stuck = 0;
    for (let seed = 1; seed <= 3; seed++)
      stuck += (await seededRun(seed, { ...OPTIONS, reselect: false })).stuck;
    expect(stuck).toBeGreaterThan(0);
  });
});
