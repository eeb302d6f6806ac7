/**
 * Coterie validation (global-CS paper, Def. 3; h-out-of-k paper, Def. 1): nonemptiness, the
 * intersection property and minimality, on bitsets. The result names the first offending quorum
 * or pair; it is never a bare `false`.
 */
import { CoterieError, type ProcessId } from '@critsec/core';
import { intersects, isSubset, nextClearBit, wordsFor } from './bitset.js';
import {
  describeStructural,
  normalizeQuorums,
  type Prepared,
  prepare,
  type QuorumRef,
  type QuorumSet,
  refOf,
  type StructuralViolation,
} from './prepared.js';

/** Why a quorum list is not a coterie. */
export type CoterieViolation =
  | StructuralViolation
  | {
      /** Two quorums do not intersect (the intersection property fails). */
      readonly kind: 'not-intersecting';
      /** One of them. */
      readonly a: QuorumRef;
      /** The other. */
      readonly b: QuorumRef;
    }
  | {
      /** A quorum contains another (the minimality property fails). */
      readonly kind: 'not-minimal';
      /** The contained quorum. */
      readonly subset: QuorumRef;
      /** The quorum that contains it. */
      readonly superset: QuorumRef;
    };

/** The outcome of {@link checkCoterie}: `ok`, a human-readable `message`, and on failure the violation. */
export type CoterieCheck =
  | {
      /** The quorums form a coterie. */
      readonly ok: true;
      /** The verdict in words. */
      readonly message: string;
      /** Number of (distinct) quorums. */
      readonly quorumCount: number;
    }
  | {
      /** The quorums do not form a coterie. */
      readonly ok: false;
      /** The verdict in words, naming the defect. */
      readonly message: string;
      /** The first defect found. */
      readonly violation: CoterieViolation;
    };

/**
 * The lexicographically first pair `(a, b)`, `a < b`, of disjoint quorums, or `undefined`.
 *
 * Pairs with `|a| + |b| > n` intersect by counting and are skipped. Sparse systems (mean quorum
 * size ≤ n/16, e.g. grids) use an inverted index: for each `a`, the OR of the quorum-bitsets of
 * its members names every quorum meeting `a` — `Σ|Q| · m/32` word operations in total. Dense
 * systems compare pairs of process-bitsets with early exit.
 */
export function findDisjointPair(p: Prepared): [number, number] | undefined {
  const m = p.quorums.length;
  const { n, sizes } = p;
  if (m < 2 || 2 * p.minSize > n) return undefined;
  if (m > 64 && p.totalSize * 16 <= n * m) {
    const holders = p.holders();
    const reach = new Uint32Array(wordsFor(m));
    for (let a = 0; a < m - 1; a++) {
      if (sizes[a]! + p.minSize > n) continue;
      reach.fill(0);
      for (const x of p.quorums[a]!) {
        const h = holders[x]!;
        for (let w = 0; w < reach.length; w++) reach[w]! |= h[w]!;
      }
      for (let b = nextClearBit(reach, a + 1, m); b >= 0; b = nextClearBit(reach, b + 1, m)) {
        if (sizes[a]! + sizes[b]! <= n) return [a, b];
      }
    }
    return undefined;
  }
  for (let a = 0; a < m - 1; a++) {
    const sa = sizes[a]!;
    if (sa + p.minSize > n) continue;
    const ba = p.bits[a]!;
    for (let b = a + 1; b < m; b++) {
      if (sa + sizes[b]! > n) continue;
      if (!intersects(ba, p.bits[b]!)) return [a, b];
    }
  }
  return undefined;
}

/**
 * The lexicographically first pair `(a, b)`, `a < b`, where one quorum is a proper subset of the
 * other, as `[subset, superset]`, or `undefined`. Only pairs of different sizes can fail, so
 * systems with equal quorum sizes pass in O(m).
 */
export function findNestedPair(p: Prepared): [number, number] | undefined {
  const m = p.quorums.length;
  const { sizes } = p;
  if (p.minSize === p.maxSize) return undefined;
  for (let a = 0; a < m - 1; a++) {
    const sa = sizes[a]!;
    for (let b = a + 1; b < m; b++) {
      const sb = sizes[b]!;
      if (sa === sb) continue;
      if (sa < sb) {
        if (isSubset(p.bits[a]!, p.bits[b]!)) return [a, b];
      } else if (isSubset(p.bits[b]!, p.bits[a]!)) return [b, a];
    }
  }
  return undefined;
}

