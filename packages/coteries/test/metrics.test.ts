import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  availability,
  dominates,
  dominationWitness,
  faultTolerance,
  fromQuorums,
  grid,
  isNonDominated,
  majority,
  optimalLoad,
  processLoad,
  projectivePlane,
  type QuorumSet,
  quorumSizes,
  tree,
  triangle,
  wall,
} from '../src/index.js';
import { bruteAvailability, bruteFaultTolerance, bruteNonDominated, meet, subset } from './helpers.js';

function expectStrategy(c: QuorumSet, r: ReturnType<typeof optimalLoad>) {
  expect(r.strategy).toHaveLength(c.quorums.length);
  expect(r.strategy.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 9);
  for (const w of r.strategy) expect(w).toBeGreaterThanOrEqual(0);
  const load = new Array<number>(c.n).fill(0);
  c.quorums.forEach((q, j) => {
    for (const i of q) load[i]! += r.strategy[j]!;
  });
  expect(Math.max(...load)).toBeCloseTo(r.load, 12);
  expect(r.lowerBound).toBeLessThanOrEqual(r.load + 1e-12);
}

describe('quorumSizes / processLoad', () => {
  it('sizes and membership counts', () => {
    expect(quorumSizes(majority(8))).toEqual({ min: 4, max: 5, mean: 4.375, count: 8 });
    const l = processLoad(grid(9));
    expect(l.counts).toEqual(new Array(9).fill(5));
    expect(l.reporters).toEqual(new Array(9).fill(5));
    expect(l).toMatchObject({ min: 5, max: 5, mean: 5 });
    const t = processLoad(tree(7));
    expect(t.counts[0]).toBe(4); // the root is in every path
    expect(t.reporters![0]).toBe(7);
    expect(processLoad({ n: 3, quorums: [[0, 1]] }).reporters).toBeUndefined();
    expect(() => quorumSizes({ n: 2, quorums: [[2]] })).toThrow(ConfigurationError);
  });
});

describe('optimalLoad — Naor & Wool', () => {
  it('symmetric systems meet the lower bound without an LP', () => {
    for (const s of [2, 3, 5, 8, 32]) {
      const r = optimalLoad(grid(s * s));
      expect(r).toMatchObject({ exact: true, method: 'bounds' });
      expect(r.load).toBeCloseTo((2 * s - 1) / (s * s), 12);
    }
    for (const n of [3, 7, 21]) expect(optimalLoad(majority(n)).load).toBeCloseTo((n + 1) / (2 * n), 12);
    for (const q of [2, 3, 7])
      expect(optimalLoad(projectivePlane(q)).load).toBeCloseTo((q + 1) / (q * q + q + 1), 12);
    expect(optimalLoad(tree(15)).load).toBe(1);
  });

  it('solves the LP when the bounds do not meet', () => {
    const c = fromQuorums(4, [
      [0, 1],
      [0, 2],
      [1, 2, 3],
      [0, 1],
    ]);
    const r = optimalLoad(c);
    expect(r.method).toBe('lp');
    expect(r.exact).toBe(true);
    expect(r.load).toBeCloseTo(2 / 3, 6);
    expectStrategy(c, r);
    const t = triangle(4);
    const rt = optimalLoad(t);
    expect(rt.exact).toBe(true);
    expectStrategy(t, rt);
    // a non-uniform strategy beats the uniform one on a lopsided wall
    const w = wall([1, 5, 2]);
    const rw = optimalLoad(w);
    expectStrategy(w, rw);
    const uniform = new Array<number>(w.n).fill(0);
    for (const q of w.quorums) for (const i of q) uniform[i]! += 1 / w.quorums.length;
    expect(rw.load).toBeLessThan(Math.max(...uniform) - 1e-6);
  });

  it('returns bounds only past maxLpSize', () => {
    const c = fromQuorums(4, [
      [0, 1],
      [0, 2],
      [1, 2, 3],
      [0, 1],
    ]);
    const r = optimalLoad(c, { maxLpSize: 1 });
    expect(r.method).toBe('bounds-only');
    expect(r.exact).toBe(false);
    expect(r.lowerBound).toBeCloseTo(0.5, 12);
    expect(r.load).toBeCloseTo(2 / 3, 12);
  });
});

describe('faultTolerance', () => {
  it('matches brute force and the known values', () => {
    const cases: [QuorumSet, number][] = [
      [grid(16), 4],
      [grid(9), 3],
      [majority(9), 2], // cyclic windows: two opposite processes hit all of them
      [majority(4), 2],
      [projectivePlane(2), 3],
      [projectivePlane(3), 4],
      [tree(15), 1],
      [triangle(4), 3],
      [
        fromQuorums(3, [
          [0, 1],
          [1, 2],
          [0, 2],
        ]),
        2,
      ],
    ];
    for (const [c, ft] of cases) {
      const r = faultTolerance(c);
      expect(r.exact).toBe(true);
      expect(r.faultTolerance).toBe(ft);
      expect(r.lowerBound).toBe(ft);
      if (c.n <= 16) expect(bruteFaultTolerance(c.n, c.quorums)).toBe(ft);
      expect(r.crashSet).toHaveLength(ft);
      for (const q of c.quorums) expect(meet(q, r.crashSet).length).toBeGreaterThan(0);
    }
  });

  it('grid 8×8: one process per row (8), exact with a larger budget, bracketed with a small one', () => {
    expect(faultTolerance(grid(64), { budget: 1_000_000 })).toMatchObject({
      faultTolerance: 8,
      lowerBound: 8,
      exact: true,
    });
    const quick = faultTolerance(grid(64), { budget: 1000 });
    expect(quick.exact).toBe(false);
    expect(quick.faultTolerance).toBe(8);
    expect(quick.lowerBound).toBeGreaterThanOrEqual(5); // ⌈64/15⌉
    expect(quick.lowerBound).toBeLessThan(8);
  });

  it('large systems: a valid crash set and a certified lower bound', () => {
    const c = grid(1024);
    const r = faultTolerance(c, { budget: 2000 });
    for (const q of c.quorums) expect(meet(q, r.crashSet).length).toBeGreaterThan(0);
    expect(r.faultTolerance).toBeLessThanOrEqual(32);
    expect(r.lowerBound).toBeGreaterThanOrEqual(17); // ⌈1/L⌉ = ⌈1024/63⌉
    expect(r.lowerBound).toBeLessThanOrEqual(r.faultTolerance);
  });
});

