import { ConfigurationError, type ProcessId } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  availability,
  checkCoterie,
  coterieFromJSON,
  coterieMetrics,
  dominates,
  faultTolerance,
  familyMetrics,
  familyQuorums,
  grid,
  isNonDominated,
  majority,
  optimalLoad,
  type QuorumSet,
  tree,
} from '../src/index.js';

// ── independent oracles on bitmasks (n ≤ 15), sharing no code with the library ──

const masksOf = (qs: readonly (readonly ProcessId[])[]): number[] =>
  qs.map((q) => q.reduce((m, x) => m | (1 << x), 0));
const popcount = (x: number): number => {
  let c = 0;
  for (let y = x; y !== 0; y &= y - 1) c++;
  return c;
};
/** `up[s]` = 1 iff the set s contains a quorum (the up-closure, built in increasing order of s). */
function upClosure(n: number, ms: readonly number[]): Uint8Array {
  const up = new Uint8Array(1 << n);
  for (const q of ms) up[q] = 1;
  for (let s = 0; s < 1 << n; s++) {
    if (up[s] === 1) continue;
    for (let i = 0; i < n; i++) {
      if (s & (1 << i) && up[s & ~(1 << i)] === 1) {
        up[s] = 1;
        break;
      }
    }
  }
  return up;
}

/** Fewest crashes hitting every quorum: the smallest crash set whose survivors contain no quorum. */
function bruteFaultTolerance(n: number, ms: readonly number[]): number {
  const up = upClosure(n, ms);
  const all = (1 << n) - 1;
  let best = Number.POSITIVE_INFINITY;
  for (let crash = 0; crash <= all; crash++)
    if (up[all & ~crash] === 0) best = Math.min(best, popcount(crash));
  return best;
}

/** P(some quorum has no crashed member), summed over all alive sets. */
function bruteAvailability(n: number, ms: readonly number[], crash: number): number {
  const up = upClosure(n, ms);
  let a = 0;
  for (let alive = 0; alive < 1 << n; alive++) {
    if (up[alive] === 1) {
      const k = popcount(alive);
      a += (1 - crash) ** k * crash ** (n - k);
    }
  }
  return a;
}

/** All k-subsets of 0..n-1. */
function kSubsets(n: number, k: number): ProcessId[][] {
  const out: ProcessId[][] = [];
  for (let s = 0; s < 1 << n; s++) {
    if (popcount(s) !== k) continue;
    const q: ProcessId[] = [];
    for (let i = 0; i < n; i++) if (s & (1 << i)) q.push(i);
    out.push(q);
  }
  return out;
}

const key = (q: readonly ProcessId[]) => q.join(',');

function expectAssignmentInFamily(c: ReturnType<typeof majority>, fam: QuorumSet) {
  const keys = new Set(fam.quorums.map(key));
  for (let i = 0; i < c.n; i++) expect(keys.has(key(c.quorumOf(i)))).toBe(true);
}

