/**
 * Long explorations (npm run test:long): exhaustive, state-deduplicated, controlled mode, one
 * entry+exit round per process (see explore.test.ts for the method).
 *
 * - surficial(3, 3), P0 → 0, P1 → 1, P2 → 0: Maekawa_M's whole space (29,564 states).
 * - surficial(4, 2) (k = 2, max[g] = 2), P0, P1 → group 0, P2, P3 → group 1: both variants
 *   within 50,000 states each, no failure (Maekawa_S's whole space is 9,602 states).
 *
 * The surficial(4, 2) budget was 150,000 states until 2026-11-28: Maekawa_M's 50,000 are the
 * first third of the same depth-first order (the same states, none of them failing, as the first
 * 50,000 of that run) and save about two thirds of its cost, ~140 of the file's 269 CPU-s
 * (1.33 ms a state, measured on 15,000 states of the loaded machine).
 */
import { groupSpec } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { type ExploreResult, exploreSchedules } from '@critsec/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';

const report: string[] = [];
afterAll(() => console.info(report.join('\n')));

function line(label: string, r: ExploreResult): string {
  return `${label}: ${r.schedules} complete schedules, ${r.states} distinct states, max depth ${r.maxDepth}, exhaustive ${r.exhaustive}, failures ${r.failures.length}`;
}

describe('long explorations', () => {
  it('Maekawa_M, surficial(3, 3): the whole space', async () => {
    const r = await exploreSchedules({
      cluster: { factory: groupMutex({ system: surficial(3, 3), variant: 'M' }), spec: groupSpec(3, 3) },
      rounds: 1,
      request: (_rng, i) => i % 2,
      maxSchedules: Number.POSITIVE_INFINITY,
    });
    report.push(line('Maekawa_M surficial(3,3)', r));
    expect(r.failures).toEqual([]);
    expect(r.exhaustive).toBe(true);
    expect(r.states).toBe(29_564);
  });

  for (const variant of ['M', 'S'] as const) {
    it(`Maekawa_${variant}, surficial(4, 2): no failure within 50,000 states`, async () => {
      const r = await exploreSchedules({
        cluster: { factory: groupMutex({ system: surficial(4, 2), variant }), spec: groupSpec(2, 4) },
        rounds: 1,
        request: (_rng, i) => (i < 2 ? 0 : 1),
        maxSchedules: Number.POSITIVE_INFINITY,
        maxStates: 50_000,
      });
      report.push(line(`Maekawa_${variant} surficial(4,2)`, r));
      expect(r.failures).toEqual([]);
      expect(r.exhaustive || r.states >= 50_000).toBe(true);
    });
  }
});
