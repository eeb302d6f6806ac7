import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { gcs } from '../src/index.js';

// ≥ 10⁴ seeds of the (l,k)-GCS with crashes and restarts (issue 27): (1,2)-GCS over majority(3)
// (lmin = MUTIN(1), kmex = Co-MUTIN(1), Maekawa as mx: four durable objects per process), one
// round per process, 3 crashes a run, losing unsynced writes and synced, 5,000 seeds each — 0
// violations, nobody stuck after the last restart. Each seed is this small so that the 10⁴ fit
// the CI budget (README, "Crash recovery").
describe('crash recovery in the simulator, long', () => {
  crashRecoverySuite({
    it,
    name: '(1,2)-GCS, majority(3)',
    factory: gcs({ l: 1, k: 2, coterie: majority(3) }),
    spec: globalSpec(1, 2, 3),
    seeds: 5000,
    rounds: 1,
  });
});
