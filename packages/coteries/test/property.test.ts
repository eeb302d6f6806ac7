/**
 * Property-based tests (fast-check): random user-defined systems on small n are classified by the
 * validators exactly as brute-force oracles on plain arrays classify them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  availability,
  checkCoterie,
  checkGroupQuorumSystem,
  checkHKArbiter,
  checkKArbiter,
  criticalConflictingPatterns,
  degree,
  dominates,
  faultTolerance,
  fromQuorums,
  isNonDominated,
  optimalLoad,
} from '../src/index.js';
import {
  bruteAvailability,
  bruteDegree,
  bruteFaultTolerance,
  bruteNonDominated,
  distinct,
  meet,
  multisets,
  oracleCoterie,
  type Q,
  subset,
} from './helpers.js';

const RUNS = { numRuns: 300, seed: 20_260_301 } as const;

/** A random list of quorums over n processes (possibly empty, out of range or repeated members). */
const rawSystem = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    quorums: fc.array(fc.array(fc.integer({ min: -1, max: n }), { maxLength: n + 1 }), {
      minLength: 0,
      maxLength: 7,
    }),
  }),
);

/** A random, mostly well-formed list: non-empty subsets of 0..n-1. */
const setSystem = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    quorums: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n }), {
      minLength: 1,
      maxLength: 8,
    }),
  }),
);

/** A random coterie: greedily keep sets that meet all kept ones, then keep the minimal ones. */
const coterie = setSystem.map(({ n, quorums }) => {
  const kept: Q[] = [];
  for (const q of quorums) if (kept.every((k) => meet(k, q).length > 0)) kept.push(q);
  const d = distinct(kept);
  return { n, quorums: d.filter((q) => !d.some((o) => o !== q && subset(o, q) && o.length < q.length)) };
});

describe('checkCoterie vs brute force', () => {
  it('classifies arbitrary lists (structure, intersection, minimality) like the oracle', () => {
    fc.assert(
      fc.property(rawSystem, ({ n, quorums }) => {
        const r = checkCoterie({ n, quorums });
        const want = oracleCoterie(n, quorums);
        const got = r.ok
          ? 'ok'
          : ['empty', 'out-of-range', 'duplicate-member', 'no-quorums', 'bad-n'].includes(r.violation.kind)
            ? 'structure'
            : r.violation.kind;
        expect(got).toBe(want);
      }),
      RUNS,
    );
  });

  it('the named pair really violates the property', () => {
    fc.assert(
      fc.property(setSystem, ({ n, quorums }) => {
        const r = checkCoterie({ n, quorums });
        if (r.ok) return;
        const v = r.violation;
        if (v.kind === 'not-intersecting') {
          expect(meet(v.a.members, v.b.members)).toEqual([]);
          expect(r.message).toContain('do not intersect');
        } else if (v.kind === 'not-minimal') {
          expect(subset(v.subset.members, v.superset.members)).toBe(true);
          expect(v.subset.members.length).toBeLessThan(v.superset.members.length);
        }
      }),
      RUNS,
    );
  });

  it('fromQuorums accepts exactly the coteries (as a per-process assignment)', () => {
    fc.assert(
      fc.property(setSystem, ({ n, quorums }) => {
        const assignment = Array.from({ length: n }, (_, i) => quorums[i % quorums.length]!);
        const valid = oracleCoterie(n, assignment) === 'ok';
        if (valid) {
          const c = fromQuorums(n, assignment);
          for (let i = 0; i < n; i++)
            expect(c.quorumOf(i)).toEqual([...assignment[i]!].sort((a, b) => a - b));
        } else expect(() => fromQuorums(n, assignment)).toThrow();
      }),
      RUNS,
    );
  });
});

