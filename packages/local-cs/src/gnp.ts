/*
 * The edges of an Erdős–Rényi G(n, p) graph in O(n + m) time: instead of a draw per pair (n(n−1)/2
 * of them — 5·10⁹ for n = 10⁵, minutes even when p gives a few hundred thousand edges), one draw
 * per edge gives the geometric number of pairs skipped before it (Batagelj & Brandes, "Efficient
 * generation of large random networks", Phys. Rev. E 71, 036113, 2005, algorithm G(n, p)).
 */
import type { ProcessId } from '@critsec/core';

/**
 * Every pair `{w, v}` (w < v) is an edge independently with probability `p`, drawn from `next`
 * (uniform in [0, 1)) — one draw per edge plus one. Pairs are visited in the order
 * (0,1), (0,2), (1,2), (0,3), …; the skip to the next edge is ⌊log(1 − r) / log(1 − p)⌋ pairs.
 * @param p a probability, 0 ≤ p ≤ 1 (checked by the caller).
 */
export function gnpEdges(n: number, p: number, next: () => number): [ProcessId, ProcessId][] {
  const edges: [ProcessId, ProcessId][] = [];
  if (p <= 0) return edges;
  const logq = Math.log1p(-p); // −Infinity for p = 1: every skip is 0
  let v = 1;
  let w = -1;
  while (v < n) {
    w += 1 + Math.floor(Math.log1p(-next()) / logq);
    while (w >= v && v < n) {
      w -= v;
      v++;
    }
    if (v < n) edges.push([w, v]);
  }
  return edges;
}