/** Removes repeated quorums (equal as sets), keeping first occurrences; returns kept indices. */
function distinctIndices(quorums: readonly (readonly ProcessId[])[]): number[] {
  const seen = new Map<string, number>();
  const keep: number[] = [];
  for (let j = 0; j < quorums.length; j++) {
    const key = quorums[j]!.join(',');
    if (!seen.has(key)) {
      seen.set(key, j);
      keep.push(j);
    }
  }
  return keep;
}

/**
 * Validates already-normalized, distinct quorums. `owner` names quorums by the process using
 * them when it has a registered assignment.
 */
export function checkPrepared(
  n: number,
  quorums: readonly (readonly ProcessId[])[],
  owner?: object,
  what = 'coterie',
): CoterieCheck {
  const p = prepare(n, quorums);
  const disjoint = findDisjointPair(p);
  if (disjoint !== undefined) {
    const a = refOf(owner, quorums, disjoint[0]);
    const b = refOf(owner, quorums, disjoint[1]);
    return {
      ok: false,
      message: `${a.label} and ${b.label} do not intersect; every two quorums of a ${what} must share a process (intersection property)`,
      violation: { kind: 'not-intersecting', a, b },
    };
  }
  const nested = findNestedPair(p);
  if (nested !== undefined) {
    const subset = refOf(owner, quorums, nested[0]);
    const superset = refOf(owner, quorums, nested[1]);
    return {
      ok: false,
      message: `${subset.label} is a proper subset of ${superset.label}; no quorum of a ${what} may contain another (minimality); use the smaller one in its place`,
      violation: { kind: 'not-minimal', subset, superset },
    };
  }
  return {
    ok: true,
    message: `valid ${what}: ${quorums.length} distinct quorum${quorums.length === 1 ? '' : 's'} over ${n} processes, nonempty, pairwise intersecting, minimal`,
    quorumCount: quorums.length,
  };
}

/**
 * Checks Def. 3 of the global-CS paper (= Def. 1 of the h-out-of-k paper) on a coterie or any
 * `{ n, quorums }`: every quorum is a non-empty set of processes `0..n-1` (nonemptiness), every two
 * quorums intersect (intersection property), and no quorum contains another (minimality).
 * Quorums that are equal as sets count once.
 *
 * Cost: bitsets, O(m) for equal-size systems on minimality, `Σ|Q|·m/32` word operations for the
 * intersection property of sparse systems (a 1,024-process grid validates in a few milliseconds;
 * see `bench/validate.bench.ts`).
 *
 * @returns `{ ok: true, message }` or `{ ok: false, message, violation }` where the message names
 *   the first offending quorum or pair, e.g. `Q_3 = {1, 4} and Q_7 = {2, 5} do not intersect; …`.
 */
export function checkCoterie(c: QuorumSet): CoterieCheck {
  const norm = normalizeQuorums(c.n, c.quorums, c);
  if (!norm.ok)
    return { ok: false, message: describeStructural(norm.violation, c.n), violation: norm.violation };
  const keep = distinctIndices(norm.quorums);
  if (keep.length === norm.quorums.length) return checkPrepared(c.n, norm.quorums, c);
  const result = checkPrepared(
    c.n,
    keep.map((j) => norm.quorums[j]!),
    undefined,
  );
  if (result.ok) return result;
  // Re-label with indices of the caller's list.
  const relabel = (r: QuorumRef): QuorumRef => refOf(c, norm.quorums, keep[r.index]!);
  const v = result.violation;
  if (v.kind === 'not-intersecting') {
    const a = relabel(v.a);
    const b = relabel(v.b);
    return {
      ok: false,
      message: result.message.replace(v.a.label, a.label).replace(v.b.label, b.label),
      violation: { kind: v.kind, a, b },
    };
  }
  if (v.kind === 'not-minimal') {
    const subset = relabel(v.subset);
    const superset = relabel(v.superset);
    return {
      ok: false,
      message: result.message.replace(v.subset.label, subset.label).replace(v.superset.label, superset.label),
      violation: { kind: v.kind, subset, superset },
    };
  }
  return result;
}

/** {@link checkCoterie} on `{ n, quorums }`. */
export function checkQuorums(n: number, quorums: readonly (readonly ProcessId[])[]): CoterieCheck {
  return checkCoterie({ n, quorums });
}

/**
 * Throws unless `c` is a coterie.
 * @throws CoterieError with {@link checkCoterie}'s message.
 */
export function assertCoterie(c: QuorumSet): void {
  const r = checkCoterie(c);
  if (!r.ok) throw new CoterieError(r.message);
}