describe('arbiter checks vs brute force', () => {
  it('checkKArbiter: every k+1 quorums (with repetition) share a process', () => {
    fc.assert(
      fc.property(coterie, fc.integer({ min: 1, max: 3 }), ({ n, quorums }, k) => {
        let brute = true;
        for (const pick of multisets(quorums.length, k + 1)) {
          if (pick.map((j) => quorums[j]!).reduce((a, b) => meet(a, b)).length === 0) brute = false;
        }
        const r = checkKArbiter({ n, quorums }, k);
        expect(r.exact).toBe(true);
        expect(r.ok).toBe(brute);
      }),
      RUNS,
    );
  });

  it('checkHKArbiter equals a brute-force check of Theorem 1 (Def. 4 applied to every bag, every assignment)', () => {
    const sets = fc.integer({ min: 2, max: 6 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        k: fc.integer({ min: 2, max: 3 }),
        family: fc.array(
          fc.array(
            fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: Math.ceil(n / 2), maxLength: n }),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
          { minLength: 3, maxLength: 3 },
        ),
      }),
    );
    fc.assert(
      fc.property(sets, ({ n, k, family }) => {
        const Qs = family
          .slice(0, k)
          .map((qs) =>
            distinct(qs).filter((q, _, all) => !all.some((o) => o.length < q.length && subset(o, q))),
          );
        // brute force: every bag of size ≤ k+1 that is critical by Def. 4 (conflicting, and no
        // longer conflicting once any one request is removed), every assignment (with repetition)
        let brute = true;
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        for (let len = 2; len <= k + 1 && brute; len++) {
          for (const bag of multisets(k, len)) {
            const hs = bag.map((x) => x + 1);
            if (sum(hs) < k + 1) continue;
            if (hs.some((_, t) => sum(hs.filter((__, u) => u !== t)) >= k + 1)) continue;
            const assign = (t: number, acc: Q | undefined): boolean => {
              if (acc !== undefined && acc.length === 0) return false;
              if (t === hs.length) return true;
              return Qs[hs[t]! - 1]!.every((q) => assign(t + 1, acc === undefined ? q : meet(acc, q)));
            };
            if (!assign(0, undefined)) brute = false;
          }
        }
        const r = checkHKArbiter({ n, sets: Qs }, k);
        expect(r.exact).toBe(true);
        expect(r.ok).toBe(brute);
        if (!r.ok && r.violation) {
          expect(criticalConflictingPatterns(k).map((b) => b.join(','))).toContain(
            r.violation.pattern.join(','),
          );
          expect(r.violation.quorums.map((x) => x.quorum.members).reduce((a, b) => meet(a, b))).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});

describe('group quorum systems vs brute force', () => {
  it('checkGroupQuorumSystem: cross-cartel intersection and per-cartel minimality', () => {
    const group = fc.integer({ min: 1, max: 6 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        cartels: fc.array(
          fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n }), {
            minLength: 1,
            maxLength: 4,
          }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
      }),
    );
    fc.assert(
      fc.property(group, ({ n, cartels }) => {
        let want = 'ok';
        const ds = cartels.map((c) => distinct(c));
        outer: for (let g = 0; g < ds.length; g++) {
          for (let h = g + 1; h < ds.length; h++) {
            for (const a of ds[g]!)
              for (const b of ds[h]!)
                if (meet(a, b).length === 0) {
                  want = 'not-intersecting';
                  break outer;
                }
          }
        }
        if (want === 'ok') {
          for (const c of ds)
            for (const a of c) for (const b of c) if (a !== b && subset(a, b)) want = 'not-minimal';
        }
        const r = checkGroupQuorumSystem({ n, cartels });
        expect(r.ok ? 'ok' : r.violation.kind).toBe(want);
      }),
      RUNS,
    );
  });

  it('degree equals the brute-force maximum packing', () => {
    fc.assert(
      fc.property(setSystem, ({ n, quorums }) => {
        const r = degree(quorums, n);
        expect(r.exact).toBe(true);
        expect(r.degree).toBe(bruteDegree(distinct(quorums)));
      }),
      RUNS,
    );
  });
});

describe('metrics vs brute force on random coteries', () => {
  it('fault tolerance, availability, non-dominance, dominance', () => {
    fc.assert(
      fc.property(coterie, fc.double({ min: 0, max: 1, noNaN: true }), ({ n, quorums }, p) => {
        const c = { n, quorums };
        const ft = faultTolerance(c);
        expect(ft.exact).toBe(true);
        expect(ft.faultTolerance).toBe(bruteFaultTolerance(n, quorums));
        expect(availability(c, p).availability).toBeCloseTo(bruteAvailability(n, quorums, p), 10);
        const nd = bruteNonDominated(n, quorums);
        expect(isNonDominated(c)).toBe(nd);
        // dominance against the system with one quorum grown by a process (if possible)
        const grown = quorums.map((q, j) =>
          j === 0 && q.length < n ? [...q, [...Array(n).keys()].find((x) => !q.includes(x))!] : q,
        );
        const g = { n, quorums: distinct(grown) };
        if (
          oracleCoterie(n, g.quorums) === 'ok' &&
          !distinct(grown).every((q) => quorums.some((o) => o.length === q.length && subset(o, q)))
        ) {
          expect(dominates(c, g)).toBe(true);
          expect(dominates(g, c)).toBe(false);
        }
      }),
      { ...RUNS, numRuns: 200 },
    );
  });

  it('optimal load: the strategy is a distribution, its load is reported, and it lies within the bounds', () => {
    fc.assert(
      fc.property(coterie, ({ n, quorums }) => {
        const r = optimalLoad({ n, quorums });
        const d = distinct(quorums);
        expect(r.strategy).toHaveLength(d.length);
        expect(r.strategy.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
        const load = new Array<number>(n).fill(0);
        d.forEach((q, j) => {
          for (const i of q) load[i]! += r.strategy[j]!;
        });
        expect(Math.max(...load)).toBeCloseTo(r.load, 9);
        const c = Math.min(...d.map((q) => q.length));
        expect(r.lowerBound).toBeGreaterThanOrEqual(Math.max(1 / c, c / n) - 1e-12);
        expect(r.load).toBeGreaterThanOrEqual(r.lowerBound - 1e-12);
        expect(r.exact).toBe(true);
      }),
      { ...RUNS, numRuns: 150 },
    );
  });
});
