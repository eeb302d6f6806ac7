import { ConfigurationError, CoterieError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  checkHKArbiter,
  checkKArbiter,
  criticalConflictingPatterns,
  cubeHKArbiter,
  cubeKArbiter,
  cubeSide,
  cubeZ,
  fromHKQuorums,
  hkArbiterFromJSON,
  isConflicting,
  isCritical,
  uniformHKArbiter,
  uniformKArbiter,
  uniformQuorumSize,
} from '../src/index.js';
import { minimizeAssignment } from '../src/coterie.js';
import { meet, multisets, oracleCoterie } from './helpers.js';

/** Brute force: does every bag of `r` quorums (with repetition) share a process? */
function bruteKArbiter(qs: readonly (readonly number[])[], k: number): boolean {
  for (const pick of multisets(qs.length, k + 1)) {
    let common: readonly number[] = qs[pick[0]!]!;
    for (const j of pick) common = meet(common, qs[j]!);
    if (common.length === 0) return false;
  }
  return true;
}

/** Tuples in the cube not covered by q^b: strings over {match, mismatch (a−1 ways)} without z matches in a row. */
function cubeQuorumSizeExact(a: number, k: number, z: number): number {
  // dp[r] = weighted count of prefixes ending in a run of r matches (r < z)
  let dp = new Array<number>(z).fill(0);
  dp[0] = 1;
  for (let pos = 0; pos < k + 1; pos++) {
    const next = new Array<number>(z).fill(0);
    for (let r = 0; r < z; r++) {
      next[0]! += dp[r]! * (a - 1);
      if (r + 1 < z) next[r + 1]! += dp[r]!;
    }
    dp = next;
  }
  return a ** (k + 1) - dp.reduce((s, v) => s + v, 0);
}

describe('request patterns — Defs. 3–4, Theorem 2', () => {
  it("the paper's examples for k = 4", () => {
    expect(isConflicting([2, 2, 3], 4)).toBe(true);
    expect(isCritical([2, 2, 3], 4)).toBe(false);
    expect(isConflicting([2, 3], 4)).toBe(true);
    expect(isConflicting([1, 1, 1, 2], 4)).toBe(true);
    expect(isCritical([1, 1, 1, 2], 4)).toBe(true);
    expect(isConflicting([1, 1, 2], 4)).toBe(false);
    expect(isCritical([1, 1, 2], 4)).toBe(false);
  });

  it('enumerates exactly the critical conflicting bags (checked against brute force), all within Σh ≤ k + min h', () => {
    for (let k = 1; k <= 7; k++) {
      const got = criticalConflictingPatterns(k).map((b) => b.join(','));
      const expected: string[] = [];
      for (let len = 1; len <= k + 1; len++) {
        for (const bag of multisets(k, len)) {
          const r = bag.map((x) => x + 1);
          if (isCritical(r, k)) expected.push(r.join(','));
        }
      }
      expect(new Set(got)).toEqual(new Set(expected));
      expect(got.length).toBe(expected.length);
      for (const b of criticalConflictingPatterns(k)) {
        const s = b.reduce((x, y) => x + y, 0);
        expect(s).toBeGreaterThanOrEqual(k + 1);
        expect(s).toBeLessThanOrEqual(k + Math.min(...b));
        expect(b).toEqual([...b].sort((x, y) => x - y));
      }
    }
    expect(criticalConflictingPatterns(4).map((b) => b.join(''))).toContain('1112');
    expect(criticalConflictingPatterns(4).map((b) => b.join(''))).not.toContain('223');
  });

  it('rejects unit counts outside 1..k', () => {
    expect(() => isConflicting([0, 2], 4)).toThrow(ConfigurationError);
    expect(() => isCritical([5], 4)).toThrow(/1 ≤ h ≤ k = 4/);
    expect(() => criticalConflictingPatterns(0)).toThrow(ConfigurationError);
  });
});