describe("the review's figures: assigned quorums beside the literature family", () => {
  it('majority(15): assigned FT 2 / A 0.8516; every majority FT 8, load 8/15, A 0.99997 at crash 0.1', () => {
    const m = coterieMetrics(majority(15), 0.1);
    expect(m.crashProbability).toBe(0.1);
    expect(m.assigned).toMatchObject({
      quorumCount: 15,
      quorumSize: { min: 8, max: 8 },
      faultTolerance: 2,
      exact: true,
    });
    expect(m.assigned.load).toBeCloseTo(8 / 15, 12);
    expect(m.assigned.availability).toBeCloseTo(0.8516, 4);
    const lit = m.literature!;
    expect(lit).toMatchObject({ family: { kind: 'majority', n: 15 }, quorumCount: 6435, faultTolerance: 8 });
    expect(lit.quorumSize).toEqual({ min: 8, max: 8 });
    expect(lit.load).toBeCloseTo(0.5333, 4);
    expect(lit.availability).toBeCloseTo(0.99997, 5);
    // the closed form against the exact enumeration over all 6,435 majorities
    const fam = familyQuorums(majority(15));
    expect(fam.quorums).toHaveLength(6435);
    const ms = masksOf(fam.quorums);
    expect(bruteAvailability(15, ms, 0.1)).toBeCloseTo(lit.availability, 12);
    expect(bruteFaultTolerance(15, ms)).toBe(8);
  });

  it('tree(15): assigned load 1, FT 1, A 0.8890; Agrawal–El Abbadi load 0.40, FT 4, A 0.9987 at crash 0.1', () => {
    const t = coterieMetrics(tree(15), 0.1);
    expect(t.assigned).toMatchObject({
      quorumCount: 8,
      quorumSize: { min: 4, max: 4 },
      faultTolerance: 1,
      load: 1,
    });
    expect(t.assigned.availability).toBeCloseTo(0.889, 4);
    const lit = t.literature!;
    expect(lit).toMatchObject({ family: { kind: 'tree', n: 15 }, quorumCount: 255, faultTolerance: 4 });
    expect(lit.quorumSize).toEqual({ min: 4, max: 8 });
    expect(lit.load).toBeCloseTo(0.4, 12);
    expect(lit.availability).toBeCloseTo(0.9987, 4);
    // ... and against the brute-force metrics on the 255 enumerated quorums
    const fam = familyQuorums(tree(15));
    const ft = faultTolerance(fam);
    expect(ft).toMatchObject({ faultTolerance: 4, exact: true });
    const load = optimalLoad(fam);
    expect(load.exact).toBe(true);
    expect(load.load).toBeCloseTo(0.4, 6);
    expect(availability(fam, 0.1).availability).toBeCloseTo(lit.availability, 12);
  });
});

describe('README: the literature-families table', () => {
  it('majority(15), majority(16), tree(15): every figure of the table, both rows', () => {
    type Row = [number, number, number, number, number, number, number];
    const rows: [ReturnType<typeof majority>, [Row, Row]][] = [
      // [quorums, min |Q|, max |Q|, load, fault tolerance, availability, digits of availability]
      [
        majority(15),
        [
          [15, 8, 8, 0.5333, 2, 0.8516, 4],
          [6435, 8, 8, 0.5333, 8, 0.99997, 5],
        ],
      ],
      [
        majority(16),
        [
          [16, 8, 9, 0.5294, 2, 0.8478, 4],
          [11440, 8, 9, 0.5294, 8, 0.99997, 5],
        ],
      ],
      [
        tree(15),
        [
          [8, 4, 4, 1, 1, 0.889, 4],
          [255, 4, 8, 0.4, 4, 0.9987, 4],
        ],
      ],
    ];
    for (const [c, [a, l]] of rows) {
      const m = coterieMetrics(c, 0.1);
      for (const [fig, [count, min, max, load, ft, av, digits]] of [
        [m.assigned, a],
        [m.literature!, l],
      ] as const) {
        expect(fig.quorumCount).toBe(count);
        expect(fig.quorumSize).toEqual({ min, max });
        expect(fig.load).toBeCloseTo(load, 4);
        expect(fig.faultTolerance).toBe(ft);
        expect(fig.availability).toBeCloseTo(av, digits);
      }
      expect(m.assigned.exact).toBe(true);
    }
  });

  it('majority(101): fault tolerance 51 over every majority, 2 over the assigned windows', () => {
    expect(familyMetrics(majority(101), 0.1).faultTolerance).toBe(51);
    expect(faultTolerance(majority(101)).faultTolerance).toBe(2);
  });
});

