/**
 * Issue 27 §3, "no message from a legitimate sender can wedge its receiver": a schema-valid
 * Request from a neighbour whose tag is not its current request (what a process restarted without
 * its state would send) must leave the cluster safe and live. The scene: complete:5, default
 * delays, ⟨Request, req 1000000, ts 1⟩ from P4 to every process of N_4 ∪ {P4} at t = 20, beside
 * P4's real requests; the local monitor watches and every process must complete its rounds.
 * Before the arbiter's one-request-per-process rule (`src/arbiter.ts`, README deviation 10) the
 * arbiter took the new tag as a Release of P4's grant and then ignored P4's real, smaller tags:
 * LMUTIN (l = 3) locked up on 17 of seeds 1–20, LMUTEX (k = 1) on 19.
 */
import { collectReached } from '@critsec/core/kit';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import type { CSFactory, LocalSpec } from '@critsec/core';
import { complete, localBounds, lmutex, lmutin, safeInitial } from '../src/index.js';

const graph = complete(5);
const cases: [string, CSFactory, LocalSpec][] = [
  ['LMUTIN l = 3', lmutin({ graph, l: 3 }), localBounds(graph, 3, 5)],
  ['LMUTEX k = 1', lmutex({ graph, k: 1 }), localBounds(graph, 0, 1)],
];

/** The scene for one seed. */
async function forgedRequest(factory: CSFactory, spec: LocalSpec, seed: number): Promise<WorkloadResult> {
  const cluster = createCluster({ factory, spec, initial: safeInitial(spec), seed });
  cluster.net.schedule(20, () => {
    for (const to of [0, 1, 2, 3, 4])
      cluster.net.endpoint(4).send(to, { type: 'Request', req: 1_000_000, ts: 1 });
  });
  const r = await runWorkload(cluster, { rounds: 3, maxEvents: 100_000 });
  await cluster.close();
  expect(cluster.errors.map((e) => e.error.message)).toEqual([]);
  return r;
}

describe('a Request with a tag P4 never issued, from P4 to N_4 ∪ {P4} at t = 20 (issue 27 §3)', () => {
  for (const [name, factory, spec] of cases) {
    it(`${name}, seeds 1–20: 0 lock-ups, 0 safety violations`, async () => {
      const bad: string[] = [];
      const reached = collectReached();
      try {
        for (let seed = 1; seed <= 20; seed++) {
          const r = await forgedRequest(factory, spec, seed);
          if (!r.ok) bad.push(`seed ${seed}: ${r.violation === null ? 'stuck' : 'violation'}`);
        }
      } finally {
        reached.stop();
      }
      expect(bad).toEqual([]);
      // the forged tag was set aside behind P4's entry, and queued once that entry ended
      expect(reached.counts.get('lmutin:request-set-aside')).toBeGreaterThan(0);
      expect(reached.counts.get('lmutin:aside-admitted')).toBeGreaterThan(0);
    });
  }
});
