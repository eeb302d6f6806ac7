/**
 * `test/worst-case.test.ts` with larger budgets (`npm run test:long`): messages per exit+entry
 * pair of P_i in units of |N_i| + 1, everyone contending over delivery orders — LMUTIN and LMUTEX
 * at most 6 (Lemma 3), LKCS within 1.5 × 12 (Lemma 6; README). Printed and recorded in the README.
 */
import { type ScheduleRun, searchWorstSchedule } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { type Instance, lkcsFamilies, lmutexFamilies, lmutinFamilies } from './families.js';

const perNeighbourhood =
  (x: Instance) =>
  (run: ScheduleRun): number =>
    Math.max(0, ...run.pairs.map((p) => p.messages / (x.graph.neighbors[p.process]!.length + 1)));

const search = (x: Instance, maxSteps: number) =>
  searchWorstSchedule({
    cluster: { factory: x.factory, spec: x.spec, initial: x.initial },
    measure: perNeighbourhood(x),
    maxSteps,
  });

describe('worst schedule found, long', () => {
  for (const x of [lmutinFamilies()[0]!, lmutinFamilies()[3]!, lmutexFamilies()[0]!, lmutexFamilies()[3]!]) {
    it(`${x.name}: at most 6·(|N_i|+1) (Lemma 3), 100,000 steps`, async () => {
      const r = await search(x, 100_000);
      expect(r.failure).toBeNull();
      expect(r.value).toBeLessThanOrEqual(6);
      console.info(`${x.name}: worst pair ${r.value}·(|N_i|+1) (${r.runs} runs); replay ${r.replay}`);
    });
  }
  for (const x of lkcsFamilies().slice(0, 2)) {
    it(`${x.name}: within 1.5 × 12·(|N_i|+1) (Lemma 6), 100,000 steps`, async () => {
      const r = await search(x, 100_000);
      expect(r.failure).toBeNull();
      expect(r.value).toBeLessThanOrEqual(18);
      console.info(`${x.name}: worst pair ${r.value}·(|N_i|+1) (${r.runs} runs); replay ${r.replay}`);
    });
  }
});
