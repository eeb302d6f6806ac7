/**
 * Every rare path of Figs. 5–8 (the `reach()` marks listed in `groupMutexRarePaths`) is taken
 * across a few hundred seeded concurrent runs with aborts, and every run is safe and live:
 * Maekawa_M on surficial(12, 3) with max[g] = 2 (so E.11–E.16, a node at max[g] locks, happens),
 * Maekawa_S on surficial(12, 3).
 */
import { groupSpec } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { exponentialDelay, uniformDelay, unitDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { type GroupMutexOptions, groupMutex, groupMutexRarePaths } from '../src/index.js';
import { anyGroup } from './helpers.js';

const system = surficial(12, 3);
const delays = [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)];

async function cover(options: GroupMutexOptions, expected: readonly string[], seeds: number): Promise<void> {
  const reached = collectReached();
  try {
    for (let seed = 1; seed <= seeds; seed++) {
      const c = createCluster({
        factory: groupMutex(options),
        spec: groupSpec(3, 12),
        seed,
        delay: delays[seed % 3],
      });
      const r = await runWorkload(c, {
        rounds: 3,
        think: 1,
        hold: 1,
        request: anyGroup(3),
        abort: seed % 2 === 0 ? { probability: 0.3, within: 3 } : undefined,
      });
      expect(r.ok, `seed ${seed}: ${r.failure ?? r.violation?.message ?? ''}`).toBe(true);
      expect(c.errors, `seed ${seed}`).toEqual([]);
    }
    expect(reached.missing(expected)).toEqual([]);
  } finally {
    reached.stop();
  }
}

describe('rare-path coverage', () => {
  it('Maekawa_M (max[g] = 2): every mark of Figs. 5–6 and of abort', async () => {
    await cover(
      { system, variant: 'M', maxLocks: 2 },
      [...groupMutexRarePaths.M, ...groupMutexRarePaths.abortM],
      120,
    );
  });
  it('Maekawa_S: every mark of Figs. 7–8 and of abort', async () => {
    await cover({ system, variant: 'S' }, [...groupMutexRarePaths.S, ...groupMutexRarePaths.abortS], 120);
  });
});
