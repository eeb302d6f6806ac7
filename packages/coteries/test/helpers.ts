/** Brute-force oracles on plain arrays, independent of the library's bitset code. */
import type { ProcessId } from '@critsec/core';

export type Q = readonly ProcessId[];

export const meet = (a: Q, b: Q): ProcessId[] => a.filter((x) => b.includes(x));
export const subset = (a: Q, b: Q): boolean => a.every((x) => b.includes(x));
const sameSet = (a: Q, b: Q): boolean => a.length === b.length && subset(a, b);

export function distinct(qs: readonly Q[]): Q[] {
  const out: Q[] = [];
  for (const q of qs) if (!out.some((o) => sameSet(o, q))) out.push(q);
  return out;
}

/** First failing property of Def. 3, in the order nonempty → intersection → minimality. */
export function oracleCoterie(
  n: number,
  qs: readonly Q[],
): 'ok' | 'structure' | 'not-intersecting' | 'not-minimal' {
  if (qs.length === 0) return 'structure';
  for (const q of qs) {
    if (
      q.length === 0 ||
      q.some((x) => !Number.isInteger(x) || x < 0 || x >= n) ||
      new Set(q).size !== q.length
    ) {
      return 'structure';
    }
  }
  const d = distinct(qs);
  for (let a = 0; a < d.length; a++)
    for (let b = a + 1; b < d.length; b++) if (meet(d[a]!, d[b]!).length === 0) return 'not-intersecting';
  for (let a = 0; a < d.length; a++) {
    for (let b = 0; b < d.length; b++) if (a !== b && subset(d[a]!, d[b]!)) return 'not-minimal';
  }
  return 'ok';
}

/** All subsets of 0..n-1 as arrays (n ≤ 16). */
function* subsets(n: number): Generator<ProcessId[]> {
  for (let mask = 0; mask < 1 << n; mask++) {
    const s: ProcessId[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) s.push(i);
    yield s;
  }
}

/** Minimum transversal size by enumeration. */
export function bruteFaultTolerance(n: number, qs: readonly Q[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const s of subsets(n)) if (s.length < best && qs.every((q) => meet(q, s).length > 0)) best = s.length;
  return best;
}

/** Availability by enumeration of alive sets. */
export function bruteAvailability(n: number, qs: readonly Q[], p: number): number {
  let a = 0;
  for (const alive of subsets(n)) {
    if (qs.some((q) => subset(q, alive))) a += (1 - p) ** alive.length * p ** (n - alive.length);
  }
  return a;
}

/** Non-dominated by the Garcia-Molina–Barbara criterion, by enumeration. */
export function bruteNonDominated(n: number, qs: readonly Q[]): boolean {
  for (const h of subsets(n)) {
    if (qs.every((q) => meet(q, h).length > 0) && !qs.some((q) => subset(q, h))) return false;
  }
  return true;
}

/** Maximum number of pairwise disjoint sets, by enumeration over subsets of the list. */
export function bruteDegree(qs: readonly Q[]): number {
  let best = 0;
  for (const pick of subsets(qs.length)) {
    const chosen = pick.map((j) => qs[j]!);
    let ok = true;
    for (let a = 0; a < chosen.length && ok; a++)
      for (let b = a + 1; b < chosen.length && ok; b++) ok = meet(chosen[a]!, chosen[b]!).length === 0;
    if (ok) best = Math.max(best, chosen.length);
  }
  return best;
}

/** Every multiset of size r over 0..m-1 (as sorted index lists). */
export function* multisets(m: number, r: number, from = 0): Generator<number[]> {
  if (r === 0) {
    yield [];
    return;
  }
  for (let j = from; j < m; j++) for (const rest of multisets(m, r - 1, j)) yield [j, ...rest];
}
