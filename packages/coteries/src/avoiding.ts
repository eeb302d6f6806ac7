/**
 * Quorum reselection (issue 28 §4): when a member of `Q_i` is suspected of having failed, the
 * requester `P_i` may ask another quorum of the coterie's family instead — any two quorums of one
 * family intersect, so mutual exclusion never depends on the suspicion being right. The family
 * is the literature's where the construction carries one (`Coterie.family`: every majority; the
 * Agrawal–El Abbadi tree protocol with substitution), else the coterie's own `quorums` (for
 * `grid(s²)`: every row ∪ column; for a custom coterie or an (h,k)-arbiter's `quorumSet(h)`: the
 * quorums it lists).
 */
import type { ProcessId } from '@critsec/core';
import type { Coterie } from './coterie.js';

/**
 * A quorum for `P_i` with no member in `suspected`, deterministic in its arguments.
 *
 * - `Q_i` itself (the same frozen array as `c.quorumOf(i)`) whenever it avoids `suspected` — the
 *   per-process default of the papers stays the quorum used while nobody is suspected.
 * - `majority(n)` (`family.kind === 'majority'`): a majority of the unsuspected processes —
 *   n odd: (n+1)/2 of them; n = 2h even: the global-CS paper's C₁ ∪ C₂ rule (`P_0` and h − 1
 *   others when `P_0` is unsuspected, else h + 1 processes without `P_0`). Members are taken from
 *   `Q_i` first, then cyclically from `i`.
 * - `tree(n)` (`family.kind === 'tree'`): an Agrawal–El Abbadi tree quorum: an unsuspected node
 *   and a quorum of one child's subtree (the child on `Q_i`'s path first), a suspected node
 *   substituted by quorums of both its children's subtrees; a suspected leaf has none.
 * - any other coterie (grid, projective plane, walls, custom, an (h,k)-arbiter's `quorumSet(h)`):
 *   the first of `c.quorums` avoiding `suspected`, scanning cyclically from `Q_i`'s index.
 *
 * Guarantees (tested by property): every quorum returned, for any `i` and any `suspected`, is a
 * quorum of one family whose quorums pairwise intersect — so two requesters that reselect under
 * different (even wrong) suspicions still share an arbiter; it never contains a member of
 * `suspected`; and it is `undefined` only when no quorum of the family avoids `suspected`.
 *
 * @param c the coterie (`Coterie.family` selects the family; absent ⇒ `c.quorums`).
 * @param i the requesting process, `0..n−1`.
 * @param suspected processes to avoid; ids outside `0..n−1` are ignored.
 * @returns a quorum sorted ascending and frozen, or `undefined` when none avoids `suspected`.
 * @throws ConfigurationError if `i` is not a process id of `c`.
 */
export function quorumAvoiding(
  c: Coterie,
  i: ProcessId,
  suspected: ReadonlySet<ProcessId>,
): readonly ProcessId[] | undefined {
  const own = c.quorumOf(i);
  if (suspected.size === 0 || !own.some((p) => suspected.has(p))) return own;
  const family = c.family;
  let q: ProcessId[] | undefined;
  if (family?.kind === 'majority' && family.n === c.n) q = majorityAvoiding(c.n, own, i, suspected);
  else if (family?.kind === 'tree' && family.n === c.n) q = treeAvoiding(c.n, own, suspected);
  else return listedAvoiding(c, i, suspected);
  return q === undefined ? undefined : Object.freeze(q.sort((a, b) => a - b));
}

/** Unsuspected processes, `Q_i`'s members first, then cyclically from `i`. */
function candidates(
  n: number,
  own: readonly ProcessId[],
  i: ProcessId,
  suspected: ReadonlySet<ProcessId>,
): ProcessId[] {
  const out: ProcessId[] = [];
  const taken = new Uint8Array(n);
  for (const p of own) {
    if (!suspected.has(p)) {
      out.push(p);
      taken[p] = 1;
    }
  }
  for (let t = 0; t < n; t++) {
    const p = (i + t) % n;
    if (taken[p] === 0 && !suspected.has(p)) out.push(p);
  }
  return out;
}

/** A majority of the family (C₁ ∪ C₂ for n even) avoiding `suspected`, or undefined. */
function majorityAvoiding(
  n: number,
  own: readonly ProcessId[],
  i: ProcessId,
  suspected: ReadonlySet<ProcessId>,
): ProcessId[] | undefined {
  const live = candidates(n, own, i, suspected);
  if (n % 2 === 1) return live.length >= (n + 1) / 2 ? live.slice(0, (n + 1) / 2) : undefined;
  const h = n / 2;
  const others = live.filter((p) => p !== 0);
  if (!suspected.has(0)) return others.length >= h - 1 ? [0, ...others.slice(0, h - 1)] : undefined;
  // n = 2 has no C₂ quorum (it would need two processes besides P_0)
  return n > 2 && others.length >= h + 1 ? others.slice(0, h + 1) : undefined;
}

/** An Agrawal–El Abbadi tree quorum (heap order) avoiding `suspected`, or undefined. */
function treeAvoiding(
  n: number,
  own: readonly ProcessId[],
  suspected: ReadonlySet<ProcessId>,
): ProcessId[] | undefined {
  const onPath = new Set(own);
  const of = (v: number): ProcessId[] | undefined => {
    const l = 2 * v + 1;
    if (l >= n) return suspected.has(v) ? undefined : [v];
    if (suspected.has(v)) {
      const a = of(l);
      const b = a === undefined ? undefined : of(l + 1);
      return a === undefined || b === undefined ? undefined : [...a, ...b];
    }
    const [first, second] = onPath.has(l + 1) ? [l + 1, l] : [l, l + 1];
    const q = of(first) ?? of(second);
    return q === undefined ? undefined : [v, ...q];
  };
  return of(0);
}

/** The first of `c.quorums` avoiding `suspected`, cyclically from `Q_i`'s index. */
function listedAvoiding(
  c: Coterie,
  i: ProcessId,
  suspected: ReadonlySet<ProcessId>,
): readonly ProcessId[] | undefined {
  const m = c.quorums.length;
  const start = c.quorumIndexOf(i);
  for (let t = 1; t < m; t++) {
    const q = c.quorums[(start + t) % m]!;
    if (!q.some((p) => suspected.has(p))) return q;
  }
  return undefined;
}
