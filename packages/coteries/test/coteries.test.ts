import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import {
  checkCoterie,
  type Coterie,
  grid,
  gridShape,
  majority,
  projectivePlane,
  quorumSizes,
  tree,
  triangle,
  wall,
  wheel,
} from '../src/index.js';
import { meet, oracleCoterie, subset } from './helpers.js';

/** Facts every per-process coterie must have, checked by brute force. */
function expectWellFormed(c: Coterie) {
  expect(oracleCoterie(c.n, c.quorums)).toBe('ok');
  expect(checkCoterie(c).ok).toBe(true);
  const seen = new Set<string>();
  for (const q of c.quorums) {
    expect([...q].sort((a, b) => a - b)).toEqual(q);
    expect(Object.isFrozen(q)).toBe(true);
    seen.add(q.join(','));
  }
  expect(seen.size).toBe(c.quorums.length);
  for (let i = 0; i < c.n; i++) {
    const q = c.quorumOf(i);
    expect(c.quorums[c.quorumIndexOf(i)]).toBe(q);
    expect(c.quorumOf(i)).toBe(q); // same frozen array every call
    const r = Array.from({ length: c.n }, (_, j) => j).filter((j) => c.quorumOf(j).includes(i));
    expect(c.reportersOf(i)).toEqual(r);
    expect(Object.isFrozen(c.reportersOf(i))).toBe(true);
  }
  // every distinct quorum is assigned to somebody
  const used = new Set(Array.from({ length: c.n }, (_, i) => c.quorumIndexOf(i)));
  expect(used.size).toBe(c.quorums.length);
}

describe('majority(n) — global-CS paper, Example 1', () => {
  it('n odd: every Q_i has (n+1)/2 processes; n even: C1 (n/2) ∪ C2 (n/2+1), no C1 quorum inside a C2 quorum', () => {
    for (let n = 1; n <= 64; n++) {
      const c = majority(n);
      expectWellFormed(c);
      expect(c.kind).toBe('majority');
      if (n % 2 === 1) {
        for (const q of c.quorums) expect(q.length).toBe((n + 1) / 2);
      } else {
        const c1 = c.quorums.filter((q) => q.length === n / 2);
        const c2 = c.quorums.filter((q) => q.length === n / 2 + 1);
        expect(c1.length + c2.length).toBe(c.quorums.length);
        expect(c1.length).toBeGreaterThan(0);
        for (const a of c1) for (const b of c2) expect(subset(a, b)).toBe(false);
      }
      if (n >= 3) for (let i = 0; i < n; i++) expect(c.quorumOf(i)).toContain(i);
    }
  });

  it('is cyclic for odd n: Q_i = {i, …, i+(n-1)/2} mod n', () => {
    const c = majority(7);
    expect(c.quorumOf(0)).toEqual([0, 1, 2, 3]);
    expect(c.quorumOf(5)).toEqual([0, 1, 5, 6]);
    expect(majority(4).quorums).toEqual([
      [0, 1],
      [1, 2, 3],
      [0, 2],
      [0, 3],
    ]);
  });

  it('rejects n < 1 with ConfigurationError', () => {
    expect(() => majority(0)).toThrow(ConfigurationError);
    expect(() => majority(2.5)).toThrow(/integer ≥ 1/);
  });
});

describe('grid(n) — global-CS paper, Example 2, and the non-square extension', () => {
  it('square n: Q_{x,y} = row y ∪ column x, |Q| = 2√n − 1, P_{x+y√n} uses Q_{x,y}', () => {
    for (let s = 1; s <= 8; s++) {
      const n = s * s;
      const c = grid(n);
      expectWellFormed(c);
      expect(c.quorums.length).toBe(n);
      for (let y = 0; y < s; y++) {
        for (let x = 0; x < s; x++) {
          const expected = new Set<number>();
          for (let i = 0; i < s; i++) expected.add(i + y * s).add(x + i * s);
          expect(c.quorumOf(x + y * s)).toEqual([...expected].sort((a, b) => a - b));
          expect(c.quorumOf(x + y * s).length).toBe(2 * s - 1);
        }
      }
    }
  });

  it('every n ≤ 64 gives a coterie with |Q| ≤ ⌈√n⌉ + ⌈n/⌈√n⌉⌉ − 1 and i ∈ Q_i', () => {
    for (let n = 1; n <= 64; n++) {
      const c = grid(n);
      expectWellFormed(c);
      const { columns, rows, lastRow } = gridShape(n);
      expect(columns).toBe(Math.ceil(Math.sqrt(n)));
      expect(rows).toBe(Math.ceil(n / columns));
      expect(lastRow).toBe(n - columns * (rows - 1));
      expect(quorumSizes(c).max).toBeLessThanOrEqual(columns + rows - 1);
      for (let i = 0; i < n; i++) expect(c.quorumOf(i)).toContain(i);
    }
  });

  it('a one-process last row: column-0 processes use column 0 (minimality)', () => {
    const c = grid(7); // 3 columns: rows {0,1,2} {3,4,5} {6}
    expect(c.quorumOf(6)).toEqual([0, 3, 6]);
    expect(c.quorumOf(0)).toEqual([0, 3, 6]);
    expect(c.quorumOf(1)).toEqual([0, 1, 2, 4]);
  });
});

