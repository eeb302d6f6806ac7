import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { crashRecoverySuite } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { anyGroup } from './helpers.js';

// Crashes and restarts in the simulator (issue 27; seeded; the durable layer of @critsec/harness:
// a step's messages leave only once its state is committed; a crash may lose the unsynced write):
// 3 crashes a run, losing unsynced writes and not — 0 violations, nobody stuck after the last
// restart. surficial(4, 2), groups drawn per entry.
const system = surficial(4, 2);

describe('crash recovery in the simulator', () => {
  for (const variant of ['M', 'S'] as const) {
    crashRecoverySuite({
      it,
      name: `Maekawa_${variant}, surficial(4,2)`,
      factory: groupMutex({ system, variant }),
      spec: groupSpec(system.m, system.n),
      request: anyGroup(system.m),
      seeds: 150,
    });
  }
});
