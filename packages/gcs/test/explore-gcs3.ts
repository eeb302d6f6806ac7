import { type CSState, globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { exploreSchedules } from '@critsec/testing';
import { expect } from 'vitest';
import { gcs } from '../src/index.js';

/**
 * The state-budgeted exploration of the (1,2)-GCS over majority(3) in controlled mode, one round
 * each, P0 InCS initially: no violation and no deadlock within `maxStates` distinct states
 * (budgeted by states, not time: a slow machine explores the same prefix of the search).
 */
export async function exploreGcs3(maxStates: number): Promise<void> {
  const initial: CSState[] = ['InCS', 'OutCS', 'OutCS'];
  const r = await exploreSchedules({
    cluster: { factory: gcs({ l: 1, k: 2, coterie: majority(3) }), spec: globalSpec(1, 2, 3), initial },
    rounds: 1,
    maxStates,
  });
  console.log(
    `(1,2)-GCS majority(3), 1 round: ${r.schedules} schedules, ${r.states} states, exhaustive ${r.exhaustive}, deduplicated ${r.deduplicated}, max depth ${r.maxDepth}`,
  );
  expect(r.failures).toEqual([]);
  expect(r.exhaustive || r.states >= maxStates).toBe(true);
  expect(r.schedules).toBeGreaterThan(0);
}
