import { ConfigurationError, CoterieError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  checkGroupQuorumSystem,
  degree,
  grid,
  groupDegree,
  groupFromCoterie,
  groupQuorumSystem,
  groupQuorumSystemFromJSON,
  majority,
  projectivePlane,
  surficial,
  surficialSize,
} from '../src/index.js';
import { bruteDegree, meet } from './helpers.js';

describe('surficial(n, m) — group-mutex paper, Fig. 3, Theorem 1', () => {
  for (const m of [2, 3, 4]) {
    for (const k of [1, 2, 3, 4]) {
      const n = (k * k * m * (m - 1)) / 2;
      it(`m = ${m}, k = ${k} (n = ${n}): Theorem 1's facts`, () => {
        expect(surficialSize(m, k)).toBe(n);
        const s = surficial(n, m);
        expect(s.m).toBe(m);
        expect(checkGroupQuorumSystem(s).ok).toBe(true);
        // |C_i| = k, |Q| = (m−1)k = √(2n(m−1)/m)
        for (const c of s.cartels) {
          expect(c).toHaveLength(k);
          for (const q of c) {
            expect(q.length).toBe((m - 1) * k);
            expect(q.length).toBeCloseTo(Math.sqrt((2 * n * (m - 1)) / m), 9);
          }
        }
        // every process in exactly two quora
        for (let p = 0; p < n; p++) {
          const count = s.cartels.flat().filter((q) => q.includes(p)).length;
          expect(count).toBe(2);
          expect(s.holdersOf(p)).toHaveLength(2);
        }
        // quora of different cartels meet in exactly one process; quora of one cartel are disjoint
        for (let g = 0; g < m; g++) {
          for (let h = 0; h < m; h++) {
            for (const [a, qa] of s.cartels[g]!.entries()) {
              for (const [b, qb] of s.cartels[h]!.entries()) {
                if (g !== h) expect(meet(qa, qb)).toHaveLength(1);
                else if (a !== b) expect(meet(qa, qb)).toHaveLength(0);
              }
            }
          }
        }
        // uniform degree k
        const d = groupDegree(s);
        expect(d).toMatchObject({ degree: k, exact: true });
        for (const c of d.cartels) expect(c.degree).toBe(k);
        // P_i requesting g uses a quorum of cartel g (its own when it is in one)
        for (let i = 0; i < n; i++) {
          for (let g = 0; g < m; g++) {
            const q = s.quorumOf(i, g);
            expect(s.cartels[g]).toContain(q);
            if (s.cartels[g]!.some((x) => x.includes(i))) expect(q).toContain(i);
          }
        }
      });
    }
  }

  it('matches the staircase layout: S_3 with k = 2', () => {
    const s = surficial(12, 3);
    // squares P^{1,1} = 0..3, P^{1,2} = 4..7, P^{2,2} = 8..11; cartel 1 (paper's C_1) = rows of stair 1
    expect(s.cartels[0]).toEqual([
      [0, 1, 4, 5],
      [2, 3, 6, 7],
    ]);
    // C_2: column j of P^{1,1}, row j of P^{2,2}
    expect(s.cartels[1]).toEqual([
      [0, 2, 8, 9],
      [1, 3, 10, 11],
    ]);
    // C_3: column j of P^{1,2} and of P^{2,2}
    expect(s.cartels[2]).toEqual([
      [4, 6, 8, 10],
      [5, 7, 9, 11],
    ]);
  });

  it('n that does not fit: a clear error with the nearest sizes, or a documented mapping', () => {
    expect(() => surficial(20, 3)).toThrow(ConfigurationError);
    expect(() => surficial(20, 3)).toThrow(/nearest sizes that fit: n = 12 \(k = 2\) or n = 27 \(k = 3\)/);
    expect(() => surficial(10, 1)).toThrow(/m must be an integer ≥ 2/);
    expect(() => surficial(0, 2)).toThrow(ConfigurationError);
    expect(() => surficial(2, 3, { fit: 'subset' })).toThrow(/smaller than the smallest surficial system/);
    for (const m of [2, 3, 4]) {
      for (let n = (m * (m - 1)) / 2; n <= 60; n++) {
        const sub = surficial(n, m, { fit: 'subset' });
        expect(checkGroupQuorumSystem(sub).ok).toBe(true);
        const k = sub.cartels[0]!.length;
        expect(surficialSize(m, k)).toBeLessThanOrEqual(n);
        expect(surficialSize(m, k + 1)).toBeGreaterThan(n);
        const wrap = surficial(n, m, { fit: 'wrap' });
        expect(checkGroupQuorumSystem(wrap).ok).toBe(true);
        // every process is used by the wrapped mapping
        for (let p = 0; p < n; p++) expect(wrap.holdersOf(p).length).toBeGreaterThan(0);
        for (let i = 0; i < n; i++)
          for (let g = 0; g < m; g++) expect(wrap.cartels[g]).toContain(wrap.quorumOf(i, g));
      }
    }
  });
});

