import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { anyGroup } from './helpers.js';

// ≥ 2,000 seeds with crashes and restarts per variant (issue 27): 2 configurations (losing
// unsynced writes, synced) × 1,000 seeds, 3 crashes a run, on surficial(4, 2) with 3 rounds per
// process (a cheap seed, to fit the CI budget; the short test's seeds are 4 rounds).
const system = surficial(4, 2);

describe('crash recovery in the simulator, long', () => {
  for (const variant of ['M', 'S'] as const) {
    crashRecoverySuite({
      it,
      name: `Maekawa_${variant}, surficial(4,2)`,
      factory: groupMutex({ system, variant }),
      spec: groupSpec(system.m, system.n),
      request: anyGroup(system.m),
      seeds: 1000,
      rounds: 3,
    });
  }
});
