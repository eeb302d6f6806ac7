/**
 * Dominance of coteries (Garcia-Molina & Barbara, "How to assign votes in a distributed system",
 * JACM 32(4), 1985): `dominates`, and the search for a dominating witness.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { isSubset, wordsFor } from './bitset.js';
import { narrowestUnhit } from './fault-tolerance.js';
import { prepared } from './metrics.js';
import type { Prepared, QuorumSet } from './prepared.js';

/**
 * Garcia-Molina & Barbara dominance: `c` dominates `d` iff they differ and every quorum of `d`
 * contains a quorum of `c` (so `c` survives every failure `d` survives). Both over the same n.
 * @throws ConfigurationError if the two systems have different n or a quorum is malformed.
 */
export function dominates(c: QuorumSet, d: QuorumSet): boolean {
  if (c.n !== d.n)
    throw new ConfigurationError(
      `dominates: both systems must be over the same processes, got n = ${c.n} and n = ${d.n}`,
    );
  const pc = prepared(c, 'dominates');
  const pd = prepared(d, 'dominates');
  const keys = (p: Prepared) => new Set(p.quorums.map((q) => q.join(',')));
  const kc = keys(pc);
  const kd = keys(pd);
  if (kc.size === kd.size && [...kc].every((k) => kd.has(k))) return false;
  return pd.bits.every((qd) => pc.bits.some((qc) => isSubset(qc, qd)));
}

/** A transversal that contains no quorum, and the coterie that dominates through it. */
export interface DominationWitness {
  /** H: meets every quorum, contains none. */
  readonly transversal: readonly ProcessId[];
  /** `{H} ∪ { Q : H ⊄ Q }`: a coterie that dominates the given one. */
  readonly dominating: readonly (readonly ProcessId[])[];
}

/**
 * Searches for a set H of processes that meets every quorum but contains none — Garcia-Molina &
 * Barbara's criterion: a coterie is dominated iff such an H exists (then `{H} ∪ {Q : H ⊄ Q}`
 * dominates it). Exhaustive depth-first search over minimal transversals (branching on the members
 * of an unhit quorum, pruning any H that contains a quorum), meant for small n.
 *
 * @returns the witness, or `undefined` when the coterie is non-dominated.
 * @throws ConfigurationError if the search exceeds `budget` nodes (default 5,000,000) — the
 *   system is too large for an exhaustive check.
 */
export function dominationWitness(
  c: QuorumSet,
  options: { readonly budget?: number } = {},
): DominationWitness | undefined {
  const p = prepared(c, 'dominationWitness');
  const { n } = p;
  const Q = p.quorums;
  const m = Q.length;
  const holders: number[][] = Array.from({ length: n }, () => []);
  Q.forEach((q, j) => {
    for (const i of q) holders[i]!.push(j);
  });
  const inCount = new Int32Array(m); // members of Q_j in H
  const ex = new Int32Array(m);
  const excluded = new Uint8Array(n);
  let full = 0; // quorums inside H
  let unhit = m;
  const H: number[] = [];
  const budget = options.budget ?? 5_000_000;
  let nodes = 0;
  let found: number[] | undefined;
  const add = (x: number) => {
    H.push(x);
    for (const j of holders[x]!) {
      if (inCount[j]!++ === 0) unhit--;
      if (inCount[j] === p.sizes[j]) full++;
    }
  };
  const remove = (x: number) => {
    H.pop();
    for (const j of holders[x]!) {
      if (inCount[j] === p.sizes[j]) full--;
      if (--inCount[j]! === 0) unhit++;
    }
  };
  const search = (): boolean => {
    if (++nodes > budget) {
      throw new ConfigurationError(
        `dominationWitness / isNonDominated: exhaustive search exceeded ${budget} nodes (n = ${n}, ${m} quorums); the check is meant for small systems — raise options.budget to insist`,
      );
    }
    if (full > 0) return false;
    if (unhit === 0) {
      found = H.slice();
      return true;
    }
    const [arg, argAvail] = narrowestUnhit(p.sizes, inCount, ex);
    if (argAvail === 0) return false;
    const tried: number[] = [];
    let result = false;
    for (const x of Q[arg]!) {
      if (excluded[x] === 1) continue;
      add(x);
      result = search();
      remove(x);
      if (result) break;
      excluded[x] = 1;
      for (const j of holders[x]!) ex[j]!++;
      tried.push(x);
    }
    for (const x of tried) {
      excluded[x] = 0;
      for (const j of holders[x]!) ex[j]!--;
    }
    return result;
  };
  search();
  if (found === undefined) return undefined;
  const h = found.sort((a, b) => a - b);
  const hb = new Uint32Array(wordsFor(n));
  for (const x of h) hb[x >>> 5]! |= 1 << (x & 31);
  return { transversal: h, dominating: [h, ...Q.filter((_, j) => !isSubset(hb, p.bits[j]!))] };
}

/**
 * True iff no coterie dominates `c` (Garcia-Molina & Barbara): every set that meets all quorums
 * contains one. Exhaustive; for small systems (see {@link dominationWitness}).
 * @throws ConfigurationError if the search exceeds its budget.
 */
export function isNonDominated(c: QuorumSet, options: { readonly budget?: number } = {}): boolean {
  return dominationWitness(c, options) === undefined;
}