describe('k-arbiters — Sec. 2.3', () => {
  it('uniform: |q| = ⌊k·n/(k+1)⌋ + 1, any k+1 quorums share a process', () => {
    for (const k of [1, 2, 3]) {
      for (let n = k + 1; n <= 24; n++) {
        const a = uniformKArbiter(n, k);
        expect(a.k).toBe(k);
        expect(a.kind).toBe('uniform-k-arbiter');
        for (const q of a.quorums) expect(q.length).toBe(Math.floor((k * n) / (k + 1)) + 1);
        expect(oracleCoterie(n, a.quorums)).toBe('ok');
        const r = checkKArbiter(a, k);
        expect(r).toMatchObject({ ok: true, exact: true });
        if (n <= 12) expect(bruteKArbiter(a.quorums, k)).toBe(true);
      }
    }
    expect(uniformKArbiter(7, 1).quorums).toEqual(uniformKArbiter(7, 1).quorums.map((q) => [...q]));
  });

  it('(k+1)-cube, n = a^(k+1): q^b = ∪ hyperplanes x_j = b_j, |q| = a^(k+1) − (a−1)^(k+1) ≤ (k+1)·n^(k/(k+1))', () => {
    for (const [k, a] of [
      [1, 2],
      [1, 3],
      [1, 5],
      [1, 8],
      [2, 2],
      [2, 3],
      [2, 4],
      [3, 2],
      [3, 3],
    ] as const) {
      const n = a ** (k + 1);
      const c = cubeKArbiter(n, k);
      expect(cubeSide(n, k)).toBe(a);
      expect(c.quorums).toHaveLength(n);
      for (const q of c.quorums) {
        expect(q.length).toBe(n - (a - 1) ** (k + 1));
        expect(q.length).toBeLessThanOrEqual((k + 1) * n ** (k / (k + 1)) + 1e-9);
      }
      // P_p uses q^{b(p)} and lies in it
      for (let p = 0; p < n; p++) expect(c.quorumOf(p)).toContain(p);
      expect(checkKArbiter(c, k)).toMatchObject({ ok: true, exact: true });
      if (n <= 9) expect(bruteKArbiter(c.quorums, k)).toBe(true);
    }
  });

  it('(k+1)-cube for n ≠ a^(k+1): tuples mod n, minimal, still a k-arbiter', () => {
    for (const k of [1, 2, 3]) {
      for (let n = k + 1; n <= 40; n++) {
        const c = cubeKArbiter(n, k);
        expect(oracleCoterie(n, c.quorums)).toBe('ok');
        expect(checkKArbiter(c, k)).toMatchObject({ ok: true, exact: true });
        if (n <= 10) expect(bruteKArbiter(c.quorums, k)).toBe(true);
      }
    }
  });

  it('checkKArbiter finds k+1 quorums without a common process', () => {
    // a projective plane is a coterie (1-arbiter) but three lines need not share a point
    const grid3 = {
      n: 9,
      quorums: [
        [0, 1, 2, 3, 6],
        [0, 1, 2, 4, 7],
        [0, 3, 4, 5, 6],
        [1, 3, 4, 5, 7],
        [2, 5, 6, 7, 8],
      ],
    };
    const r2 = checkKArbiter(grid3, 2);
    expect(r2.ok).toBe(false);
    expect(bruteKArbiter(grid3.quorums, 2)).toBe(false);
    expect(r2.violation?.pattern).toEqual([1, 1, 1]);
    const picked = r2.violation!.quorums.map((x) => x.quorum.members);
    expect(picked.reduce((acc, q) => meet(acc, q))).toEqual([]);
    expect(r2.message).toMatch(
      /not a 2-arbiter: for the critical conflicting request pattern \{1, 1, 1\} the quorums quorum #\d+ = /,
    );
    expect(checkKArbiter(grid3, 1).ok).toBe(true);
    expect(checkKArbiter({ n: 3, quorums: [[0, 1], [0]] }, 1).message).toMatch(/minimality/);
    expect(() => checkKArbiter(grid3, 0)).toThrow(ConfigurationError);
  });

  it('rejects k ≥ n and k < 1', () => {
    expect(() => uniformKArbiter(4, 4)).toThrow(/1 ≤ k < n = 4, got k = 4/);
    expect(() => cubeKArbiter(4, 0)).toThrow(ConfigurationError);
    expect(() => uniformHKArbiter(3, 5)).toThrow(ConfigurationError);
    expect(() => cubeHKArbiter(0, 1)).toThrow(/n must be an integer ≥ 1/);
  });
});

