/**
 * The capped exploration of Maekawa on the 2×2 grid (n = 4), in controlled mode: the first
 * `N4_SCHEDULES` complete schedules of the depth-first search, states deduplicated
 * (MUTEX_EXPLORE_N4_SCHEDULES raises it); and the whole space of Maekawa on grid(3) and on
 * majority(3) (Ricart–Agrawala's is in `explore.test.ts`).
 */
import { mutexSpec } from '@critsec/core';
import { grid, majority } from '@critsec/coteries';
import { type ExploreResult, exploreSchedules } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';

const line = (label: string, r: ExploreResult): string =>
  `${label}: ${r.schedules} complete schedules, ${r.states} distinct states, max depth ${r.maxDepth}, exhaustive ${r.exhaustive}`;
const report = (text: string): void => console.info(text);

const N4_SCHEDULES = Number(process.env.MUTEX_EXPLORE_N4_SCHEDULES ?? 8);

describe('exhaustive exploration, n = 3', () => {
  it('Maekawa on grid(3): every schedule is safe and deadlock-free', async () => {
    const r = await exploreSchedules({
      cluster: { factory: maekawa({ coterie: grid(3) }), spec: mutexSpec(3) },
      rounds: 1,
      maxSchedules: Number.POSITIVE_INFINITY,
    });
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    expect(r.states).toBeGreaterThan(1000);
    report(line('Maekawa grid(3)', r));
  });
});

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

describe('exhaustive exploration, n = 3', () => {
  it('n = 3, Maekawa on majority(3): every schedule is safe and deadlock-free', async () => {
    const r = await exploreSchedules({
      cluster: { factory: maekawa({ coterie: majority(3) }), spec: mutexSpec(3) },
      rounds: 1,
      maxSchedules: Number.POSITIVE_INFINITY,
    });
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    expect(r.deduplicated).toBe(true);
    expect(r.states).toBeGreaterThan(1000);
    report(line('Maekawa majority(3)', r));
  });
});
