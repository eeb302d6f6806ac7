/**
 * Messages per pair under contention beyond n = 3 (issue 14, "causal message attribution under
 * contention"): the concurrent workload with every process always requesting (think = hold = 0),
 * every message charged to the invocation whose message chain caused it (`attribution: true`), so
 * that `perPair.max` is a number for every algorithm, asserted against the lemmas' worst case:
 * Maekawa's 6|Q| per CS plus Lemma 3's 6|Q| per MUTIN layer (MUTIN and 2-mutex one layer, GCS
 * two). Seeded; the figures are printed.
 */
import { type CSFactory, globalSpec, mutexSpec, type ProblemSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { gcs, kMutex } from '@critsec/gcs';
import { maekawa } from '@critsec/mutex';
import { mutin } from '@critsec/mutin';
import { createCluster, runWorkload } from '@critsec/harness';
import { type DelayModel, exponentialDelay, unitDelay } from '@critsec/transport-sim';
import { afterAll, describe, expect, it } from 'vitest';

const coterie = grid(9);
const Q = 5; // |Q| of grid(9): 2·3 − 1
const DELAYS: readonly DelayModel[] = [unitDelay, exponentialDelay(1)];
const SEEDS = [1, 2];

const cases: { name: string; factory: () => CSFactory; spec: ProblemSpec; bound: number }[] = [
  { name: 'Maekawa', factory: () => maekawa({ coterie }), spec: mutexSpec(9), bound: 6 * Q },
  { name: 'MUTIN(3)', factory: () => mutin({ l: 3, coterie }), spec: globalSpec(3, 9, 9), bound: 12 * Q },
  { name: '4-mutex', factory: () => kMutex({ k: 4, coterie }), spec: globalSpec(0, 4, 9), bound: 12 * Q },
  {
    name: '(2,5)-GCS',
    factory: () => gcs({ l: 2, k: 5, coterie }),
    spec: globalSpec(2, 5, 9),
    bound: 24 * Q,
  },
];

const report: string[] = [];
afterAll(() => {
  if (report.length > 0) console.info(report.join('\n'));
});

describe('messages per pair under full contention over grid(9), causally attributed', () => {
  for (const c of cases) {
    it(`${c.name}: perPair.max is a number and ≤ ${c.bound} (= ${c.bound / Q}|Q|)`, async () => {
      let max = 0;
      let sum = 0;
      let pairs = 0;
      let waiting = 0;
      for (const delay of DELAYS) {
        for (const seed of SEEDS) {
          const cluster = createCluster({
            factory: c.factory(),
            spec: c.spec,
            seed,
            delay,
            attribution: true,
          });
          const r = await runWorkload(cluster, { rounds: 2, think: 0, hold: 0 });
          expect(r.ok, r.failure ?? '').toBe(true);
          expect(Number.isFinite(r.perPair.max)).toBe(true);
          expect(r.perPair.count).toBe(2 * 9);
          max = Math.max(max, r.perPair.max);
          sum += r.perPair.mean * r.perPair.count;
          pairs += r.perPair.count;
          waiting = Math.max(waiting, r.waiting.entry.max, r.waiting.exit.max);
          await cluster.close();
        }
      }
      expect(max).toBeLessThanOrEqual(c.bound);
      report.push(
        `${c.name} over grid(9), full contention (seeds ${SEEDS.join(', ')}, unit and exponential(1) delays): per pair mean ${(sum / pairs).toFixed(2)} = ${(sum / pairs / Q).toFixed(2)}|Q|, max ${max} = ${(max / Q).toFixed(2)}|Q| (≤ ${c.bound}); invocation-to-completion max ${waiting.toFixed(2)}`,
      );
    });
  }
});
