/**
 * The tree quorum protocol of Agrawal & El Abbadi (ACM TOCS 9(1), 1991) as the literature defines
 * it: on a complete binary tree of height h (n = 2^h − 1, heap order), a quorum of the subtree
 * rooted at v is
 *
 * - `{v}` for a leaf;
 * - `{v} ∪ Q` for a quorum Q of either child's subtree (the failure-free case: root-to-leaf paths),
 * - or `Q_l ∪ Q_r`, one quorum of each child's subtree (v has failed and is substituted by
 *   paths from BOTH its children).
 *
 * {@link tree} assigns each process one root-to-leaf path; this is the whole family. Closed forms
 * (recursions on the height) and enumeration. Internal to the package; the public face is
 * `familyMetrics` / `familyQuorums` in `family.ts`.
 */
import type { ProcessId } from '@critsec/core';
import type { ClosedFormFigures } from './family-majority.js';

/** Closed-form figures of the tree quorum family of height h ≥ 1. */
export function treeFigures(h: number, crashProbability: number): ClosedFormFigures {
  const up = 1 - crashProbability;
  let count = 1; // N(1) = 1;  N(h) = 2·N(h−1) + N(h−1)²
  let avail = up; // A(1) = up;  A(h) = up·(1 − (1 − A)²) + (1 − up)·A²
  for (let t = 2; t <= h; t++) {
    count = 2 * count + count * count;
    avail = up * (1 - (1 - avail) ** 2) + (1 - up) * avail * avail;
  }
  return {
    quorumCount: count,
    minSize: h, // a root-to-leaf path
    maxSize: 2 ** (h - 1), // every leaf (all inner nodes substituted)
    // T(1) = 1, T(h) = min(1 + T(h−1), 2·T(h−1)) = h: crash the root and one child subtree's
    // transversal (with the root up, both subtrees must be hit)
    faultTolerance: h,
    // L(1) = 1, L(h) = min_a max(a, (1 − a/2)·L(h−1)) = 2/(h+1): pick the root with probability
    // a = 2L/(2+L), a random child's subtree beside it, else both subtrees. Matched by the fractional
    // transversal τ*(h) = 1/2 (root) + 2·τ*(h−1)/2 = (h+1)/2, so L = 1/τ* (Naor–Wool) is optimal.
    load: 2 / (h + 1),
    availability: avail,
  };
}

/** Every quorum of the tree family of height h (n = 2^h − 1, heap order), each sorted ascending. */
export function treeQuorums(n: number): ProcessId[][] {
  const of = (v: number): ProcessId[][] => {
    const l = 2 * v + 1;
    if (l >= n) return [[v]];
    const L = of(l);
    const R = of(l + 1);
    const out: ProcessId[][] = [];
    for (const q of L) out.push([v, ...q]);
    for (const q of R) out.push([v, ...q]);
    for (const a of L) for (const b of R) out.push([...a, ...b]);
    return out;
  };
  return of(0).map((q) => q.sort((a, b) => a - b));
}
