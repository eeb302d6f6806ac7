/**
 * Issue 27 §3, the h-out-of-k scene of a forged `release` of the sender's own current request
 * while it waits, shared by `no-wedge-release.test.ts` and its long variant.
 */
import { hOutOfKSpec } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import type { DelayModel } from '@critsec/transport-sim';
import { HOutOfKArbiter } from '../src/arbiter.js';
import { hOutOfKWithArbiter } from '../src/factory.js';
import { hOutOfKRequest } from '../src/index.js';
import { inspectH } from './helpers.js';

/** What the scene did: the run, its errors (`P<i>: message`) and the `seq` released, if any. */
export interface ForgedReleaseRun {
  readonly r: WorkloadResult;
  readonly errors: string[];
  /** The `seq` of P4's waiting request that was released in its name; undefined if P4 never waited. */
  readonly released: number | undefined;
  /** When it arrived, P0 or P1 had already given that request its OK (status ok in `Que`; P4 may have entered since). */
  readonly granted: boolean;
}

/**
 * n = 5, k = 2 (`uniformHKArbiter(5, 2)`), h drawn in 1..2, three rounds per process. From time
 * `at` (20 unless told), every half time unit until it happens, the first instant P4 waits in
 * `entry()`: `release(seq, ts)` (`ts` 1 unless told) for P4's current request `seq`, sent by P4 to P0 and P1 — what
 * P4's own abort would send them, while P4 goes on waiting.
 */
export async function forgedRelease(
  seed: number,
  at = 20,
  delay?: DelayModel,
  ts = 1,
): Promise<ForgedReleaseRun> {
  const k = 2;
  let released: number | undefined;
  let granted = false;
  /** The arbiter of Fig. 1, noting whether the forged release ends an entry that had its OK. */
  class Watching extends HOutOfKArbiter {
    override onRelease(p: number, seq: number, ts: number): void {
      // P4's own release of that request comes after its exit: one before it is the forged one
      // (P4 may have entered since it was sent)
      if (p === 4 && seq === released && inspectH(cluster, 4).requester.request === seq)
        granted ||= this.snapshot().Que.some(([q, , , status, s]) => q === 4 && s === seq && status === 'ok');
      super.onRelease(p, seq, ts);
    }
  }
  const cluster = createCluster({
    factory: hOutOfKWithArbiter({ k, arbiter: uniformHKArbiter(5, k) }, Watching),
    spec: hOutOfKSpec(k, 5),
    seed,
    delay,
  });
  const attempt = (left: number): void => {
    const { requester } = inspectH(cluster, 4);
    if (requester.waiting) {
      released = requester.request;
      for (const to of [0, 1]) cluster.net.endpoint(4).send(to, { type: 'release', seq: released, ts });
    } else if (left > 0) cluster.net.schedule(0.5, () => attempt(left - 1));
  };
  cluster.net.schedule(at, () => attempt(200));
  const r = await runWorkload(cluster, { rounds: 3, request: hOutOfKRequest(k, 'random') });
  await cluster.close();
  return { r, errors: cluster.errors.map((e) => `P${e.process}: ${e.error.message}`), released, granted };
}
