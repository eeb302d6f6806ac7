import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { crashRecoverySuite, runCrashSeed } from '@critsec/testing/cs';
import { describe, expect, it } from 'vitest';
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
      seeds: 75,
    });
  }
});

// Seed 739 of the long run: P2 exits (group 1), begins an entry for group 0 and crashes before the
// exit's step is committed; it restarts InCS in its group-1 CS beside P1 (group 1). The cluster's
// monitor used to count it InCS for group 0, the entry the workload had begun — a false violation
// (fixed in @critsec/harness: a process restarted InCS holds the request it last entered with).
it('Maekawa_S, surficial(4,2), seed 739, losing unsynced writes: a process restarted InCS keeps its group', async () => {
  const r = await runCrashSeed(
    {
      factory: groupMutex({ system, variant: 'S' }),
      spec: groupSpec(system.m, system.n),
      request: anyGroup(system.m),
      seeds: 1,
      rounds: 3,
      crashes: { count: 3, loseUnsynced: true },
    },
    739,
  );
  expect(r.violation).toBeNull();
  expect(r.ok).toBe(true);
});
