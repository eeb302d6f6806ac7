/**
 * Negative test: break FIFO underneath and check that the tests notice. The simulator has no
 * fault-injection layer below the session layer yet, so the reordering comes from the network
 * itself: `fifo: false` lets a later message overtake an earlier one on the same link under random
 * delays.
 *
 * What the harness catches is a liveness failure: Maekawa relies on FIFO for progress (an INQUIRE
 * that overtakes its LOCKED is ignored and the arbiter waits forever for a RELINQUISH; a RELEASE
 * that overtakes its REQUEST leaves a zombie request holding a lock), and the workload reports
 * the stuck processes with the seed. Safety does not depend on FIFO: every message carries its
 * request's tag, so the safety monitor stays silent on the same runs — asserted here, so a change
 * that makes safety FIFO-dependent fails this test. This setup caught a bug in an earlier draft,
 * where any REQUEST of a process replaced that process's older entry at an arbiter: an overtaken
 * older REQUEST displaced a newer, granted one and two processes entered together. Now only a
 * newer request (larger tag) replaces an older one.
 */
import { mutexSpec } from '@critsec/core';
import { grid, projectivePlane } from '@critsec/coteries';
import { createCluster, describeFailure, runWorkload } from '@critsec/harness';
import { exponentialDelay, uniformDelay } from '@critsec/transport-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

describe('FIFO broken underneath', () => {
  for (const [label, coterie] of [
    ['grid 3×3', grid(9)],
    ['projective plane q=2', projectivePlane(2)],
  ] as const) {
    for (const abort of [false, true]) {
      it(`Maekawa on ${label}${abort ? ' with aborts' : ''}: the harness reports stuck processes with their seed; safety still holds`, async () => {
        const runs = 300;
        let stuck = 0;
        let violations = 0;
        let first = '';
        for (let s = 1; s <= runs; s++) {
          const cluster = createCluster({
            factory: maekawa({ coterie }),
            spec: mutexSpec(coterie.n),
            seed: s,
            delay: s % 2 === 0 ? exponentialDelay(1) : uniformDelay(0.1, 2),
            fifo: false,
          });
          const r = await runWorkload(cluster, {
            rounds: 3,
            think: 0.5,
            hold: 0.5,
            ...(abort ? { abort: { probability: 0.3, within: 2 } } : {}),
          });
          if (r.violation !== null) violations++;
          if (r.stuck.length > 0) {
            stuck++;
            if (first === '') {
              first = describeFailure(`maekawa ${label}, fifo: false`, r);
              expect(first).toMatch(new RegExp(`seed ${s}`));
              expect(first).toMatch(/did not finish their rounds/);
            }
          }
        }
        expect(stuck).toBeGreaterThan(runs / 10);
        expect(violations).toBe(0);
        report.push(
          `fifo: false, Maekawa ${label}${abort ? ' + aborts' : ''}: ${stuck}/${runs} runs stuck (detected), ${violations} safety violations; first: ${first.slice(0, 160)}…`,
        );
      });
    }
  }

  // The first 100 of the same seeds (the compliance suites run Maekawa on grid(9) with FIFO over
  // thousands more): the stuck runs above are FIFO's doing, not the workload's.
  it('with FIFO kept, the same runs all finish', async () => {
    for (let s = 1; s <= 100; s++) {
      const cluster = createCluster({
        factory: maekawa({ coterie: grid(9) }),
        spec: mutexSpec(9),
        seed: s,
        delay: s % 2 === 0 ? exponentialDelay(1) : uniformDelay(0.1, 2),
      });
      const r = await runWorkload(cluster, { rounds: 3, think: 0.5, hold: 0.5 });
      expect(r.ok, r.failure ?? '').toBe(true);
    }
  });
});
