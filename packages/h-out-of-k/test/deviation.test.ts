/**
 * The one deviation from the paper: priorities at the clock ceiling. Sec. 4.1 orders requests by
 * `(c, p)` with unbounded Lamport clocks; critsec's clocks saturate at `CLOCK_MAX` (so a forged
 * clock cannot push a process's own messages out of the valid range). Once clocks sit at the
 * ceiling, every new request has `c = CLOCK_MAX` and `(c, p)` degenerates to the id: Theorem 6's
 * argument (a later request has a larger `c`) no longer holds, and the highest id starves while
 * the others keep requesting. The default priority breaks ties at the ceiling by the requester's
 * request count `seq` first. This test FAILS against the printed order (`priority: 'printed'`).
 */
import { hOutOfKSpec } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { CLOCK_MAX } from '@critsec/transport';
import { exponentialDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { hOutOfK, type Priority } from '../src/index.js';

const n = 4;
const k = 2;
const arbiter = uniformHKArbiter(n, k);

async function saturatedRun(priority: Priority | undefined, seed: number): Promise<WorkloadResult> {
  const cluster = createCluster({
    factory: hOutOfK({ k, arbiter, ...(priority === undefined ? {} : { priority }) }),
    spec: hOutOfKSpec(k, n),
    seed,
    delay: exponentialDelay(1),
  });
  // one valid (stale) release with ts = CLOCK_MAX to everybody: every clock goes to the ceiling
  for (let to = 0; to < n; to++)
    cluster.net.endpoint(0).send(to, { type: 'release', seq: CLOCK_MAX, ts: CLOCK_MAX });
  // everybody wants all k units: full contention, the finished processes keep cycling
  return runWorkload(cluster, { rounds: 3, think: 0.2, hold: 1, request: () => k, maxEvents: 40_000 });
}

describe('priorities at the clock ceiling (deviation from Sec. 4.1, see README)', () => {
  it('the printed (c, p) order starves the highest id once clocks saturate (seeds 1–5)', async () => {
    for (let seed = 1; seed <= 5; seed++) {
      const r = await saturatedRun('printed', seed);
      expect(r.ok, `seed ${seed}`).toBe(false);
      expect(r.violation, `seed ${seed}`).toBeNull();
      expect(
        r.stuck.map((s) => s.process),
        `seed ${seed}`,
      ).toEqual([n - 1]);
    }
  });

  it('the default order (ties at the ceiling by request count) completes the same seeds and 45 more', async () => {
    for (let seed = 1; seed <= 50; seed++) {
      const r = await saturatedRun(undefined, seed);
      expect(r.ok, `seed ${seed}: ${r.failure}`).toBe(true);
    }
  });

  it('below the ceiling both orders are the same: (c, p)', async () => {
    for (const priority of ['printed', 'ceiling-fair'] as const) {
      const cluster = createCluster({
        factory: hOutOfK({ k, arbiter, priority }),
        spec: hOutOfKSpec(k, n),
        seed: 9,
      });
      const r = await runWorkload(cluster, { rounds: 3, request: () => k });
      expect(r.ok, `${priority}: ${r.failure}`).toBe(true);
    }
    expect(() => hOutOfK({ k, arbiter, priority: 'fifo' as never })).toThrow(
      /priority must be 'ceiling-fair'/,
    );
  });
});
