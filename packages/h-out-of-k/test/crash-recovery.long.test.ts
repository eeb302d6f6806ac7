/**
 * Crash recovery of h-out-of-k, long (issue 27; `npm run test:long`): 2,000 seeds with crashes and
 * restarts on the uniform (h,k)-arbiter n = 5, k = 2 — 1,000 seeds losing unsynced writes, 1,000
 * synced — 3 crashes a run, 4 rounds per process, h drawn in 1..2 per entry: 0 violations, nobody
 * stuck after the last restart. Sized for CI (README, "Fault model": the measured time).
 */
import { hOutOfKSpec } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { hOutOfK, hOutOfKRequest } from '../src/index.js';

describe('crash recovery in the simulator, long', () => {
  crashRecoverySuite({
    it,
    name: 'uniform (h,k)-arbiter n = 5, k = 2',
    factory: hOutOfK({ k: 2, arbiter: uniformHKArbiter(5, 2) }),
    spec: hOutOfKSpec(2, 5),
    request: hOutOfKRequest(2, 'random'),
    seeds: 1000,
  });
});
