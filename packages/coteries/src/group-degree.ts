/**
 * The degree of a cartel and of a group quorum system — Joung, "Quorum-based algorithms for
 * group mutual exclusion", IEEE TPDS 14(5), 2003, Sec. 3, Def. 2: the maximum number of pairwise
 * disjoint quora (how many disjoint sets of one group can be in the CS at once).
 */
import { CoterieError, type ProcessId } from '@critsec/core';
import { intersects, nextSetBit, popcount, wordsFor } from './bitset.js';
import { findDisjointPair } from './check-coterie.js';
import { dedupe } from './coterie.js';
import { describeStructural, normalizeQuorums, prepare } from './prepared.js';
import type { GroupQuorumSystem } from './group.js';

/** The outcome of {@link degree}. */
export interface DegreeResult {
  /** The largest number of pairwise disjoint quora found. */
  readonly degree: number;
  /** True when proven maximum (search finished within the budget or met the upper bound). */
  readonly exact: boolean;
  /** An upper bound: `min(|C|, ⌊|∪C| / min |Q|⌋)` or the exact degree. */
  readonly upperBound: number;
  /** Indices (into the given list; repeated quorums count once) of `degree` pairwise disjoint quora. */
  readonly quora: readonly number[];
}

/**
 * deg(C) of a cartel (group-mutex paper, Def. 2): the maximum number of pairwise disjoint quora.
 *
 * Method: branch and bound over quora in order of size (a maximum-independent-set search on the
 * "meet" graph with bitsets), bounded by the number of remaining candidates and by how many of the
 * smallest remaining quora still fit in the unused processes. Exact within `budget` search nodes
 * (default 1,000,000); past it the best packing found is returned with `exact: false` and an
 * upper bound `min(|C|, ⌊|∪C| / min |Q|⌋)`.
 *
 * @param cartel the quora of one cartel (any list of non-empty process sets).
 * @param n number of processes (defaults to 1 + the largest id).
 * @throws CoterieError if a quorum is empty or has an id out of range.
 */
export function degree(
  cartel: readonly (readonly ProcessId[])[],
  n?: number,
  options: { readonly budget?: number } = {},
): DegreeResult {
  const nn = n ?? 1 + Math.max(0, ...cartel.map((q) => Math.max(...q)));
  const norm = normalizeQuorums(nn, cartel);
  if (!norm.ok) throw new CoterieError(`degree: ${describeStructural(norm.violation, nn)}`);
  const { quorums, index } = dedupe(norm.quorums);
  // first position in the caller's list of each distinct quorum
  const original = new Int32Array(quorums.length).fill(-1);
  index.forEach((j, t) => {
    if (original[j] === -1) original[j] = t;
  });
  const m = quorums.length;
  const p = prepare(nn, quorums);
  if (findDisjointPair(p) === undefined) {
    // pairwise intersecting (e.g. a cartel of T_m(C)): one quorum at a time
    return { degree: 1, exact: true, upperBound: 1, quora: [0] };
  }
  const order = Array.from({ length: m }, (_, j) => j).sort((a, b) => p.sizes[a]! - p.sizes[b]! || a - b);
  // conflict[a] = bitset over positions in `order` of quora meeting order[a]
  const wm = wordsFor(m);
  const meets: Uint32Array[] = order.map((a) => {
    const row = new Uint32Array(wm);
    order.forEach((b, t) => {
      if (intersects(p.bits[a]!, p.bits[b]!)) row[t >>> 5]! |= 1 << (t & 31);
    });
    return row;
  });
  const support = new Uint32Array(p.bits[0]!.length);
  for (const b of p.bits) for (let w = 0; w < support.length; w++) support[w]! |= b[w]!;
  const supportSize = popcount(support);
  const upper = Math.min(m, Math.floor(supportSize / p.minSize));
  const budget = options.budget ?? 1_000_000;
  let best: number[] = [];
  const chosen: number[] = [];
  let nodes = 0;
  const sizesInOrder = order.map((a) => p.sizes[a]!);
  const search = (cand: Uint32Array, used: number) => {
    if (++nodes > budget || best.length === upper) return;
    if (chosen.length > best.length) best = chosen.slice();
    // bound: smallest candidates that still fit in the unused processes
    let fit = 0;
    let room = supportSize - used;
    let count = 0;
    for (let t = nextSetBit(cand, 0); t >= 0; t = nextSetBit(cand, t + 1)) {
      count++;
      if (sizesInOrder[t]! <= room) {
        room -= sizesInOrder[t]!;
        fit++;
      }
    }
    if (chosen.length + Math.min(count, fit) <= best.length) return;
    for (let t = nextSetBit(cand, 0); t >= 0; t = nextSetBit(cand, t + 1)) {
      // candidates after position t (each packing is enumerated once) that miss quorum t
      const nextCand = new Uint32Array(wm);
      const tw = t >>> 5;
      for (let w = tw; w < wm; w++) nextCand[w] = cand[w]! & ~meets[t]![w]!;
      nextCand[tw]! &= (t & 31) === 31 ? 0 : ~0 << ((t & 31) + 1);
      chosen.push(order[t]!);
      search(nextCand, used + sizesInOrder[t]!);
      chosen.pop();
      if (nodes > budget || best.length === upper) return;
    }
  };
  const all = new Uint32Array(wm);
  for (let t = 0; t < m; t++) all[t >>> 5]! |= 1 << (t & 31);
  search(all, 0);
  const exact = nodes <= budget || best.length === upper;
  return {
    degree: best.length,
    exact,
    upperBound: exact ? best.length : upper,
    quora: best.map((j) => original[j]!).sort((a, b) => a - b),
  };
}

/**
 * deg(C) of a group quorum system (Def. 2): the minimum degree over its cartels, with each
 * cartel's result.
 */
export function groupDegree(
  g: GroupQuorumSystem,
  options: { readonly budget?: number } = {},
): {
  /** deg(C): the minimum degree over the cartels. */
  readonly degree: number;
  /** Whether every cartel's degree is exact (its search finished within the budget). */
  readonly exact: boolean;
  /** Each cartel's result, by cartel. */
  readonly cartels: readonly DegreeResult[];
} {
  const cartels = g.cartels.map((c) => degree(c, g.n, options));
  return {
    degree: Math.min(...cartels.map((c) => c.degree)),
    exact: cartels.every((c) => c.exact),
    cartels,
  };
}