describe('groupFromCoterie — T_m(C) = (C, …, C)', () => {
  it('every cartel is the coterie; P_i uses Q_i for every group; degree 1', () => {
    const c = grid(16);
    for (const m of [1, 2, 3, 4]) {
      const t = groupFromCoterie(c, m);
      expect(t.m).toBe(m);
      expect(t.kind).toBe('coterie-transform');
      for (const cartel of t.cartels) expect(cartel).toEqual(c.quorums);
      for (let i = 0; i < 16; i++)
        for (let g = 0; g < m; g++) expect(t.quorumOf(i, g)).toEqual(c.quorumOf(i));
      expect(checkGroupQuorumSystem(t).ok).toBe(true);
      expect(groupDegree(t)).toMatchObject({ degree: 1, exact: true });
    }
    expect(() => groupFromCoterie(c, 0)).toThrow(ConfigurationError);
  });
});

describe('checkGroupQuorumSystem — Def. 1', () => {
  it('names quorums of different cartels that do not meet', () => {
    const r = checkGroupQuorumSystem({
      n: 4,
      cartels: [
        [
          [0, 1],
          [2, 3],
        ],
        [
          [0, 2],
          [1, 3],
        ],
        [[0, 3], [1]],
      ],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.violation).toEqual({
      kind: 'not-intersecting',
      a: { cartel: 0, index: 1 },
      b: { cartel: 2, index: 1 },
    });
    expect(r.message).toBe(
      'Q_{0,1} = {2, 3} and Q_{2,1} = {1} do not intersect; quorums of different cartels must share a process (intersection, group-mutex paper Def. 1)',
    );
  });

  it('names a quorum that contains another of its cartel', () => {
    const r = checkGroupQuorumSystem({
      n: 3,
      cartels: [
        [
          [0, 1],
          [0, 1, 2],
        ],
        [[0, 1, 2]],
      ],
    });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/^Q_\{0,0\} = \{0, 1\} is a proper subset of Q_\{0,1\} = \{0, 1, 2\}/);
  });

  it('does not require quorums of one cartel to meet, and reports structural errors', () => {
    expect(
      checkGroupQuorumSystem({
        n: 4,
        cartels: [
          [
            [0, 1],
            [2, 3],
          ],
          [
            [0, 2],
            [1, 3],
          ],
        ],
      }).ok,
    ).toBe(true);
    expect(checkGroupQuorumSystem({ n: 4, cartels: [] }).message).toMatch(/at least one cartel/);
    expect(checkGroupQuorumSystem({ n: 4, cartels: [[[0, 4]]] }).message).toMatch(
      /cartel 0: Q_\{0,0\} contains 4/,
    );
    expect(checkGroupQuorumSystem({ n: 4, cartels: [[[]]] }).message).toMatch(/cartel 0: Q_\{0,0\} is empty/);
    expect(checkGroupQuorumSystem({ n: 0, cartels: [[[0]]] }).message).toMatch(/n must be an integer ≥ 1/);
  });

  it('checks large identical cartels as one coterie', () => {
    const t = groupFromCoterie(grid(1024), 3);
    expect(checkGroupQuorumSystem(t).ok).toBe(true);
    const broken = grid(400)
      .toJSON()
      .assignment.map((q) => [...q]);
    broken[399] = [399];
    const r = checkGroupQuorumSystem({ n: 400, cartels: [broken, broken] });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/^Q_\{0,0\} = .* and Q_\{1,399\} = \{399\} do not intersect/);
  });
});

