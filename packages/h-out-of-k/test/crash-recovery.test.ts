/**
 * Crash recovery of h-out-of-k in the simulator (issue 27; `src/durable.ts`, `durableState()` and
 * `recover()` of `src/h-out-of-k.ts`): seeded crashes and restarts under the durable layer of
 * `@critsec/harness` — a step's messages leave only once its state is committed, a crash may
 * lose the unsynced write — with h drawn in 1..k per entry, 3 crashes a run, losing unsynced
 * writes and not, on the uniform (h,k)-arbiter n = 5 (100 seeds each) and the cube n = 8 (20):
 * 0 violations (Σ units held ≤ k), nobody stuck after the last restart. With fencing (issue 28,
 * `hs` durable) and with a ttl of 60 time units — above the restart delays, so the monitor's
 * exclusion of the code holds: renewals, reclaims and the re-armed timers of recovered OKs — 10
 * seeds each on the uniform n = 5.
 */
import { hOutOfKSpec } from '@critsec/core';
import { cubeHKArbiter, uniformHKArbiter } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { hOutOfK, hOutOfKRequest } from '../src/index.js';

describe('crash recovery in the simulator', () => {
  crashRecoverySuite({
    it,
    name: 'uniform (h,k)-arbiter n = 5, k = 2',
    factory: hOutOfK({ k: 2, arbiter: uniformHKArbiter(5, 2) }),
    spec: hOutOfKSpec(2, 5),
    request: hOutOfKRequest(2, 'random'),
    rounds: 2,
    seeds: 100,
  });
  crashRecoverySuite({
    it,
    name: 'cube (h,k)-arbiter n = 8, k = 2',
    factory: hOutOfK({ k: 2, arbiter: cubeHKArbiter(8, 2) }),
    spec: hOutOfKSpec(2, 8),
    request: hOutOfKRequest(2, 'random'),
    rounds: 2,
    seeds: 20,
  });
  for (const [label, options] of [
    ['with fencing', { fencing: true }],
    ['with a ttl of 60', { ttl: 60 }],
  ] as const)
    crashRecoverySuite({
      it,
      name: `uniform (h,k)-arbiter n = 5, k = 2, ${label}`,
      factory: hOutOfK({ k: 2, arbiter: uniformHKArbiter(5, 2), ...options }),
      spec: hOutOfKSpec(2, 5),
      request: hOutOfKRequest(2, 'random'),
      rounds: 2,
      seeds: 10,
    });
});