describe('familyQuorums / familyMetrics: closed forms against enumeration', () => {
  it('majority, n = 1..11: a coterie holding every assigned quorum; figures match brute force', () => {
    for (let n = 1; n <= 11; n++) {
      const c = majority(n);
      const fam = familyQuorums(c);
      expect(checkCoterie(fam).ok).toBe(true);
      expectAssignmentInFamily(c, fam);
      const ms = masksOf(fam.quorums);
      const f = familyMetrics(c, 0.1);
      expect(f.quorumCount).toBe(fam.quorums.length);
      const sizes = fam.quorums.map((q) => q.length);
      expect(f.quorumSize).toEqual({ min: Math.min(...sizes), max: Math.max(...sizes) });
      expect(f.faultTolerance).toBe(Math.ceil(n / 2));
      expect(bruteFaultTolerance(n, ms)).toBe(f.faultTolerance);
      expect(faultTolerance(fam)).toMatchObject({ faultTolerance: f.faultTolerance, exact: true });
      const load = optimalLoad(fam);
      expect(load.exact).toBe(true);
      expect(load.load).toBeCloseTo(f.load, 6);
      for (const p of [0, 0.05, 0.1, 0.3, 0.5, 0.8, 1]) {
        const a = familyMetrics(c, p).availability;
        expect(a).toBeCloseTo(bruteAvailability(n, ms, p), 12);
        expect(a).toBeCloseTo(availability(fam, p).availability, 12);
      }
    }
    // n odd: exactly the ⌊n/2⌋+1 subsets (the load is then (⌊n/2⌋+1)/n)
    expect(familyQuorums(majority(7)).quorums.map(key).sort()).toEqual(kSubsets(7, 4).map(key).sort());
    expect(familyMetrics(majority(7), 0).load).toBeCloseTo(4 / 7, 12);
  });

  it('majority, n even: the P_0 tie-break family strictly dominates the plain (n/2+1)-subsets', () => {
    for (const n of [4, 6, 8]) {
      const fam = familyQuorums(majority(n));
      const plain = { n, quorums: kSubsets(n, n / 2 + 1) };
      expect(dominates(fam, plain)).toBe(true);
      // the plain family would not hold majority(n)'s assigned n/2-quorums
      const plainKeys = new Set(plain.quorums.map(key));
      expect(majority(n).quorums.some((q) => !plainKeys.has(key(q)))).toBe(true);
      // its load beats the plain family's (n/2+1)/n
      expect(familyMetrics(majority(n), 0.1).load).toBeLessThan((n / 2 + 1) / n);
    }
    // a tie-breaker adds nothing to availability: majority(2h) is as available as majority(2h − 1)
    for (const h of [2, 3, 8, 50]) {
      for (const p of [0.01, 0.1, 0.3, 0.6]) {
        expect(familyMetrics(majority(2 * h), p).availability).toBeCloseTo(
          familyMetrics(majority(2 * h - 1), p).availability,
          12,
        );
      }
    }
    expect(familyMetrics(majority(2), 0.25)).toMatchObject({
      quorumCount: 1,
      faultTolerance: 1,
      load: 1,
      availability: 0.75,
    });
  });

  it('tree, n = 1, 3, 7, 15: a coterie holding every path; figures match brute force', () => {
    for (const [n, h] of [
      [1, 1],
      [3, 2],
      [7, 3],
      [15, 4],
    ] as const) {
      const c = tree(n);
      const fam = familyQuorums(c);
      expect(checkCoterie(fam).ok).toBe(true);
      expectAssignmentInFamily(c, fam);
      const ms = masksOf(fam.quorums);
      const f = familyMetrics(c, 0.1);
      expect(f.quorumCount).toBe(fam.quorums.length);
      const sizes = fam.quorums.map((q) => q.length);
      expect(f.quorumSize).toEqual({ min: h, max: Math.max(...sizes) });
      expect(f.faultTolerance).toBe(h);
      expect(bruteFaultTolerance(n, ms)).toBe(h);
      expect(optimalLoad(fam).load).toBeCloseTo(2 / (h + 1), 6);
      expect(f.load).toBeCloseTo(2 / (h + 1), 12);
      for (const p of [0, 0.1, 0.3, 0.5, 0.9]) {
        expect(familyMetrics(c, p).availability).toBeCloseTo(bruteAvailability(n, ms, p), 12);
      }
    }
    expect(familyQuorums(tree(3)).quorums.map(key).sort()).toEqual(['0,1', '0,2', '1,2']);
    expect(isNonDominated(familyQuorums(tree(7)))).toBe(true);
  });

  it('large n by closed form: non-dominated families are available with probability 1/2 at p = 1/2', () => {
    for (const n of [101, 1000, 1001]) {
      const f = familyMetrics({ kind: 'majority', n }, 0.5);
      expect(f.availability).toBeCloseTo(0.5, 10);
      expect(f.faultTolerance).toBe(Math.ceil(n / 2));
      expect(familyMetrics({ kind: 'majority', n }, 0.1).availability).toBeGreaterThan(1 - 1e-12);
    }
    expect(familyMetrics({ kind: 'majority', n: 1001 }, 0).load).toBeCloseTo(501 / 1001, 12);
    const t = familyMetrics({ kind: 'tree', n: 2 ** 20 - 1 }, 0.5);
    expect(t).toMatchObject({ faultTolerance: 20, quorumSize: { min: 20, max: 2 ** 19 } });
    expect(t.availability).toBeCloseTo(0.5, 12);
    expect(t.load).toBeCloseTo(2 / 21, 12);
    expect(familyMetrics(tree(31), 0.1).quorumCount).toBe(65535);
  });
});

