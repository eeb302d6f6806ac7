/**
 * LKCS's configuration (Kamei & Kakugawa 2017, Sec. 5.1, Algorithm 3 "Macros"): the leader is the
 * valid process of highest degree (smallest id on ties); every process within two hops of it —
 * the second hop included — keeps L_i = l_i + 1, K_i = k_i − 1, the others (l_i, k_i); a leader
 * that breaks a precondition is refused with the reason.
 *
 * The graph: P0 is joined to P1..P4, which form the ring 1−2−3−4−1; P5 hangs off P1 and P6 off P5,
 * so dist(P0, ·) = [0, 1, 1, 1, 1, 2, 3]. Degrees: P0 and P1 have 4, P2..P4 have 3, P5 2, P6 1.
 */
import { graphFromAdjacency } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { complete } from '../src/graphs.js';
import { leaderProblem, lkcsPlan } from '../src/lkcs-plan.js';
import { localBounds } from '../src/config.js';

const graph = graphFromAdjacency([[1, 2, 3, 4], [0, 2, 4, 5], [0, 1, 3], [0, 2, 4], [0, 1, 3], [1, 6], [5]]);
const k = (_i: number, d: number) => d + 1;

describe('lkcsPlan', () => {
  it('takes the valid process of highest degree, smallest id on ties, and tightens exactly the processes within two hops', () => {
    const plan = lkcsPlan(graph, 0, k);
    expect(plan.leader).toBe(0);
    expect(plan.dist).toEqual([0, 1, 1, 1, 1, 2, 3]);
    expect(plan.spec.k).toEqual([5, 5, 4, 4, 4, 3, 2]);
    expect(plan.tightened.l).toEqual([1, 1, 1, 1, 1, 1, 0]);
    expect(plan.tightened.k).toEqual([4, 4, 3, 3, 3, 2, 2]);
  });

  it('prefers a higher degree over a smaller id, then the smaller id', () => {
    // complete(6) without the edge 0−4: P0 and P4 have degree 4 (valid leaders too), P1, P2, P3, P5 degree 5
    const adj = complete(6).neighbors.map((row, i) =>
      row.filter((j) => !((i === 0 && j === 4) || (i === 4 && j === 0))),
    );
    const almost = graphFromAdjacency(adj);
    expect(leaderProblem(localBounds(almost, 0, k), 0)).toBeNull();
    expect(lkcsPlan(almost, 0, k).leader).toBe(1);
    expect(lkcsPlan(complete(5), 0, 5).leader).toBe(0);
  });

  it('says why a process cannot lead: its degree, or a process within two hops without slack 3', () => {
    const tight = localBounds(graph, 0, (i, d) => (i === 5 ? 2 : d + 1));
    expect(leaderProblem(tight, 2)).toBe('|N_2| = 3 < 4');
    expect(leaderProblem(tight, 0)).toBe('P5 is within two hops of P0 but k_5 − l_5 = 2 − 0 = 2 < 3');
    expect(leaderProblem(tight, 1)).toBe('P5 is within two hops of P1 but k_5 − l_5 = 2 − 0 = 2 < 3');
    expect(leaderProblem(localBounds(graph, 0, k), 0)).toBeNull();
    expect(() => lkcsPlan(graph, 0, (i, d) => (i === 5 ? 2 : d + 1), 0)).toThrow(
      'lkcs: P0 cannot be the leader: P5 is within two hops of P0 but k_5 − l_5 = 2 − 0 = 2 < 3',
    );
    expect(() => lkcsPlan(graph, 0, (i, d) => (i === 5 ? 2 : d + 1))).toThrow(
      'lkcs: no process can be the leader (Sec. 5.1 needs |N_LDR| ≥ 4 and k_q − l_q ≥ 3 within two hops); e.g. P0: P5 is within two hops of P0 but k_5 − l_5 = 2 − 0 = 2 < 3',
    );
  });

  it('a process three hops away does not constrain the leader', () => {
    // P6 (three hops from P0) has k_6 − l_6 = 2 − 0 = 2: no problem for P0
    expect(leaderProblem(localBounds(graph, 0, k), 0)).toBeNull();
    expect(lkcsPlan(graph, 0, k, 0).leader).toBe(0);
  });
});
