import { globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { mutin } from '../src/index.js';

// ≥ 2,000 seeds of MUTIN(l) with crashes and restarts (issue 27): MUTIN(2) over majority(4), two
// rounds per process, 3 crashes a run, losing unsynced writes and synced, 1,000 seeds each — 0
// violations, nobody stuck after the last restart.
describe('crash recovery in the simulator, long', () => {
  crashRecoverySuite({
    it,
    name: 'MUTIN(2), majority(4)',
    factory: mutin({ l: 2, coterie: majority(4) }),
    spec: globalSpec(2, 4, 4),
    seeds: 1000,
    rounds: 2,
  });
});
