/**
 * Maekawa_M with max[g] below the group size (npm run test:long): a node must take locks back
 * within a group (E.11–E.16) as well as across groups. The compliance suite's sequential test
 * does not apply (a request that finds max[g] processes of its group InCS waits for one to leave),
 * so this runs the concurrent workload alone: every system, max[g] ∈ {1, 2}, 300 seeds × 2 delay
 * models, every other seed with aborted entries — 8,400 runs, 0 violations, 0 stuck processes.
 */
import { groupSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { anyGroup, systems } from './helpers.js';

const SEEDS = Number(process.env.GROUP_MUTEX_LONG_SEEDS_MAXLOCKS ?? 300);

describe('Maekawa_M with max[g] < group size', () => {
  for (const [label, system] of systems()) {
    for (const maxLocks of [1, 2]) {
      it(`${label}, max[g] = ${maxLocks}: ${SEEDS} seeds × 2 delays, safe and live`, async () => {
        for (const delay of [uniformDelay(0.1, 2), exponentialDelay(1)]) {
          for (let seed = 1; seed <= SEEDS; seed++) {
            const c = createCluster({
              factory: groupMutex({ system, variant: 'M', maxLocks }),
              spec: groupSpec(system.m, system.n),
              seed,
              delay,
            });
            const r = await runWorkload(c, {
              rounds: 3,
              request: anyGroup(system.m),
              abort: seed % 2 === 0 ? { probability: 0.3, within: 3 } : undefined,
            });
            expect(r.ok, `seed ${seed}: ${r.failure ?? r.violation?.message ?? ''}`).toBe(true);
            expect(c.errors).toEqual([]);
          }
        }
      });
    }
  }
});
