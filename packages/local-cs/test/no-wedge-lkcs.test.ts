/**
 * Issue 27 §3 for LKCS (README deviation 11): a schema-valid Request from a neighbour whose tag is
 * not its current request — what a process restarted without its state would send — must leave
 * the cluster safe and live. The scene, as `no-wedge.test.ts` plays it for LMUTIN and LMUTEX:
 * complete:6 with (l, k) = (1, 4) (leader P0, (L_i, K_i) = (2, 3)), default delays,
 * ⟨Request, at, req 1000000, ts 1⟩ from P4 to every process of N_4 ∪ {P4} at t = 20, beside P4's
 * real requests; the local monitor watches and every process must complete its rounds. Before
 * the requester gave back a Grant for a request it does not know (with a Release naming it), the
 * arbiter granted the forged tag to P4, P4 ignored that Grant as stale and the slot was lost:
 * the MUTIN scene locked up on 20 of seeds 1–20, the MUTEX one on 20 of 20.
 */
import { collectReached } from '@critsec/core/kit';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { exponentialDelay, uniformDelay, unitDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { complete, lkcs, lkcsPlan, safeInitial } from '../src/index.js';

const graph = complete(6);
const plan = lkcsPlan(graph, 1, 4);
const factory = lkcs({ graph, l: 1, k: 4 });

/** The scene for one seed and one algorithm type of the forged Request. */
async function forgedRequest(at: 'MUTIN' | 'MUTEX', seed: number): Promise<WorkloadResult> {
  const cluster = createCluster({ factory, spec: plan.spec, initial: safeInitial(plan.tightened), seed });
  cluster.net.schedule(20, () => {
    for (let to = 0; to < 6; to++)
      cluster.net.endpoint(4).send(to, { type: 'Request', at, req: 1_000_000, ts: 1 });
  });
  const r = await runWorkload(cluster, { rounds: 3, maxEvents: 100_000 });
  await cluster.close();
  expect(cluster.errors.map((e) => e.error.message)).toEqual([]);
  return r;
}

describe('LKCS: a Request with a tag P4 never issued, from P4 to N_4 ∪ {P4} at t = 20 (issue 27 §3)', () => {
  for (const at of ['MUTIN', 'MUTEX'] as const) {
    it(`${at}, complete:6 (1,4), seeds 1–20: 0 lock-ups, 0 safety violations`, async () => {
      const bad: string[] = [];
      const reached = collectReached();
      try {
        for (let seed = 1; seed <= 20; seed++) {
          const r = await forgedRequest(at, seed);
          if (!r.ok) bad.push(`seed ${seed}: ${r.violation === null ? 'stuck' : 'violation'}`);
        }
      } finally {
        reached.stop();
      }
      expect(bad).toEqual([]);
      // the forged tag was granted to P4 somewhere, and P4 gave that grant back
      expect(reached.counts.get('lkcs:grant-returned')).toBeGreaterThan(0);
    });
  }

  it('without the forged Request (honest runs), nothing is given back, refused or set aside', async () => {
    const reached = collectReached();
    try {
      for (const delay of [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)]) {
        for (let seed = 1; seed <= 20; seed++) {
          const initial = safeInitial(plan.tightened);
          const cluster = createCluster({ factory, spec: plan.spec, initial, seed, delay });
          expect((await runWorkload(cluster, { rounds: 3 })).ok).toBe(true);
          await cluster.close();
        }
      }
    } finally {
      reached.stop();
    }
    expect(reached.counts.get('lkcs:trigger')).toBeGreaterThan(0); // the sidetrack was used
    for (const mark of [
      'lkcs:grant-returned',
      'lkcs:trigger-refused',
      'lkcs:nomination-refused',
      'lkcs-MUTIN:request-set-aside',
      'lkcs-MUTEX:request-set-aside',
    ])
      expect(reached.counts.get(mark), mark).toBeUndefined();
  });
});
