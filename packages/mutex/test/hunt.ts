/**
 * Deadlock hunting where deadlocks actually happen (n = 3 is structurally blind: each arbiter
 * serves two requesters). Seeded runs on the 2×2 grid (n = 4), the projective plane of
 * order 2 (n = 7) and the 3×3 grid (n = 9): half under uniform(0.1, 2) delays, half under
 * exponential(1), every process requesting 2 times with short think and hold times (0.5) so that
 * requests collide. Any violation or stuck process fails with the seed and a replayable trace.
 * Fairness is measured on the same runs: how many requests of other processes, invoked after a
 * request's REQUESTs had reached all its arbiters, entered before it (bound n − 1, proved in
 * `fairnessProbe`); the naive count (every later invocation) is reported too — it is not bounded,
 * since a slow REQUEST lets any number of later requests pass (the nightly run saw 7 on the
 * 7-process plane, seed 96476).
 *
 * Registered by `deadlock-hunt.test.ts` (1,000 seeds per configuration, with the test that the
 * hunt has teeth) and `deadlock-hunt.long.test.ts` (10,000 per configuration).
 */
import { mutexSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { type Coterie, grid, projectivePlane } from '@critsec/coteries';
import { runWorkload, createCluster } from '@critsec/harness';
import { type CSComplianceSetup, runSeed } from '@critsec/testing/cs';
import { type DelayModel, exponentialDelay, uniformDelay } from '@critsec/transport-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';
import { fairnessProbe, maxOvertakes } from './helpers.js';

export const DELAYS: readonly DelayModel[] = [uniformDelay(0.1, 2), exponentialDelay(1)];
export const WORKLOAD = { rounds: 2, think: 0.5, hold: 0.5 } as const;

export const CONFIGS: [string, Coterie][] = [
  ['grid 2×2 (n = 4)', grid(4)],
  ['projective plane q = 2 (n = 7)', projectivePlane(2)],
  ['grid 3×3 (n = 9)', grid(9)],
];

/** Registers the hunt: `SEEDS` seeds on each configuration. */
export function deadlockHunt(SEEDS: number): void {
  describe(`Maekawa deadlock hunt, ${SEEDS} seeds per configuration`, () => {
    const reached = collectReached();
    const summary: string[] = [];
    afterAll(() => {
      reached.stop();
      console.info(`deadlock hunt:\n  ${summary.join('\n  ')}`);
    });

    for (const [label, coterie] of CONFIGS) {
      it(`${label}: ${SEEDS} seeds under random delays, 0 violations, 0 stuck processes, fairness bound n − 1`, async () => {
        const setup: CSComplianceSetup = {
          it: () => {},
          name: `maekawa-hunt-${coterie.description}`,
          factory: maekawa({ coterie }),
          spec: mutexSpec(coterie.n),
          traceDir: '.traces',
        };
        let entries = 0;
        let messages = 0;
        let overtakes = 0;
        let naive = 0;
        for (let s = 0; s < SEEDS; s++) {
          const seed = 1 + s;
          const delay = DELAYS[s % DELAYS.length]!;
          const probe = fairnessProbe();
          const cluster = createCluster({
            factory: probe.wrap(setup.factory),
            spec: setup.spec,
            seed,
            delay,
          });
          probe.attach(cluster.net);
          const r = await runWorkload(cluster, WORKLOAD);
          // on failure, the suite's runSeed replays the seed with a trace and throws naming both
          if (!r.ok || cluster.errors.length > 0) await runSeed(setup, seed, delay, WORKLOAD);
          expect(r.ok).toBe(true);
          entries += r.entries;
          messages += r.messages.sent;
          overtakes = Math.max(overtakes, probe.maxOvertakes(r.records));
          naive = Math.max(naive, maxOvertakes(r.records));
        }
        expect(entries).toBe(SEEDS * coterie.n * WORKLOAD.rounds);
        // fairness: once a request's REQUESTs have reached its arbiters, at most n − 1 later ones pass it
        expect(overtakes).toBeLessThanOrEqual(coterie.n - 1);
        summary.push(
          `${label}: ${SEEDS} seeds, ${entries} entries, ${(messages / entries).toFixed(2)} messages per CS, 0 violations, 0 stuck; max overtakes ${overtakes} (bound n − 1 = ${coterie.n - 1}), counting every later invocation ${naive}`,
        );
      });
    }

    it('every rare path was taken across the hunt (INQUIRE, deferral, RELINQUISH, displaced FAILED, …)', () => {
      const expected = [
        'maekawa:inquire',
        'maekawa:inquire-deferred',
        'maekawa:relinquish',
        'maekawa:relinquish-after-failed',
        'maekawa:failed-displaced',
        'maekawa:inquire-after-entry',
      ];
      expect(reached.missing(expected)).toEqual([]);
      summary.push(
        `rare paths: ${expected.map((l) => `${l.slice('maekawa:'.length)} ×${reached.counts.get(l)}`).join(', ')}`,
      );
    });
  });
}
