import { type CSState, globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { exploreSchedules } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { gcs } from '../src/index.js';

/** The state budget (the exhaustive n = 2 instances are in explore-dpor.test.ts). */
const MAX_STATES = 5_000;

describe('exploration in controlled mode: (1,2)-GCS over majority(3)', () => {
  it('no violation and no deadlock in any explored schedule', async () => {
    const initial: CSState[] = ['InCS', 'OutCS', 'OutCS'];
    const r = await exploreSchedules({
      cluster: { factory: gcs({ l: 1, k: 2, coterie: majority(3) }), spec: globalSpec(1, 2, 3), initial },
      rounds: 1,
      maxStates: MAX_STATES,
    });
    console.log(
      `(1,2)-GCS majority(3), 1 round: ${r.schedules} schedules, ${r.states} states, exhaustive ${r.exhaustive}, deduplicated ${r.deduplicated}, max depth ${r.maxDepth}`,
    );
    expect(r.failures).toEqual([]);
    // budgeted by states, not time: a slow machine explores the same prefix of the search
    expect(r.exhaustive || r.states >= MAX_STATES).toBe(true);
    expect(r.schedules).toBeGreaterThan(0);
  });
});