describe('availability', () => {
  it('exact: matches enumeration and the closed form for majority(3)', () => {
    for (const p of [0, 0.05, 0.1, 0.3, 0.5, 1]) {
      const m3 = majority(3);
      const r = availability(m3, p);
      expect(r.exact).toBe(true);
      expect(r.availability).toBeCloseTo((1 - p) ** 3 + 3 * p * (1 - p) ** 2, 12);
      for (const c of [
        grid(9),
        triangle(4),
        projectivePlane(2),
        fromQuorums(4, [
          [0, 1],
          [0, 2],
          [1, 2, 3],
          [0, 1],
        ]),
      ]) {
        expect(availability(c, p).availability).toBeCloseTo(bruteAvailability(c.n, c.quorums, p), 12);
      }
    }
  });

  it('Monte Carlo beyond exactMaxN: seeded, reproducible, within a few standard errors', () => {
    const c = grid(16);
    const exact = availability(c, 0.2).availability;
    const mc = availability(c, 0.2, { exactMaxN: 0, samples: 20_000, seed: 42 });
    expect(mc.exact).toBe(false);
    expect(mc.samples).toBe(20_000);
    expect(mc.seed).toBe(42);
    expect(Math.abs(mc.availability - exact)).toBeLessThan(4 * mc.standardError! + 1e-9);
    expect(availability(c, 0.2, { exactMaxN: 0, samples: 20_000, seed: 42 })).toEqual(mc);
    // both sampling paths (marking hit quorums / scanning for an intact one), both crash samplers
    for (const [sys, p] of [
      [grid(16), 0.02],
      [majority(15), 0.3],
      [triangle(5), 0.6],
    ] as const) {
      const e = availability(sys, p).availability;
      const r = availability(sys, p, { exactMaxN: 0, samples: 20_000, seed: 7 });
      expect(Math.abs(r.availability - e)).toBeLessThan(4 * r.standardError! + 1e-3);
    }
    const big = availability(grid(1024), 0.01, { samples: 2000 });
    expect(big.exact).toBe(false);
    expect(big.availability).toBeGreaterThan(0.9);
  });

  it('rejects p outside [0, 1]', () => {
    expect(() => availability(grid(4), 1.5)).toThrow(/p must be a number in \[0, 1\], got 1\.5/);
    expect(() => availability(grid(4), Number.NaN)).toThrow(ConfigurationError);
  });
});

describe('dominance — Garcia-Molina & Barbara', () => {
  const full3 = fromQuorums(3, [
    [0, 1],
    [1, 2],
    [0, 2],
  ]);
  const two = {
    n: 3,
    quorums: [
      [0, 1],
      [0, 2],
    ],
  };

  it('dominates(c, d): every quorum of d contains one of c, and c ≠ d', () => {
    expect(dominates(full3, two)).toBe(true);
    expect(dominates(two, full3)).toBe(false);
    expect(dominates(full3, full3)).toBe(false);
    expect(
      dominates(full3, {
        n: 3,
        quorums: [
          [2, 0],
          [1, 0],
          [2, 1],
        ],
      }),
    ).toBe(false);
    expect(dominates({ n: 3, quorums: [[0]] }, two)).toBe(true);
    expect(() => dominates(full3, grid(4))).toThrow(/same processes, got n = 3 and n = 4/);
  });

  it('isNonDominated agrees with brute force; the witness is a dominating coterie', () => {
    const cases: [QuorumSet, boolean][] = [
      [full3, true],
      [{ n: 3, quorums: [[0]] }, true],
      [two, false],
      [majority(5), false],
      [majority(3), true],
      [grid(9), false],
      [projectivePlane(2), true], // the Fano plane is non-dominated
      [projectivePlane(3), false],
      [tree(7), false],
      [
        {
          n: 5,
          quorums: [
            [0, 1],
            [0, 2],
            [0, 3],
            [0, 4],
            [1, 2, 3, 4],
          ],
        },
        true,
      ], // the wheel's full family
      [
        {
          n: 5,
          quorums: [
            [0, 1],
            [0, 2, 3, 4],
            [1, 2, 3, 4],
          ],
        },
        false,
      ], // {0, 2} meets all, contains none
    ];
    for (const [c, nd] of cases) {
      expect(isNonDominated(c)).toBe(nd);
      expect(bruteNonDominated(c.n, c.quorums)).toBe(nd);
      const w = dominationWitness(c);
      if (nd) expect(w).toBeUndefined();
      else {
        const h = w!.transversal;
        for (const q of c.quorums) {
          expect(meet(q, h).length).toBeGreaterThan(0);
          expect(subset(q, h)).toBe(false);
        }
        expect(dominates({ n: c.n, quorums: w!.dominating }, c)).toBe(true);
      }
    }
  });

  it('refuses searches that exceed the budget', () => {
    expect(() => isNonDominated(majority(15), { budget: 5 })).toThrow(/exceeded 5 nodes/);
  });
});
