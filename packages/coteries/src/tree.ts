/**
 * Tree coterie — Agrawal & El Abbadi, "An efficient and fault-tolerant solution for distributed
 * mutual exclusion", ACM TOCS 9(1), 1991: processes are the nodes of a complete binary tree; in
 * the failure-free case a quorum is a path from the root to a leaf (|Q| = log₂(n+1)).
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { buildCoterie, type Coterie } from './coterie.js';
import { checkConstructionSize } from './size-limit.js';

/**
 * The tree coterie of Agrawal & El Abbadi on a complete binary tree of height h, n = 2^h − 1,
 * nodes in heap order (root `0`, children of `v` are `2v+1`, `2v+2`).
 *
 * `Q_i` is the failure-free tree quorum through `P_i`: the path from the root down to `i`,
 * continued to a leaf (at each level below `i` the child is chosen by the next bit of `i`, which
 * spreads the leaves). |Q| = h = log₂(n + 1). All assigned quorums contain the root, so the
 * metrics of `metrics.ts` on this coterie give load 1 and fault tolerance 1 (n = 15: availability
 * 0.8890 at crash probability 0.1): the protocol's fault tolerance comes from substituting the two
 * subtrees' quorums for a failed node, which a fixed per-process assignment (as Maekawa and MUTIN
 * use) does not do. The protocol's quorum system is `family` = `{ kind: 'tree', n }`:
 * `familyMetrics(c, p)` gives its figures by recursion on the height (n = 15: fault tolerance 4,
 * load 0.4, availability 0.9987 at 0.1), `coterieMetrics(c, p)` both side by side.
 *
 * @param n number of processes, 2^h − 1 for some h ≥ 1 (1, 3, 7, 15, 31, …).
 * @throws ConfigurationError for any other n (the message names the nearest valid sizes), or beyond
 *   the size one construction may hold (n · h memberships, (n + 1)/2 quorums of n bits:
 *   `MAX_QUORUM_MEMBERSHIPS` or `MAX_QUORUM_SET_BITS`; n ≤ 65,535).
 */
export function tree(n: number): Coterie {
  if (!Number.isSafeInteger(n) || n < 1 || ((n + 1) & n) !== 0) {
    let lo = 1;
    while (lo * 2 + 1 <= n) lo = lo * 2 + 1;
    const hi = lo * 2 + 1;
    throw new ConfigurationError(
      `tree(n): n = ${String(n)} is not the size of a complete binary tree; n must be 2^h − 1 (1, 3, 7, 15, 31, …)${
        Number.isFinite(n) && n >= 1 ? `; nearest: ${lo} or ${hi}` : ''
      }`,
    );
  }
  checkConstructionSize('tree(n)', n, { memberships: n * Math.log2(n + 1), quorums: (n + 1) / 2 });
  const assignment: ProcessId[][] = [];
  for (let i = 0; i < n; i++) {
    const path: ProcessId[] = [];
    for (let v = i; v > 0; v = (v - 1) >> 1) path.push(v);
    path.push(0);
    let bits = i;
    for (let v = i; 2 * v + 1 < n; ) {
      v = 2 * v + 1 + (bits & 1);
      bits >>= 1;
      path.push(v);
    }
    assignment.push(path.sort((a, b) => a - b));
  }
  const h = Math.log2(n + 1);
  return buildCoterie(n, 'tree', `tree height ${h}`, assignment, {
    extra: { family: Object.freeze({ kind: 'tree', n }) },
  });
}
