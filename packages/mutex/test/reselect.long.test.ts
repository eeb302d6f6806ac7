/**
 * Quorum reselection (issue 28 §4), long suite: the runs of `reselect.test.ts`
 * (`reselect-run.ts`) over 10,000 seeds — 2,500 each of majority(5) and tree(7) with a member
 * crash-stopped, and of majority(5) and tree(7) with a member cut off (twice when the run lasts)
 * — 0 violations, 0 live processes stuck, and the majority side entered during every cut.
 * Seeds are cheap (3 rounds per process) so the whole file stays within its CI budget.
 */
import { majority, tree } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { type ReselectScenario, runReselect } from './reselect-run.js';

const SEEDS = 2_500;
const ROUNDS = 3;

describe('Maekawa with quorum reselection, long', () => {
  for (const coterie of [majority(5), tree(7)]) {
    for (const scenario of ['crash', 'partition'] as ReselectScenario[]) {
      it(`${coterie.description}, ${scenario}: ${SEEDS} seeds, 0 violations, 0 live processes stuck`, async () => {
        const bad: string[] = [];
        let cuts = 0;
        let emptyCuts = 0;
        let faulted = 0;
        for (let seed = 1; seed <= SEEDS && bad.length === 0; seed++) {
          const r = await runReselect(coterie, scenario, 100_000 + seed, ROUNDS);
          if (r.failure !== null || r.stuck > 0) bad.push(r.failure ?? `seed ${seed}: ${r.stuck} stuck`);
          cuts += r.duringCuts.length;
          if (r.faulted) faulted++;
          emptyCuts += r.duringCuts.filter((e) => e === 0).length;
        }
        expect(bad).toEqual([]);
        console.info(
          `${coterie.description}, ${scenario}: the fault happened in ${faulted} of ${SEEDS} seeds`,
        );
        expect(faulted).toBeGreaterThanOrEqual(0.95 * SEEDS);
        if (scenario === 'partition') {
          console.info(`${coterie.description}: ${cuts} cuts, ${emptyCuts} without a majority-side entry`);
          expect(cuts).toBeGreaterThanOrEqual(faulted);
          expect(emptyCuts).toBe(0);
        }
      });
    }
  }
});