describe('projectivePlane(q) — Maekawa, finite projective plane', () => {
  for (const q of [2, 3, 4, 5, 7, 8, 9]) {
    it(`q = ${q}: n = q²+q+1, |Q| = q+1, quorums meet in exactly one process, each process in q+1 quorums`, () => {
      const c = projectivePlane(q);
      const n = q * q + q + 1;
      expect(c.n).toBe(n);
      expect(c.quorums.length).toBe(n);
      expectWellFormed(c);
      for (const Q of c.quorums) expect(Q.length).toBe(q + 1);
      for (let a = 0; a < n; a++)
        for (let b = a + 1; b < n; b++) expect(meet(c.quorums[a]!, c.quorums[b]!)).toHaveLength(1);
      for (let i = 0; i < n; i++) {
        expect(c.quorumOf(i)).toContain(i);
        expect(c.reportersOf(i)).toHaveLength(q + 1);
      }
    });
  }

  it('rejects a q that is not a prime power, naming the nearest orders', () => {
    expect(() => projectivePlane(6)).toThrow(ConfigurationError);
    expect(() => projectivePlane(6)).toThrow(/nearest: 5 or 7, n = 31 or 57/);
    expect(() => projectivePlane(1)).toThrow(/not a prime power/);
    expect(() => projectivePlane(256)).toThrow(/2\.\.255/);
    expect(() => projectivePlane(Number.NaN)).toThrow(ConfigurationError);
  });
});

describe('tree(n) — Agrawal & El Abbadi', () => {
  it('n = 2^h − 1: Q_i is a root-to-leaf path through i, |Q| = h', () => {
    for (let h = 1; h <= 6; h++) {
      const n = 2 ** h - 1;
      const c = tree(n);
      expectWellFormed(c);
      for (let i = 0; i < n; i++) {
        const q = c.quorumOf(i);
        expect(q).toHaveLength(h);
        expect(q).toContain(0);
        expect(q).toContain(i);
        // a path: every non-root member's parent is a member
        for (const v of q) if (v > 0) expect(q).toContain((v - 1) >> 1);
      }
    }
  });

  it('rejects other n with the nearest complete-tree sizes', () => {
    expect(() => tree(10)).toThrow(/nearest: 7 or 15/);
    expect(() => tree(0)).toThrow(ConfigurationError);
  });
});

describe('wall(widths) — Peleg & Wool crumbling walls', () => {
  it('a quorum is a full row plus one member of every row below; |Q| = n_i + rows below', () => {
    const widths = [1, 2, 3, 4, 2];
    const c = wall(widths);
    expectWellFormed(c);
    expect(c.n).toBe(12);
    const rowOf = (p: number) => {
      let acc = 0;
      for (let i = 0; i < widths.length; i++) {
        acc += widths[i]!;
        if (p < acc) return i;
      }
      return -1;
    };
    for (let p = 0; p < c.n; p++) {
      const q = c.quorumOf(p);
      const i = rowOf(p);
      expect(q).toHaveLength(widths[i]! + widths.length - 1 - i);
      for (let j = 0; j < widths.length; j++) {
        const inRow = q.filter((x) => rowOf(x) === j).length;
        expect(inRow).toBe(j < i ? 0 : j === i ? widths[i] : 1);
      }
    }
  });

  it('triangle and wheel are crumbling walls', () => {
    for (let d = 1; d <= 8; d++) {
      const t = triangle(d);
      expect(t.n).toBe((d * (d + 1)) / 2);
      expectWellFormed(t);
    }
    const w = wheel(6);
    expectWellFormed(w);
    expect(w.quorumOf(0)).toEqual([0, 1]);
    expect(w.quorumOf(3)).toEqual([1, 2, 3, 4, 5]);
  });

  it('rejects empty walls and one-process rows below the top', () => {
    expect(() => wall([])).toThrow(ConfigurationError);
    expect(() => wall([2, 1])).toThrow(/row 1 has width 1/);
    expect(() => wheel(2)).toThrow(/≥ 3/);
    expect(() => triangle(0)).toThrow(ConfigurationError);
  });
});

describe('Coterie object', () => {
  it('bounds-checks process ids and is immutable', () => {
    const c = grid(9);
    expect(() => c.quorumOf(9)).toThrow(ConfigurationError);
    expect(() => c.quorumOf(-1)).toThrow(/0\.\.8/);
    expect(() => c.reportersOf(1.5)).toThrow(ConfigurationError);
    expect(() => c.quorumIndexOf(100)).toThrow(ConfigurationError);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.quorums)).toBe(true);
    expect(() => {
      (c.quorums as number[][])[0]!.push(3);
    }).toThrow(TypeError);
    expect(String(c)).toBe('Coterie(grid 3×3: n = 9, 9 quorums)');
  });
});
