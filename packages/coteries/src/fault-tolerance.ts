/**
 * Fault tolerance of a quorum system: the fewest crashed processes that hit every quorum.
 * Computed on the quorums given (for a {@link Coterie}: the assigned quorums, which is what
 * Maekawa and MUTIN use); for the literature families of `majority(n)` and `tree(n)` see
 * `family.ts`.
 */
import type { ProcessId } from '@critsec/core';
import { findDisjointPair } from './check-coterie.js';
import { prepared, strategyLoad } from './metrics.js';
import type { Prepared, QuorumSet } from './prepared.js';

/** The outcome of {@link faultTolerance}. */
export interface FaultToleranceResult {
  /**
   * The size of the smallest set of processes found whose crash hits every quorum (equals the
   * minimum when `exact`). The system survives any `faultTolerance − 1` crashes.
   */
  readonly faultTolerance: number;
  /** Whether `faultTolerance` is the proven minimum (else an upper bound from an exhausted search budget). */
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
  const m = p.quorums.length;
  const t = new TransversalSearch(p);
  if (findDisjointPair(p) === undefined && p.minSize < t.bestSet.length) {
    t.bestSet = [...p.quorums[Array.from(p.sizes).indexOf(p.minSize)]!];
  }
  const rootBound = t.lowerBound();
  // Each node costs about n + m + Σ|Q| steps; by default stop after ~2·10⁸ of them (≤ 200,000 nodes).
  t.budget = options.budget ?? Math.max(100, Math.min(200_000, Math.floor(2e8 / (n + m + p.totalSize))));
  if (rootBound < t.bestSet.length) t.search();
  const bestSet = t.bestSet;
  const exact = t.nodes <= t.budget;
  const uniformLoad = strategyLoad(p, new Float64Array(m).fill(1 / m));
  const lb = exact ? bestSet.length : Math.max(1, rootBound, Math.ceil(1 / uniformLoad - 1e-9));
  return {
    faultTolerance: bestSet.length,
    exact: exact || lb >= bestSet.length,
    lowerBound: Math.min(lb, bestSet.length),
    crashSet: bestSet.sort((a, b) => a - b),
  };
}

/**
 * The unhit quorum (`hit[j] = 0`) with the fewest candidates left (`sizes[j] − excluded[j]`),
 * and how many: `[−1, ∞]` when every quorum is hit. Internal to `@critsec/coteries` (the
 * transversal searches of fault tolerance and dominance branch on it).
 */
export function narrowestUnhit(sizes: Int32Array, hit: Int32Array, excluded: Int32Array): [number, number] {
  let arg = -1;
  let argAvail = Number.POSITIVE_INFINITY;
  for (let j = 0; j < sizes.length; j++) {
    if (hit[j] !== 0) continue;
    const avail = sizes[j]! - excluded[j]!;
    if (avail < argAvail) {
      argAvail = avail;
      arg = j;
    }
  }
  return [arg, argAvail];
}

/**
 * The branch-and-bound state of {@link faultTolerance}: the chosen set `H`, which quorums it
 * hits, the processes excluded by earlier branches, and the best transversal found (starting
 * from the greedy one).
 */
class TransversalSearch {
  readonly #p: Prepared;
  readonly #n: number;
  readonly #holders: number[][];
  readonly #hit: Int32Array;
  readonly #ex: Int32Array;
  readonly #unhitDeg: Int32Array;
  readonly #inH: Uint8Array;
  readonly #excluded: Uint8Array;
  readonly #mark: Uint8Array;
  readonly #bySize: number[];
  readonly #H: number[] = [];
  #unhit: number;
  /** The smallest transversal found so far. */
  bestSet: number[];
  /** Search nodes visited, and the most allowed. */
  nodes = 0;
  budget = Number.POSITIVE_INFINITY;

