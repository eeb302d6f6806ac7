/**
 * The surficial m-group quorum system — Joung, "Quorum-based algorithms for group mutual
 * exclusion", IEEE TPDS 14(5), 2003, Sec. 3, Fig. 3 (the staircase construction 𝓕(P, m)) and
 * Theorem 1; plus fits for sizes the construction does not reach exactly.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { dedupe, minimizeAssignment } from './coterie.js';
import { buildGroup, type GroupQuorumSystem } from './group.js';
import { checkConstructionSize } from './size-limit.js';

/** Sizes n = k²·m(m−1)/2 for which the surficial system of m groups exists exactly. */
export function surficialSize(m: number, k: number): number {
  return (k * k * m * (m - 1)) / 2;
}

/** How {@link surficial} fits an n that is not k²·m(m−1)/2. */
export type SurficialFit = 'exact' | 'subset' | 'wrap';

/**
 * The surficial m-group quorum system 𝓕(P, m) — group-mutex paper, Fig. 3 (staircase
 * construction), Theorem 1.
 *
 * With k = √(2n/(m(m−1))): P is split into m(m−1)/2 squares P^{i,j} (1 ≤ i ≤ j ≤ m−1) of k×k
 * nodes p^{i,j}_{r,s}, numbered square by square (i, then j), row-major inside a square. Cartel i
 * (1-based) has k quorums
 * `Q_{i,j} = { p^{s,i−1}_{r,j} | 1 ≤ s ≤ i−1, 1 ≤ r ≤ k } ∪ { p^{i,s}_{j,r} | i ≤ s ≤ m−1, 1 ≤ r ≤ k }`
 * (column j through the squares above the stair, row j through the squares of stair i).
 * Facts (Theorem 1): every cartel has k quorums, |Q| = (m−1)·k = √(2n(m−1)/m), every process is
 * in exactly two quorums, quorums of different cartels meet in exactly one process, quorums of a
 * cartel are pairwise disjoint (uniform degree k). `P_i` requesting group g uses the quorum of
 * cartel g that contains it if any, else quorum `i mod k`.
 *
 * For other n (`fit`):
 * - `'exact'` (default): throws, naming the nearest sizes that fit;
 * - `'subset'`: the largest k with k²·m(m−1)/2 ≤ n; processes beyond the squares are in no
 *   quorum (they still request, using quorum `i mod k`);
 * - `'wrap'`: the smallest k with k²·m(m−1)/2 ≥ n; node t is process t mod n (the paper notes
 *   other node-to-process mappings may be used); cross-cartel intersection is preserved by the
 *   mapping, quorums that come to contain another of their cartel are replaced by it, and the
 *   result is validated.
 *
 * @param n number of processes; @param m number of groups, ≥ 2.
 * @throws ConfigurationError if m < 2, n is not a positive integer, n has no fitting k under
 *   `'exact'` (message names the nearest fitting sizes), n < m(m−1)/2 under `'subset'`, or beyond
 *   the size one construction may hold (m·k quorums of (m − 1)·k processes, each of n bits:
 *   `MAX_QUORUM_MEMBERSHIPS` or `MAX_QUORUM_SET_BITS`).
 */
export function surficial(
  n: number,
  m: number,
  options: { readonly fit?: SurficialFit } = {},
): GroupQuorumSystem {
  if (!Number.isSafeInteger(m) || m < 2) {
    throw new ConfigurationError(
      `surficial(n, m): m must be an integer ≥ 2 (the construction needs two groups or more), got ${String(m)}`,
    );
  }
  if (!isValidN(n))
    throw new ConfigurationError(`surficial(n, m): n must be an integer ≥ 1, got ${String(n)}`);
  const fit = options.fit ?? 'exact';
  const squares = (m * (m - 1)) / 2;
  let kLow = Math.floor(Math.sqrt(n / squares));
  while (surficialSize(m, kLow + 1) <= n) kLow++;
  while (kLow > 0 && surficialSize(m, kLow) > n) kLow--;
  const exact = kLow >= 1 && surficialSize(m, kLow) === n;
  let k: number;
  if (exact) k = kLow;
  else if (fit === 'subset') {
    if (kLow < 1) {
      throw new ConfigurationError(
        `surficial(n, m): n = ${n} is smaller than the smallest surficial system for m = ${m} (n = ${surficialSize(m, 1)}, k = 1)`,
      );
    }
    k = kLow;
  } else if (fit === 'wrap') k = kLow + 1;
  else {
    const near = [kLow, kLow + 1].filter((x) => x >= 1).map((x) => `n = ${surficialSize(m, x)} (k = ${x})`);
    throw new ConfigurationError(
      `surficial(n, m): n = ${n} is not k²·m(m−1)/2 for an integer k with m = ${m}; nearest sizes that fit: ${near.join(' or ')}; ` +
        `or pass { fit: 'subset' } (leave extra processes out of the quorums) or { fit: 'wrap' } (map nodes to processes mod n)`,
    );
  }
  checkConstructionSize('surficial(n, m)', n, { memberships: m * k * (m - 1) * k, quorums: m * k });
  // node id of p^{i,j}_{r,s}, all 1-based
  const squareBase = new Map<string, number>();
  let next = 0;
  for (let i = 1; i <= m - 1; i++) {
    for (let j = i; j <= m - 1; j++) {
      squareBase.set(`${i},${j}`, next);
      next += k * k;
    }
  }
  const node = (i: number, j: number, r: number, s: number) =>
    squareBase.get(`${i},${j}`)! + (r - 1) * k + (s - 1);
  const nodes = next;
  const toProcess = (t: number) => (fit === 'wrap' && !exact ? t % n : t);
  const cartels: ProcessId[][][] = [];
  for (let i = 1; i <= m; i++) {
    const cartel: ProcessId[][] = [];
    for (let j = 1; j <= k; j++) {
      const q = new Set<ProcessId>();
      for (let s = 1; s <= i - 1; s++) for (let r = 1; r <= k; r++) q.add(toProcess(node(s, i - 1, r, j)));
      for (let s = i; s <= m - 1; s++) for (let r = 1; r <= k; r++) q.add(toProcess(node(i, s, j, r)));
      cartel.push([...q].sort((a, b) => a - b));
    }
    cartels.push(cartel);
  }
  const how = exact
    ? ''
    : fit === 'subset'
      ? ` (squares cover ${nodes} of ${n} processes)`
      : ` (${nodes} nodes mapped mod ${n})`;
  if (fit === 'wrap' && !exact) {
    // Per cartel: quorums that contain another quorum of the cartel are dropped.
    for (let g = 0; g < cartels.length; g++) {
      const min = minimizeAssignment(n, cartels[g]!);
      cartels[g] = dedupe(min).quorums as ProcessId[][];
    }
  }
  return buildGroup(n, 'surficial', `surficial m=${m}, k=${k}${how}`, cartels);
}