describe('errors and the family descriptor', () => {
  it('only majority(n) and tree(n) carry a family; JSON round trips and other constructions do not', () => {
    expect(majority(9).family).toEqual({ kind: 'majority', n: 9 });
    expect(tree(7).family).toEqual({ kind: 'tree', n: 7 });
    expect(Object.isFrozen(tree(7).family)).toBe(true);
    expect(grid(9).family).toBeUndefined();
    expect(coterieFromJSON(majority(5).toJSON()).family).toBeUndefined();
    expect(coterieMetrics(grid(9), 0.1).literature).toBeUndefined();
    expect(() => familyMetrics(grid(9), 0.1)).toThrow(/grid 3×3 has no literature family/);
  });

  it('coterieMetrics passes its options on; assigned.exact is false when any figure is not exact', () => {
    const mc = coterieMetrics(majority(15), 0.1, { exactMaxN: 0, samples: 4000, seed: 3 });
    expect(mc.assigned.exact).toBe(false);
    expect(Math.abs(mc.assigned.availability - 0.8516)).toBeLessThan(0.03);
    expect(mc.assigned.faultTolerance).toBe(2);
    const quick = coterieMetrics(grid(16), 0.1, { budget: 1 }); // availability exact, the search cut short
    expect(quick.assigned.exact).toBe(false);
    expect(quick.assigned.faultTolerance).toBeGreaterThanOrEqual(4);
    expect(coterieMetrics(grid(16), 0.1).assigned).toMatchObject({ exact: true, faultTolerance: 4 });
    expect(coterieMetrics(grid(9), 0.1, { maxLpSize: 1 }).assigned.exact).toBe(true); // settled by bounds
  });

  it('rejects malformed families, bad probabilities and families too large to enumerate', () => {
    expect(() => familyMetrics({ kind: 'tree', n: 10 }, 0.1)).toThrow(ConfigurationError);
    expect(() => familyMetrics(null as never, 0.1)).toThrow(/expected \{ kind: 'majority'.*got null/);
    expect(() => familyMetrics({ kind: 'majority', n: 0 }, 0.1)).toThrow(/expected \{ kind: 'majority'/);
    expect(() => familyMetrics(majority(5), 1.5)).toThrow(
      /crash probability must be a number in \[0, 1\], got 1\.5/,
    );
    expect(() => coterieMetrics(majority(5), Number.NaN)).toThrow(ConfigurationError);
    expect(() => familyQuorums(majority(21))).toThrow(/352716 quorums, more than maxQuorums = 100000/);
    expect(() => familyQuorums(tree(7), { maxQuorums: 14 })).toThrow(/15 quorums/);
    expect(Object.isFrozen(familyQuorums(tree(3)).quorums)).toBe(true);
  });
});