  constructor(p: Prepared) {
    this.#p = p;
    const n = p.n;
    const m = p.quorums.length;
    this.#n = n;
    const holders: number[][] = Array.from({ length: n }, () => []);
    p.quorums.forEach((q, j) => {
      for (const i of q) holders[i]!.push(j);
    });
    this.#holders = holders;
    this.#hit = new Int32Array(m);
    this.#ex = new Int32Array(m);
    this.#unhitDeg = Int32Array.from(holders, (h) => h.length);
    this.#inH = new Uint8Array(n);
    this.#excluded = new Uint8Array(n);
    this.#unhit = m;
    this.bestSet = this.#greedy();
    this.#mark = new Uint8Array(n);
    this.#bySize = Array.from({ length: m }, (_, j) => j).sort((a, b) => p.sizes[a]! - p.sizes[b]!);
  }

  #choose(x: number): void {
    this.#inH[x] = 1;
    this.#H.push(x);
    for (const j of this.#holders[x]!) {
      if (this.#hit[j]!++ === 0) {
        this.#unhit--;
        for (const y of this.#p.quorums[j]!) this.#unhitDeg[y]!--;
      }
    }
  }

  #unchoose(x: number): void {
    this.#inH[x] = 0;
    this.#H.pop();
    for (const j of this.#holders[x]!) {
      if (--this.#hit[j]! === 0) {
        this.#unhit++;
        for (const y of this.#p.quorums[j]!) this.#unhitDeg[y]!++;
      }
    }
  }

  /** The greedy upper bound: repeatedly take the process hitting the most unhit quorums. */
  #greedy(): number[] {
    const picked: number[] = [];
    while (this.#unhit > 0) {
      let arg = -1;
      for (let x = 0; x < this.#n; x++) {
        if (this.#inH[x] === 0 && (arg < 0 || this.#unhitDeg[x]! > this.#unhitDeg[arg]!)) arg = x;
      }
      this.#choose(arg);
      picked.push(arg);
    }
    const best = picked.slice();
    for (let t = picked.length - 1; t >= 0; t--) this.#unchoose(picked[t]!);
    return best;
  }

  /** Processes still needed: max of the degree bound and a greedy packing of unhit quorums. */
  lowerBound(): number {
    if (this.#unhit === 0) return 0;
    const excluded = this.#excluded;
    const mark = this.#mark;
    let maxDeg = 0;
    for (let x = 0; x < this.#n; x++) {
      if (this.#inH[x] === 0 && excluded[x] === 0 && this.#unhitDeg[x]! > maxDeg) maxDeg = this.#unhitDeg[x]!;
    }
    if (maxDeg === 0) return Number.POSITIVE_INFINITY;
    const degBound = Math.ceil(this.#unhit / maxDeg);
    let packing = 0;
    const touched: number[] = [];
    for (const j of this.#bySize) {
      if (this.#hit[j] !== 0) continue;
      let free = true;
      for (const x of this.#p.quorums[j]!) if (excluded[x] === 0 && mark[x] === 1) free = false;
      if (!free) continue;
      packing++;
      for (const x of this.#p.quorums[j]!) {
        if (excluded[x] === 0) {
          mark[x] = 1;
          touched.push(x);
        }
      }
    }
    for (const x of touched) mark[x] = 0;
    return Math.max(degBound, packing);
  }

  /** Branch on the members of the narrowest unhit quorum, each branch excluding those before it. */
  search(): void {
    if (++this.nodes > this.budget) return;
    if (this.#unhit === 0) {
      if (this.#H.length < this.bestSet.length) this.bestSet = this.#H.slice();
      return;
    }
    if (this.#H.length + this.lowerBound() >= this.bestSet.length) return;
    const [arg, argAvail] = narrowestUnhit(this.#p.sizes, this.#hit, this.#ex);
    if (argAvail === 0) return;
    const excluded = this.#excluded;
    const cands = this.#p.quorums[arg]!.filter((x) => excluded[x] === 0).sort(
      (a, b) => this.#unhitDeg[b]! - this.#unhitDeg[a]!,
    );
    const tried: number[] = [];
    for (const x of cands) {
      this.#choose(x);
      this.search();
      this.#unchoose(x);
      excluded[x] = 1;
      for (const j of this.#holders[x]!) this.#ex[j]!++;
      tried.push(x);
      if (this.nodes > this.budget) break;
    }
    for (const x of tried) {
      excluded[x] = 0;
      for (const j of this.#holders[x]!) this.#ex[j]!--;
    }
  }
}
