/**
 * Quorum reselection (issue 28 §4): `quorumAvoiding` returns `Q_i` or another quorum of the
 * coterie's family avoiding the suspected processes; any two quorums it can return intersect,
 * whatever the suspicions; and the availability it gives (`reselectionAvailability`) is the one
 * the library computes for that family.
 */
import type { ProcessId } from '@critsec/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  availability,
  type Coterie,
  familyMetrics,
  familyQuorums,
  fromQuorums,
  grid,
  majority,
  projectivePlane,
  quorumAvoiding,
  reselectionAvailability,
  tree,
  triangle,
} from '../src/index.js';

const RUNS = { numRuns: 400, seed: 20_261_127 } as const;

const COTERIES: readonly Coterie[] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map(majority),
  ...[1, 3, 7, 15].map(tree),
  ...[4, 7, 9, 10, 16].map(grid),
  projectivePlane(2),
  triangle(3),
  fromQuorums(4, [
    [0, 1],
    [1, 2],
    [0, 2],
    [0, 1],
  ]),
];

/** The quorums reselection may draw from: the literature family, else the listed quorums. */
const familyOf = (c: Coterie): readonly (readonly ProcessId[])[] =>
  c.family === undefined ? c.quorums : familyQuorums(c).quorums;

const key = (q: readonly ProcessId[]) => q.join(',');

/** A coterie, and two (requester, suspected set) pairs over its processes. */
const scenario = fc.constantFrom(...COTERIES).chain((c) => {
  const ask = fc.record({
    i: fc.integer({ min: 0, max: c.n - 1 }),
    suspected: fc
      .uniqueArray(fc.integer({ min: 0, max: c.n - 1 }), { maxLength: c.n })
      .map((a) => new Set(a)),
  });
  return fc.record({ c: fc.constant(c), a: ask, b: ask });
});

describe('quorumAvoiding', () => {
  it('any two quorums it returns intersect, for any requesters and suspicions (right or wrong)', () => {
    fc.assert(
      fc.property(scenario, ({ c, a, b }) => {
        const qa = quorumAvoiding(c, a.i, a.suspected);
        const qb = quorumAvoiding(c, b.i, b.suspected);
        if (qa !== undefined && qb !== undefined) expect(qa.some((p) => qb.includes(p))).toBe(true);
      }),
      RUNS,
    );
  });

  it('returns a quorum of the family with no suspected member exactly when one exists; Q_i while Q_i avoids them', () => {
    fc.assert(
      fc.property(scenario, ({ c, a }) => {
        const family = familyOf(c);
        const members = new Set(family.map(key));
        const exists = family.some((q) => !q.some((p) => a.suspected.has(p)));
        const q = quorumAvoiding(c, a.i, a.suspected);
        expect(q !== undefined).toBe(exists);
        if (q === undefined) return;
        expect(q.some((p) => a.suspected.has(p))).toBe(false);
        expect(members.has(key(q))).toBe(true);
        expect(Object.isFrozen(q)).toBe(true);
        expect(quorumAvoiding(c, a.i, new Set(a.suspected))).toEqual(q); // deterministic
        if (!c.quorumOf(a.i).some((p) => a.suspected.has(p))) expect(q).toBe(c.quorumOf(a.i));
      }),
      RUNS,
    );
  });

  it('substitutes a suspected tree node by both its children, and keeps the family rule of majority(n) for n even', () => {
    const t = tree(7); // Q_3 = {0, 1, 3}
    expect(quorumAvoiding(t, 3, new Set([0]))).toEqual([1, 2, 3, 5]);
    expect(quorumAvoiding(t, 3, new Set([0, 1]))).toEqual([2, 3, 4, 5]);
    expect(quorumAvoiding(t, 3, new Set([1, 2]))).toEqual([0, 3, 4]);
    expect(quorumAvoiding(t, 3, new Set([0, 3, 4]))).toBeUndefined(); // P_1 has no live child subtree
    const m = majority(6); // C₁: P_0 and 2 others; C₂: 4 processes without P_0
    expect(quorumAvoiding(m, 1, new Set([2]))).toEqual([0, 1, 3]);
    expect(quorumAvoiding(m, 1, new Set([0]))).toEqual([1, 2, 3, 4]);
    expect(quorumAvoiding(majority(2), 1, new Set([0]))).toBeUndefined();
    expect(quorumAvoiding(grid(9), 0, new Set([1]))).toEqual([0, 3, 4, 5, 6]); // row 1 ∪ column 0
    expect(() => quorumAvoiding(grid(9), 9, new Set())).toThrow(/out of range/);
  });
});

describe('reselectionAvailability', () => {
  /** The figure `@critsec/coteries` already computes for the family reselection draws from. */
  const computed = (c: Coterie, p: number) =>
    c.family === undefined ? availability(c, p).availability : familyMetrics(c, p).availability;

  it('agrees with familyMetrics (majority, tree) and availability over the quorums (grid, others)', () => {
    for (const c of [
      majority(5),
      majority(6),
      majority(9),
      tree(7),
      tree(15),
      grid(9),
      grid(10),
      projectivePlane(2),
    ]) {
      for (const p of [0.05, 0.1, 0.3]) {
        const r = reselectionAvailability(c, p);
        expect(r.exact).toBe(true);
        expect(r.availability).toBeCloseTo(computed(c, p), 10);
      }
    }
    const sampled = reselectionAvailability(majority(21), 0.3, { samples: 4000, seed: 7 });
    expect(sampled.exact).toBe(false);
    expect(Math.abs(sampled.availability - computed(majority(21), 0.3))).toBeLessThan(
      4 * sampled.standardError! + 1e-3,
    );
  });

  it('does not depend on which live process asks', () => {
    for (const c of [majority(5), majority(6), tree(7), grid(9)]) {
      for (let mask = 0; mask < 2 ** c.n; mask++) {
        const crashed = new Set<ProcessId>();
        for (let x = 0; x < c.n; x++) if ((mask >>> x) & 1) crashed.add(x);
        const found = new Set<boolean>();
        for (let i = 0; i < c.n; i++)
          if (!crashed.has(i)) found.add(quorumAvoiding(c, i, crashed) !== undefined);
        expect(found.size).toBeLessThanOrEqual(1);
      }
    }
  });

  it('the README figures at p = 0.1: assigned quorums alone, and with reselection', () => {
    const row = (c: Coterie) => [
      Number(availability(c, 0.1).availability.toFixed(4)),
      Number(reselectionAvailability(c, 0.1).availability.toFixed(4)),
    ];
    expect(row(majority(5))).toEqual([0.955, 0.9914]);
    expect(row(tree(7))).toEqual([0.8893, 0.9938]);
    expect(row(tree(15))).toEqual([0.889, 0.9987]);
    expect(row(grid(9))).toEqual([0.9667, 0.9667]);
    expect(() => reselectionAvailability(grid(9), 1.5)).toThrow(/\[0, 1\]/);
  });
});
