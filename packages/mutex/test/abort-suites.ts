/**
 * The aborted-entries runs of `abort.test.ts` (fast) and `abort.long.test.ts` (full budget), written
 * once (DESIGN.md 3.1: an aborted entry gives back partial permissions and rejects with AbortError):
 * seeded Maekawa runs over several coteries and all delay models, plus Ricart–Agrawala runs; 30 % of
 * entries get an abort at a uniformly random time within 3 time units (cancelled if the entry
 * completes first). Each run must stay safe and live for everybody, and after it is driven to rest
 * every arbiter must be unlocked with an empty queue and every requester idle — no lock leaked, no
 * queue entry left behind.
 */
import { mutexSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { type Coterie, grid, majority, projectivePlane, tree, wall } from '@critsec/coteries';
import { createCluster, describeFailure, runWorkload } from '@critsec/harness';
import { drainToRest } from '@critsec/testing';
import { type DelayModel, exponentialDelay, uniformDelay, unitDelay } from '@critsec/transport-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { maekawa, type RicartAgrawalaSnapshot, ricartAgrawala } from '../src/index.js';
import { customCoterie, inspectM } from './helpers.js';

const DELAYS: readonly DelayModel[] = [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)];
const ABORT = { probability: 0.3, within: 3 } as const;

const COTERIES: Coterie[] = [
  grid(4),
  grid(9),
  projectivePlane(2),
  majority(5),
  tree(7),
  wall([3, 3, 3]),
  customCoterie(13),
  grid(16),
];

/**
 * Registers both suites: `maekawaRuns` Maekawa runs (`MUTEX_ABORT_RUNS` overrides it) and `raRuns`
 * Ricart–Agrawala runs.
 */
export function abortSuites(maekawaRuns: number, raRuns: number): void {
  const RUNS = Number(process.env.MUTEX_ABORT_RUNS ?? maekawaRuns);

  describe('aborted entries (Maekawa)', () => {
    const reached = collectReached();
    const summary: string[] = [];
    afterAll(() => {
      reached.stop();
      console.info(summary.join('\n'));
    });

    it(`${RUNS} seeded runs with random aborts: safe, live, and every arbiter clean afterwards`, async () => {
      let aborted = 0;
      let entries = 0;
      for (let s = 0; s < RUNS; s++) {
        const coterie = COTERIES[s % COTERIES.length]!;
        const delay = DELAYS[Math.floor(s / COTERIES.length) % DELAYS.length]!;
        const cluster = createCluster({
          factory: maekawa({ coterie }),
          spec: mutexSpec(coterie.n),
          seed: 700_000 + s,
          delay,
        });
        const r = await runWorkload(cluster, { rounds: 3, think: 1, hold: 0.5, abort: ABORT });
        if (!r.ok) throw new Error(describeFailure(`maekawa ${coterie.description} with aborts`, r));
        expect(cluster.errors).toEqual([]);
        aborted += r.aborted;
        entries += r.entries;
        await drainToRest(cluster);
        expect(cluster.firstViolation).toBeNull();
        for (let i = 0; i < coterie.n; i++) {
          const snap = inspectM(cluster, i);
          expect(snap.arbiter, `seed ${700_000 + s}, arbiter P${i}`).toEqual({
            grantedTo: -1,
            grantedReq: 0,
            inquired: false,
            queue: [],
            aside: [],
          });
          expect(snap.requester).toMatchObject({ request: -1, waiting: false, locks: [] });
        }
      }
      expect(aborted).toBeGreaterThan(RUNS / 2);
      summary.push(
        `aborts, Maekawa: ${RUNS} runs, ${aborted} aborted entries, ${entries} completed entries, all clean`,
      );
    });

    it('the aborts exercised the withdrawal paths (stale messages ignored, queued requests cancelled, relinquished locks regranted)', () => {
      const expected = ['maekawa:stale-ignored', 'maekawa:cancel-queued', 'maekawa:regrant-relinquisher'];
      expect(reached.missing(expected)).toEqual([]);
      summary.push(`abort paths: ${expected.map((l) => `${l} ×${reached.counts.get(l)}`).join(', ')}`);
    });
  });

  describe('aborted entries (Ricart–Agrawala)', () => {
    it(`${raRuns} seeded runs with random aborts: safe, live, nothing deferred afterwards`, async () => {
      let aborted = 0;
      for (let s = 0; s < raRuns; s++) {
        const n = [3, 5, 9][s % 3]!;
        const cluster = createCluster({
          factory: ricartAgrawala(),
          spec: mutexSpec(n),
          seed: 800_000 + s,
          delay: DELAYS[Math.floor(s / 3) % DELAYS.length]!,
        });
        const r = await runWorkload(cluster, { rounds: 3, think: 1, hold: 0.5, abort: ABORT });
        if (!r.ok) throw new Error(describeFailure(`ricart-agrawala n=${n} with aborts`, r));
        aborted += r.aborted;
        await drainToRest(cluster);
        for (const cs of cluster.objects) {
          const snap = (cs as unknown as { inspect(): RicartAgrawalaSnapshot }).inspect();
          expect(snap).toMatchObject({ request: -1, requesting: false, deferred: [] });
        }
      }
      expect(aborted).toBeGreaterThan(raRuns / 3);
    });
  });
}
