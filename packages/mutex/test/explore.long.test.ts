/**
 * The capped exploration of Maekawa on the 2×2 grid (n = 4), in controlled mode: the first
 * `N4_SCHEDULES` complete schedules of the depth-first search, states deduplicated
 * (MUTEX_EXPLORE_N4_SCHEDULES raises it). The whole space of n = 3 is in `explore.test.ts`.
 */
import { mutexSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { exploreSchedules } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';

const N4_SCHEDULES = Number(process.env.MUTEX_EXPLORE_N4_SCHEDULES ?? 8);

describe('capped exploration', () => {
  it(`n = 4, Maekawa on the 2×2 grid, capped at ${N4_SCHEDULES} complete schedules: no failure`, async () => {
    const r = await exploreSchedules({
      cluster: { factory: maekawa({ coterie: grid(4) }), spec: mutexSpec(4) },
      rounds: 1,
      maxSchedules: N4_SCHEDULES,
    });
    expect(r.failures).toEqual([]);
    expect(r.schedules).toBe(N4_SCHEDULES);
    console.info(`Maekawa grid(4), capped: ${r.schedules} complete schedules, ${r.states} distinct states`);
  });
});
