/**
 * The quorum plan (src/plan.ts) keeps one membership set per distinct quorum, so its memory
 * follows the quorum memberships, not n · m · n: it used to allocate an n·m·n byte table, which
 * made `groupMutexBounds` and `groupMutex` throw a raw `RangeError: Invalid typed array length`
 * from n ≈ 46,341 (m = 2) on Node 20 whatever the quorums (issue 15, found through
 * `critsec simulate group-mutex --n 200000`). Scene: 100,000 processes, two cartels of one small
 * quorum each — 2·10^10 table bytes before, a few sets now.
 */
import { groupQuorumSystem } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { groupMutex, groupMutexBounds } from '../src/index.js';
import { makePlan } from '../src/plan.js';

const N = 100_000;
const system = groupQuorumSystem(N, [[[0, 1, 7]], [[0, 2, N - 1]]]);

describe('the quorum plan at n = 100,000 (no n·m·n table)', () => {
  it('groupMutexBounds and the factory build (an n·m·n byte table would be 2·10^10 bytes)', () => {
    const bounds = groupMutexBounds({ system, variant: 'M' });
    expect(bounds.c).toBe(3);
    expect(() => groupMutex({ system, variant: 'S' })).not.toThrow();
  });

  it('contains answers membership of the quorum each process acquires, and nothing beyond it', () => {
    const plan = makePlan(system, 'system', undefined);
    for (const p of [0, 1, 5, N - 1]) {
      expect(plan.quorumOf(p, 0)).toEqual([0, 1, 7]);
      expect(plan.quorumOf(p, 1)).toEqual([0, 2, N - 1]);
      for (const node of [0, 1, 7]) expect(plan.contains(node, p, 0)).toBe(true);
      for (const node of [2, 6, 8, N - 1]) expect(plan.contains(node, p, 0)).toBe(false);
      for (const node of [0, 2, N - 1]) expect(plan.contains(node, p, 1)).toBe(true);
      for (const node of [1, 7, N - 2]) expect(plan.contains(node, p, 1)).toBe(false);
    }
    // Past the last process no set is found; a node past n is in no set (a dense table read the
    // next row's entry there). p and g themselves are checked by the callers.
    expect(plan.contains(0, N, 0)).toBe(false);
    expect(plan.contains(N, 0, 0)).toBe(false);
    expect(plan.contains(N + 1, N - 1, 1)).toBe(false);
    expect(plan.contains(-1, 0, 0)).toBe(false);
  });
});
