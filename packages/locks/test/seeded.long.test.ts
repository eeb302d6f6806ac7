import { describe, expect, it } from 'vitest';
import { type SeededOptions, seededRun } from './seeded.js';

/**
 * 10⁴ seeds of the workload of `seeded.test.ts` (3 members, 6 names — 3 shared with k = 2, 3
 * exclusive-only —, two request loops per member, 2 rounds each, plain / ifAvailable / timeout /
 * abort requests). Each seed is small so that the whole stays within the long suite's 120 s
 * budget; it prints the CPU time it took.
 */
const OPTIONS: SeededOptions = { n: 3, names: 6, rounds: 2, sharedNames: 3, k: 2 };
const SEEDS = 10_000;

describe.runIf(process.env.CRITSEC_LONG === '1')('many names, mixed modes, 10⁴ seeds', () => {
  it('0 violations, 0 stuck, nothing left held or queued anywhere', async () => {
    const cpu0 = process.cpuUsage();
    const totals = { grants: 0, nulls: 0, timeouts: 0, aborts: 0, violations: 0, stuck: 0, leftover: 0 };
    const failing: number[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = await seededRun(seed, OPTIONS);
      totals.grants += r.grants;
      totals.nulls += r.nulls;
      totals.timeouts += r.timeouts;
      totals.aborts += r.aborts;
      totals.violations += r.violations.length;
      totals.stuck += r.stuck;
      totals.leftover += r.leftover;
      if (r.violations.length + r.stuck + r.leftover > 0 && failing.length < 10) failing.push(seed);
    }
    const cpu = process.cpuUsage(cpu0);
    console.log(`locks, ${SEEDS} seeds:`, totals, `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
    expect(failing).toEqual([]);
    expect([totals.violations, totals.stuck, totals.leftover]).toEqual([0, 0, 0]);
  });
});
