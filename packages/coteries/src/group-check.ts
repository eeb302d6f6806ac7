/**
 * Validation of group quorum systems — Joung, "Quorum-based algorithms for group mutual
 * exclusion", IEEE TPDS 14(5), 2003, Sec. 3, Def. 1: quorums of different cartels intersect and
 * every cartel is minimal (no quorum contains another of its cartel).
 */
import type { ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { intersects, nextClearBit, wordsFor } from './bitset.js';
import { findDisjointPair, findNestedPair } from './check-coterie.js';
import { dedupe } from './coterie.js';
import { formatSet } from './format.js';
import { describeStructural, normalizeQuorums, type Prepared, prepare } from './prepared.js';

/** A quorum of a group quorum system: cartel `g`, index `j` in it (the paper's `Q_{g,j}`). */
export interface CartelQuorumRef {
  /** The cartel g (the group), 0 … m−1. */
  readonly cartel: number;
  /** The index j of the quorum in its cartel. */
  readonly index: number;
}

/** Why a list of cartels is not a group quorum system. */
export type GroupViolation =
  | {
      /** A structural defect (bad n or m, an empty cartel or quorum, a member out of range, …). */
      readonly kind: 'structure';
      /** The cartel it is in, when it is in one. */
      readonly cartel?: number;
      /** The defect in words. */
      readonly detail: string;
    }
  | {
      /** Two quorums of different cartels do not intersect (the intersection property fails). */
      readonly kind: 'not-intersecting';
      /** One of them. */
      readonly a: CartelQuorumRef;
      /** The other. */
      readonly b: CartelQuorumRef;
    }
  | {
      /** A quorum of a cartel contains another of the same cartel (the minimality property fails). */
      readonly kind: 'not-minimal';
      /** The contained quorum. */
      readonly subset: CartelQuorumRef;
      /** The quorum that contains it. */
      readonly superset: CartelQuorumRef;
    };

/** The outcome of {@link checkGroupQuorumSystem}. */
export type GroupCheck =
  | {
      /** The cartels form a group quorum system. */
      readonly ok: true;
      /** The verdict in words. */
      readonly message: string;
    }
  | {
      /** The cartels do not form a group quorum system. */
      readonly ok: false;
      /** The verdict in words, naming the defect. */
      readonly message: string;
      /** The first defect found. */
      readonly violation: GroupViolation;
    };

const label = (cartels: readonly (readonly (readonly ProcessId[])[])[], r: CartelQuorumRef) =>
  `Q_{${r.cartel},${r.index}} = ${formatSet(cartels[r.cartel]![r.index]!)}`;

function sameCartel(a: readonly (readonly ProcessId[])[], b: readonly (readonly ProcessId[])[]): boolean {
  return a === b || (a.length === b.length && a.every((q, j) => q === b[j]));
}

/** First pair (Q ∈ A, R ∈ B) with Q ∩ R = ∅, by index in A then B. */
function crossDisjoint(pa: Prepared, pb: Prepared, n: number): [number, number] | undefined {
  const ma = pa.quorums.length;
  const mb = pb.quorums.length;
  if (pa.minSize + pb.minSize > n) return undefined;
  if (mb > 64 && pb.totalSize * 16 <= n * mb) {
    const holders = pb.holders();
    const reach = new Uint32Array(wordsFor(mb));
    for (let a = 0; a < ma; a++) {
      if (pa.sizes[a]! + pb.minSize > n) continue;
      reach.fill(0);
      for (const x of pa.quorums[a]!) {
        const h = holders[x]!;
        for (let w = 0; w < reach.length; w++) reach[w]! |= h[w]!;
      }
      const b = nextClearBit(reach, 0, mb);
      if (b >= 0) return [a, b];
    }
    return undefined;
  }
  for (let a = 0; a < ma; a++) {
    for (let b = 0; b < mb; b++) {
      if (pa.sizes[a]! + pb.sizes[b]! > n) continue;
      if (!intersects(pa.bits[a]!, pb.bits[b]!)) return [a, b];
    }
  }
  return undefined;
}

/** Normalized cartels or a structural violation. */
export function normalizeCartels(
  n: unknown,
  cartels: unknown,
):
  | { ok: true; cartels: (readonly ProcessId[])[][] }
  | { ok: false; message: string; violation: GroupViolation } {
  const fail = (detail: string, cartel?: number) => ({
    ok: false as const,
    message: detail,
    violation: { kind: 'structure' as const, ...(cartel === undefined ? {} : { cartel }), detail },
  });
  if (!isValidN(n)) return fail(`n must be an integer ≥ 1 (processes are 0..n-1), got ${String(n)}`);
  if (!Array.isArray(cartels) || cartels.length < 1) {
    return fail('a group quorum system needs at least one cartel (one list of quorums per group)');
  }
  const out: (readonly ProcessId[])[][] = [];
  for (let g = 0; g < cartels.length; g++) {
    const c: unknown = cartels[g];
    if (!Array.isArray(c) || !c.every((q) => Array.isArray(q)))
      return fail(`cartel ${g} must be a list of quorums (arrays of process ids)`, g);
    const norm = normalizeQuorums(n, c as unknown[][]);
    if (!norm.ok) {
      const text = describeStructural(norm.violation, n).replace(/quorum #(\d+)/, `Q_{${g},$1}`);
      return fail(`cartel ${g}: ${text}`, g);
    }
    // repeated quorums count once
    out.push(dedupe(norm.quorums).quorums);
  }
  return { ok: true, cartels: out };
}

export function checkNormalized(
  n: number,
  cartels: readonly (readonly (readonly ProcessId[])[])[],
): GroupCheck {
  const prepared = cartels.map((c) => prepare(n, c));
  for (let g = 0; g < cartels.length; g++) {
    for (let h = g + 1; h < cartels.length; h++) {
      let pair: [number, number] | undefined;
      if (sameCartel(cartels[g]!, cartels[h]!)) {
        // T_m(C): cross-cartel pairs are the pairs of C (a quorum always meets itself).
        const d = findDisjointPair(prepared[g]!);
        pair = d;
      } else pair = crossDisjoint(prepared[g]!, prepared[h]!, n);
      if (pair !== undefined) {
        const a = { cartel: g, index: pair[0] };
        const b = { cartel: h, index: pair[1] };
        return {
          ok: false,
          message: `${label(cartels, a)} and ${label(cartels, b)} do not intersect; quorums of different cartels must share a process (intersection, group-mutex paper Def. 1)`,
          violation: { kind: 'not-intersecting', a, b },
        };
      }
    }
  }
  for (let g = 0; g < cartels.length; g++) {
    const nested = findNestedPair(prepared[g]!);
    if (nested !== undefined) {
      const subset = { cartel: g, index: nested[0] };
      const superset = { cartel: g, index: nested[1] };
      return {
        ok: false,
        message: `${label(cartels, subset)} is a proper subset of ${label(cartels, superset)}; no quorum may contain another quorum of its cartel (minimality, group-mutex paper Def. 1)`,
        violation: { kind: 'not-minimal', subset, superset },
      };
    }
  }
  const sizes = cartels.map((c) => c.length).join(', ');
  return {
    ok: true,
    message: `valid ${cartels.length}-group quorum system over ${n} processes (cartel sizes ${sizes}): quorums of different cartels intersect, every cartel is minimal`,
  };
}

/**
 * Checks Def. 1 of the group-mutex paper: every quorum a non-empty set of processes 0..n-1, every
 * two quorums of *different* cartels intersect, and no quorum contains another of its own cartel.
 * Repeated quorums within a cartel count once. Bitsets; identical cartels (as in T_m(C)) are
 * checked once as a coterie.
 *
 * @param g a {@link GroupQuorumSystem} or `{ n, cartels }`.
 * @returns `{ ok, message }`, with the first offending quorum or pair named on failure.
 */
export function checkGroupQuorumSystem(g: {
  readonly n: number;
  readonly cartels: readonly (readonly (readonly ProcessId[])[])[];
}): GroupCheck {
  const norm = normalizeCartels(g.n, g.cartels);
  if (!norm.ok) return { ok: false, message: norm.message, violation: norm.violation };
  return checkNormalized(g.n, norm.cartels);
}
