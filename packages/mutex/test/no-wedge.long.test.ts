/**
 * Issue 27 §3, long suite: one REQUEST in the name of a legitimate sender (the last process, to
 * every arbiter of its quorum but itself on majority(5) P0 and P1 as in the fast test; on grid(9)
 * to all of `Q_8`), with a tag above, among or below the sender's own tags, at several instants,
 * under unit and uniform delays: never two processes InCS, every process completes its rounds.
 * Measured with rules A4/R7: 0 of 11,200 runs stuck or unsafe (7 tags × 4 instants × 2 delay
 * models × 2 coteries × 100 seeds).
 */
import { mutexSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { CLOCK_MAX } from '@critsec/transport';
import { uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';

const TAGS = [0, 1, 3, 7, 12, 1_000_000, CLOCK_MAX];
const INSTANTS = [0, 5, 12, 20];

describe("a REQUEST in a legitimate sender's name never wedges Maekawa (issue 27 §3)", () => {
  for (const [label, coterie] of [
    ['majority(5)', majority(5)],
    ['grid(9)', grid(9)],
  ] as const) {
    for (const [dl, delay] of [
      ['unit', undefined],
      ['uniform(0.1, 2)', uniformDelay(0.1, 2)],
    ] as const) {
      it(`${label}, ${dl} delays: ${TAGS.length} tags × ${INSTANTS.length} instants × 100 seeds`, async () => {
        const from = coterie.n - 1;
        const to = coterie.n === 5 ? [0, 1] : [...new Set(coterie.quorumOf(from))];
        const bad: string[] = [];
        for (const req of TAGS) {
          for (const t of INSTANTS) {
            for (let seed = 1; seed <= 100; seed++) {
              const cluster = createCluster({
                factory: maekawa({ coterie }),
                spec: mutexSpec(coterie.n),
                seed,
                delay,
              });
              cluster.net.schedule(t, () => {
                for (const k of to) cluster.net.endpoint(from).send(k, { type: 'REQUEST', req, ts: 1 });
              });
              const r = await runWorkload(cluster, { rounds: 3 });
              await cluster.close();
              if (!r.ok || cluster.errors.length > 0)
                bad.push(`req ${req}, t ${t}, seed ${seed}: ${r.failure}`);
            }
          }
        }
        expect(bad).toEqual([]);
      });
    }
  }
});