describe('custom group quorum systems and JSON', () => {
  it('builds, assigns and round-trips', () => {
    const g = groupQuorumSystem(4, [
      [
        [0, 1],
        [2, 3],
      ],
      [
        [0, 2],
        [1, 3],
      ],
    ]);
    expect(g.quorumOf(0, 0)).toEqual([0, 1]);
    expect(g.quorumOf(3, 1)).toEqual([1, 3]);
    expect(g.holdersOf(2)).toEqual([
      { cartel: 0, index: 1 },
      { cartel: 1, index: 0 },
    ]);
    const back = groupQuorumSystemFromJSON(JSON.stringify(g));
    expect(back.toJSON()).toEqual(g.toJSON());
    const s = surficial(27, 3);
    expect(groupQuorumSystemFromJSON(s.toJSON()).toJSON()).toEqual(s.toJSON());
    const explicit = groupQuorumSystem(
      4,
      [
        [
          [0, 1],
          [2, 3],
        ],
        [
          [0, 2],
          [1, 3],
        ],
      ],
      [
        [1, 1],
        [1, 1],
        [0, 0],
        [0, 0],
      ],
    );
    expect(explicit.quorumOf(0, 0)).toEqual([2, 3]);
  });

  it('rejects bad input with typed errors', () => {
    expect(() => groupQuorumSystem(4, [[[0, 1]], [[2, 3]]])).toThrow(CoterieError);
    expect(() => groupQuorumSystem(4, [[[0, 1]], [[2, 3]]])).toThrow(/do not intersect/);
    expect(() => groupQuorumSystem(0, [])).toThrow(ConfigurationError);
    expect(() => groupQuorumSystem(2, [[[0, 1]]], [[5], [0]])).toThrow(
      /assignment\[0\]\[0\] must be the index of a quorum of cartel 0 \(0\.\.0\), got 5/,
    );
    expect(() => groupQuorumSystemFromJSON('{')).toThrow(/does not parse/);
    expect(() => groupQuorumSystemFromJSON({ n: 2, m: 3, cartels: [[[0, 1]]] })).toThrow(
      /"m" = 3 but there are 1 cartels/,
    );
    expect(() => groupQuorumSystemFromJSON({ n: 2 })).toThrow(/"cartels" must be an array/);
    const g = surficial(12, 3);
    expect(() => g.quorumOf(0, 3)).toThrow(/groups are the integers 0\.\.2/);
    expect(() => g.quorumOf(12, 0)).toThrow(ConfigurationError);
    expect(() => g.holdersOf(-1)).toThrow(ConfigurationError);
  });
});

describe('degree — Def. 2', () => {
  it('matches brute force on small cartels', () => {
    const cartels = [
      majority(7).quorums,
      grid(9).quorums,
      projectivePlane(2).quorums,
      [[0, 1], [2, 3], [4, 5], [0, 2], [1, 3, 5], [4]],
      [[0], [1], [2], [0, 1, 2]],
    ];
    for (const c of cartels) {
      const r = degree(c);
      expect(r.exact).toBe(true);
      expect(r.degree).toBe(bruteDegree(c));
      const picked = r.quora.map((j) => c[j]!);
      for (let a = 0; a < picked.length; a++)
        for (let b = a + 1; b < picked.length; b++) expect(meet(picked[a]!, picked[b]!)).toEqual([]);
    }
  });

  it('reports a lower and an upper bound when the budget runs out', () => {
    const quora = Array.from({ length: 40 }, (_, j) => [j % 20, 20 + ((j * 7) % 20)]);
    const r = degree(quora, 40, { budget: 3 });
    expect(r.exact).toBe(false);
    expect(r.degree).toBeLessThanOrEqual(r.upperBound);
    expect(r.upperBound).toBe(20);
    expect(degree(quora, 40).degree).toBe(20);
    expect(() => degree([[0], []])).toThrow(CoterieError);
  });

  it('counts disjoint quora of different sizes', () => {
    const c = [[0, 1, 2], [3, 4], [5]];
    expect(degree(c).degree).toBe(3);
    // indices refer to the caller's list, repeated quorums counted once
    expect(degree([[0], [0], [1], [0, 1]])).toMatchObject({ degree: 2, quora: [0, 2], exact: true });
    expect(degree(grid(4096).quorums)).toMatchObject({ degree: 1, exact: true });
  });
});
