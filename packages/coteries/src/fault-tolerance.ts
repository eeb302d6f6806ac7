/**
 * Fault tolerance of a quorum system: the fewest crashed processes that hit every quorum.
 * Computed on the quorums given (for a {@link Coterie}: the assigned quorums, which is what
 * Maekawa and MUTIN use); for the literature families of `majority(n)` and `tree(n)` see
 * `family.ts`.
 */
import type { ProcessId } from '@critsec/core';
import { findDisjointPair } from './check-coterie.js';
import { prepared, strategyLoad } from './metrics.js';
import type { QuorumSet } from './prepared.js';

/** The outcome of {@link faultTolerance}. */
export interface FaultToleranceResult {
  /**
   * The size of the smallest set of processes found whose crash hits every quorum (equals the
   * minimum when `exact`). The system survives any `faultTolerance − 1` crashes.
   */
  readonly faultTolerance: number;
  readonly exact: boolean;
  /** A certified lower bound on the minimum. */
  readonly lowerBound: number;
  /** A crash set of size `faultTolerance` that hits every quorum. */
  readonly crashSet: readonly ProcessId[];
}

/**
 * Fault tolerance: the fewest crashed processes that hit every quorum (a minimum transversal).
 *
 * Method: branch and bound — branch on the members of an unhit quorum with the fewest candidates
 * (each branch excludes the members tried before it), pruned by two lower bounds on the processes
 * still needed: ⌈unhit quorums / most unhit quorums one process hits⌉, and a greedy packing of
 * unhit quorums disjoint on the remaining candidates. Starts from the better of a greedy
 * transversal and, for a coterie, the smallest quorum (every quorum hits all others). Exact within
 * `budget` search nodes (default 200,000, fewer for large systems so that the search stays near
 * 2·10⁸ elementary steps); past it the best crash set found is returned with
 * `exact: false` and a lower bound (the root bounds, and ⌈1/L⌉ from the uniform strategy's load
 * L, since L(𝒬) = 1/τ* and τ* ≤ the minimum).
 *
 * @throws ConfigurationError if a quorum is empty or names a process outside 0..n-1.
 */
export function faultTolerance(
  c: QuorumSet,
  options: { readonly budget?: number } = {},
): FaultToleranceResult {
  const p = prepared(c, 'faultTolerance');
  const { n } = p;
  const Q = p.quorums;
  const m = Q.length;
  const holders: number[][] = Array.from({ length: n }, () => []);
  Q.forEach((q, j) => {
    for (const i of q) holders[i]!.push(j);
  });
  const hit = new Int32Array(m);
  const ex = new Int32Array(m);
  const unhitDeg = Int32Array.from(holders, (h) => h.length);
  const inH = new Uint8Array(n);
  const excluded = new Uint8Array(n);
  let unhit = m;
  const H: number[] = [];
  const choose = (x: number) => {
    inH[x] = 1;
    H.push(x);
    for (const j of holders[x]!) {
      if (hit[j]!++ === 0) {
        unhit--;
        for (const y of Q[j]!) unhitDeg[y]!--;
      }
    }
  };
  const unchoose = (x: number) => {
    inH[x] = 0;
    H.pop();
    for (const j of holders[x]!) {
      if (--hit[j]! === 0) {
        unhit++;
        for (const y of Q[j]!) unhitDeg[y]!++;
      }
    }
  };
  // greedy upper bound
  let bestSet: number[] = [];
  {
    const picked: number[] = [];
    while (unhit > 0) {
      let arg = -1;
      for (let x = 0; x < n; x++) if (inH[x] === 0 && (arg < 0 || unhitDeg[x]! > unhitDeg[arg]!)) arg = x;
      choose(arg);
      picked.push(arg);
    }
    bestSet = picked.slice();
    for (let t = picked.length - 1; t >= 0; t--) unchoose(picked[t]!);
  }
  if (findDisjointPair(p) === undefined && p.minSize < bestSet.length) {
    bestSet = [...Q[Array.from(p.sizes).indexOf(p.minSize)]!];
  }
  const mark = new Uint8Array(n);
  const bySize = Array.from({ length: m }, (_, j) => j).sort((a, b) => p.sizes[a]! - p.sizes[b]!);
  const lowerBound = (): number => {
    if (unhit === 0) return 0;
    let maxDeg = 0;
    for (let x = 0; x < n; x++)
      if (inH[x] === 0 && excluded[x] === 0 && unhitDeg[x]! > maxDeg) maxDeg = unhitDeg[x]!;
    if (maxDeg === 0) return Number.POSITIVE_INFINITY;
    const degBound = Math.ceil(unhit / maxDeg);
    let packing = 0;
    const touched: number[] = [];
    for (const j of bySize) {
      if (hit[j] !== 0) continue;
      let free = true;
      for (const x of Q[j]!) if (excluded[x] === 0 && mark[x] === 1) free = false;
      if (!free) continue;
      packing++;
      for (const x of Q[j]!) {
        if (excluded[x] === 0) {
          mark[x] = 1;
          touched.push(x);
        }
      }
    }
    for (const x of touched) mark[x] = 0;
    return Math.max(degBound, packing);
  };
  const rootBound = lowerBound();
  // Each node costs about n + m + Σ|Q| steps; by default stop after ~2·10⁸ of them (≤ 200,000 nodes).
  const budget = options.budget ?? Math.max(100, Math.min(200_000, Math.floor(2e8 / (n + m + p.totalSize))));
  let nodes = 0;
  const search = () => {
    if (++nodes > budget) return;
    if (unhit === 0) {
      if (H.length < bestSet.length) bestSet = H.slice();
      return;
    }
    if (H.length + lowerBound() >= bestSet.length) return;
    let arg = -1;
    let argAvail = Number.POSITIVE_INFINITY;
    for (let j = 0; j < m; j++) {
      if (hit[j] !== 0) continue;
      const avail = p.sizes[j]! - ex[j]!;
      if (avail < argAvail) {
        argAvail = avail;
        arg = j;
      }
    }
    if (argAvail === 0) return;
    const cands = Q[arg]!.filter((x) => excluded[x] === 0).sort((a, b) => unhitDeg[b]! - unhitDeg[a]!);
    const tried: number[] = [];
    for (const x of cands) {
      choose(x);
      search();
      unchoose(x);
      excluded[x] = 1;
      for (const j of holders[x]!) ex[j]!++;
      tried.push(x);
      if (nodes > budget) break;
    }
    for (const x of tried) {
      excluded[x] = 0;
      for (const j of holders[x]!) ex[j]!--;
    }
  };
  if (rootBound < bestSet.length) search();
  const exact = nodes <= budget;
  const uniformLoad = strategyLoad(p, new Float64Array(m).fill(1 / m));
  const lb = exact ? bestSet.length : Math.max(1, rootBound, Math.ceil(1 / uniformLoad - 1e-9));
  return {
    faultTolerance: bestSet.length,
    exact: exact || lb >= bestSet.length,
    lowerBound: Math.min(lb, bestSet.length),
    crashSet: bestSet.sort((a, b) => a - b),
  };
}
