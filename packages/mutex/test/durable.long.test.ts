/**
 * Crash recovery of Maekawa's algorithm, long suite (issue 27): the swap-restore run of
 * `durable.test.ts` (`durable-run.ts`: at 4 random instants per run a process is replaced by an
 * object rebuilt from its `durableState()` on the same endpoint and `recover()`ed) over 5,000
 * seeds on majority(5) and 5,000 on grid(9): 0 safety violations, every process completes its 3
 * rounds, every arbiter is unlocked at the end.
 */
import { type Coterie, grid, majority } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';
import { swapRestoreRun } from './durable-run.js';

const SEEDS = 5_000;

describe('swap-restore, long: processes rebuilt from their durable state mid-run', () => {
  for (const [name, coterie] of [
    ['majority(5)', majority(5)],
    ['grid(9)', grid(9)],
  ] as [string, Coterie][]) {
    it(`${name}: ${SEEDS} seeds, 4 swaps each — 0 violations, every process completes its rounds`, async () => {
      const factory = maekawa({ coterie });
      const bad: string[] = [];
      let cut = 0;
      for (let seed = 1; seed <= SEEDS && bad.length === 0; seed++) {
        const r = await swapRestoreRun(factory, coterie.n, seed, { swaps: 4 });
        cut += r.cut;
        if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0) {
          bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
        }
      }
      expect(bad).toEqual([]);
      expect(cut).toBeGreaterThan(SEEDS); // most runs cut a waiting entry or a held CS
    });
  }
});