describe('(h,k)-arbiters — Sec. 3', () => {
  it('uniform: |q| = ⌊k·n/(k+h)⌋ + 1 for every h, Q_{k,k} is the majority, Theorem 1 holds', () => {
    for (const k of [1, 2, 3]) {
      for (let n = k + 1; n <= 30; n++) {
        const a = uniformHKArbiter(n, k);
        for (let h = 1; h <= k; h++) {
          const s = Math.floor((k * n) / (k + h)) + 1;
          expect(uniformQuorumSize(n, k, h)).toBe(s);
          for (const q of a.quorumSet(h).quorums) expect(q.length).toBe(s);
          for (let i = 0; i < n; i++) expect(a.quorumOf(i, h)).toHaveLength(s);
          // no larger than the uniform k-arbiter's quorums
          expect(s).toBeLessThanOrEqual(Math.floor((k * n) / (k + 1)) + 1);
        }
        for (const q of a.quorumSet(k).quorums) expect(q.length).toBe(Math.floor(n / 2) + 1);
        const r = checkHKArbiter(a);
        expect(r).toMatchObject({ ok: true, exact: true, patterns: criticalConflictingPatterns(k).length });
      }
    }
  });

  it('cube: z_h = ⌊(1+k)/(1+k/h)⌋, |q| exact by run counting and ≤ (k+2−z_h)·a^(k+1−z_h), Theorem 1 holds', () => {
    expect([1, 2, 3].map((h) => cubeZ(3, h))).toEqual([1, 1, 2]);
    expect([1, 2, 3, 4].map((h) => cubeZ(4, h))).toEqual([1, 1, 2, 2]);
    for (const [k, a] of [
      [1, 3],
      [1, 4],
      [2, 2],
      [2, 3],
      [2, 4],
      [3, 2],
      [3, 3],
    ] as const) {
      const n = a ** (k + 1);
      const arb = cubeHKArbiter(n, k);
      for (let h = 1; h <= k; h++) {
        const z = cubeZ(k, h);
        expect(z).toBe(Math.floor((1 + k) / (1 + k / h)));
        const set = arb.quorumSet(h);
        expect(set.quorums).toHaveLength(n);
        for (const q of set.quorums) {
          expect(q.length).toBe(cubeQuorumSizeExact(a, k, z));
          expect(q.length).toBeLessThanOrEqual((k + 2 - z) * a ** (k + 1 - z));
        }
        // not larger than the cube k-arbiter's quorums
        expect(set.quorums[0]!.length).toBeLessThanOrEqual(n - (a - 1) ** (k + 1));
      }
      const r = checkHKArbiter(arb);
      expect(r).toMatchObject({ ok: true, exact: true });
    }
  });

  it('cube for n ≠ a^(k+1): every Q_{h,k} minimal, Theorem 1 holds', () => {
    for (const k of [1, 2, 3]) {
      for (let n = k + 1; n <= 30; n++) {
        const arb = cubeHKArbiter(n, k);
        for (let h = 1; h <= k; h++) expect(oracleCoterie(n, arb.quorumSet(h).quorums)).toBe('ok');
        expect(checkHKArbiter(arb)).toMatchObject({ ok: true, exact: true });
      }
    }
  });

  it('cube for n ≠ a^(k+1): minimal against the whole tuple family (n = 100, k = 3: no 94-member quorum around a 91-member one)', () => {
    const n = 100;
    const k = 3;
    const arb = cubeHKArbiter(n, k);
    for (let h = 1; h <= k; h++) {
      const family = arb.quorumFamily!(h)!;
      expect(family).toHaveLength(cubeSide(n, k) ** (k + 1)); // 256 tuple quorums
      const fam = family.map((q) => new Set(q));
      for (const q of arb.quorumSet(h).quorums) {
        const inside = fam.find((f) => f.size < q.length && [...f].every((p) => q.includes(p)));
        expect(
          inside,
          `h = ${h}: an assigned quorum of ${q.length} contains one of ${inside?.size}`,
        ).toBeUndefined();
        expect(family.some((f) => f.length === q.length && f.every((p, t) => q[t] === p))).toBe(true);
      }
    }
    const sizes = new Map<number, number>();
    for (const q of arb.quorumSet(1).quorums) sizes.set(q.length, (sizes.get(q.length) ?? 0) + 1);
    expect(Object.fromEntries(sizes)).toEqual({ 91: 32, 94: 24, 97: 12 }); // was 91: 20, 94: 36, 97: 12
    expect(checkHKArbiter(arb)).toMatchObject({ ok: true, exact: true });
    expect(uniformHKArbiter(10, 2).quorumFamily!(1)).toBeUndefined();
  });

  it('checkHKArbiter reports an assigned quorum that properly contains a quorum of its family', () => {
    const n = 100;
    const k = 3;
    const arb = cubeHKArbiter(n, k);
    const families = [1, 2, 3].map((h) => arb.quorumFamily!(h)!);
    // the assignment before the fix: q^{b(p)} per process, minimized only among the assigned quorums
    const sets = families.map((f) => minimizeAssignment(n, f.slice(0, n)));
    expect(checkHKArbiter({ n, sets })).toMatchObject({ ok: true }); // blind without the family
    const r = checkHKArbiter({ n, sets, families });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(
      /^not a \(h,k\)-arbiter: in Q_\{1,3\}: quorum #\d+ = .* \(94 processes\) properly contains the quorum .* \(91 processes\) of the same family; .*minimality/,
    );
    const tiny = checkHKArbiter(
      {
        n: 3,
        sets: [[[0, 1, 2]]],
        families: [
          [
            [0, 1, 2],
            [0, 1],
          ],
        ],
      },
      1,
    );
    expect(tiny.ok).toBe(false);
    expect(tiny.message).toMatch(
      /quorum #0 = \{0, 1, 2\} \(3 processes\) properly contains the quorum \{0, 1\} \(2 processes\)/,
    );
  });

  it('cube k-arbiter for n ≠ a^(k+1): no assigned quorum contains a tuple quorum of the family', () => {
    for (const [n, k] of [
      [100, 3],
      [20, 2],
      [50, 1],
    ] as const) {
      const c = cubeKArbiter(n, k);
      const family = cubeHKArbiter(n, k).quorumFamily!(1)!; // Q_{1,k} of the cube is the cube k-arbiter
      for (const q of c.quorums)
        expect(family.some((f) => f.length < q.length && f.every((p) => q.includes(p)))).toBe(false);
      expect(checkKArbiter(c, k)).toMatchObject({ ok: true, exact: true });
    }
  });

  it('checkHKArbiter finds a critical pattern whose quorums miss each other', () => {
    // uniform sizes, but |q| = 5 instead of 8 for h = 2 (k = 3, n = 12): two 2-unit requests can miss each other
    const n = 12;
    const k = 3;
    const sets = [1, 2, 3].map((h) => {
      const s = uniformQuorumSize(n, k, h) - (h === 2 ? 3 : 0);
      return Array.from({ length: n }, (_, i) =>
        Array.from({ length: s }, (_, t) => (i + t) % n).sort((a, b) => a - b),
      );
    });
    const r = checkHKArbiter({ n, sets }, k);
    expect(r.ok).toBe(false);
    expect(r.exact).toBe(true);
    const v = r.violation!;
    expect(isCritical(v.pattern, k)).toBe(true);
    expect(v.pattern).toContain(2);
    expect(v.quorums.map((x) => x.h).sort()).toEqual([...v.pattern].sort());
    expect(v.quorums.map((x) => x.quorum.members).reduce((acc, q) => meet(acc, q))).toEqual([]);
    expect(r.message).toMatch(/^not a \(h,3\)-arbiter: for the critical conflicting request pattern \{/);
    expect(() => fromHKQuorums(n, k, sets)).toThrow(CoterieError);
  });

  it('falls back to seeded sampling past the search budget and says it is not a proof', () => {
    const arb = cubeHKArbiter(64, 2);
    const r = checkHKArbiter(arb, 2, { budget: 1, samples: 200, seed: 7 });
    expect(r.ok).toBe(true);
    expect(r.exact).toBe(false);
    expect(r.bySampling).toBeGreaterThan(0);
    expect(r.message).toMatch(/not a proof/);
  });

  it('round-trips through JSON and validates user (h,k)-arbiters', () => {
    const arb = cubeHKArbiter(16, 3);
    const back = hkArbiterFromJSON(JSON.stringify(arb));
    expect(back.toJSON()).toEqual(arb.toJSON());
    expect(back.kind).toBe('cube-hk-arbiter');
    for (let h = 1; h <= 3; h++)
      for (let i = 0; i < 16; i++) expect(back.reportersOf(i, h)).toEqual(arb.reportersOf(i, h));
    expect(() => hkArbiterFromJSON({ n: 4, k: 2, assignments: [[[0]]] })).toThrow(
      /one assignment per h = 1\.\.k \(2 entries/,
    );
    expect(() => hkArbiterFromJSON({ n: 4, k: 0, assignments: [] })).toThrow(/"k" must be an integer ≥ 1/);
    expect(() => hkArbiterFromJSON('nope')).toThrow(/does not parse/);
    expect(() => arb.quorumSet(4)).toThrow(/1 ≤ h ≤ k = 3, got h = 4/);
    expect(() => arb.quorumOf(16, 1)).toThrow(ConfigurationError);
  });

  it('checkHKArbiter rejects a k that does not match the sets', () => {
    expect(() => checkHKArbiter(uniformHKArbiter(6, 2), 3)).toThrow(/has 3 quorum sets/);
  });
});
