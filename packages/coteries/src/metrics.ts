/**
 * Metrics to compare quorum systems by: quorum sizes, per-process load and the optimal load of
 * Naor & Wool ("The load, capacity and availability of quorum systems", SIAM J. Comput. 27(2),
 * 1998); the shared input normalization of every metric. Fault tolerance, availability and
 * dominance have their own files (`fault-tolerance.ts`, `availability.ts`, `dominance.ts`).
 *
 * Every metric is computed on the quorums given (for a {@link Coterie}: the assigned quorums,
 * which is what Maekawa and MUTIN use). For `majority(n)` and `tree(n)` these are not the figures
 * the literature quotes for the majority coterie and the Agrawal–El Abbadi tree protocol, whose
 * quorum systems are larger: see `familyMetrics` (closed forms) and `familyQuorums` (the whole
 * family, to run these metrics on for small n) in `family.ts`, and `coterieMetrics`.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { type Coefficients, type Constraint, solve } from 'yalps';
import { findDisjointPair } from './check-coterie.js';
import { dedupe } from './coterie.js';
import { describeStructural, normalizeQuorums, type Prepared, prepare, type QuorumSet } from './prepared.js';

/** Normalized, deduplicated quorums of `c`; internal to the package's metrics. */
export function prepared(c: QuorumSet, fn: string): Prepared {
  const norm = normalizeQuorums(c.n, c.quorums, c);
  if (!norm.ok) throw new ConfigurationError(`${fn}: ${describeStructural(norm.violation, c.n)}`);
  const distinct = dedupe(norm.quorums).quorums;
  return prepare(c.n, distinct.length === norm.quorums.length ? norm.quorums : distinct);
}

// ───────────────────────────── sizes and per-process load ─────────────────────────────

/** Quorum sizes over the distinct quorums. */
export interface QuorumSizes {
  /** Smallest quorum size. */
  readonly min: number;
  /** Largest quorum size. */
  readonly max: number;
  /** Mean quorum size over the distinct quorums. */
  readonly mean: number;
  /** Number of distinct quorums. */
  readonly count: number;
}

/**
 * Smallest, largest and mean size of the distinct quorums.
 * @throws ConfigurationError if a quorum is empty or names a process outside 0..n-1.
 */
export function quorumSizes(c: QuorumSet): QuorumSizes {
  const p = prepared(c, 'quorumSizes');
  return { min: p.minSize, max: p.maxSize, mean: p.totalSize / p.quorums.length, count: p.quorums.length };
}

/** How many quorums hold each process. */
export interface ProcessLoad {
  /** `counts[i]` = number of distinct quorums containing process i. */
  readonly counts: readonly number[];
  /** `reporters[i]` = |R_i| = number of processes whose assigned quorum contains i (a {@link Coterie} only). */
  readonly reporters?: readonly number[];
  /** Fewest quorums containing one process. */
  readonly min: number;
  /** Most quorums containing one process. */
  readonly max: number;
  /** Mean of `counts`. */
  readonly mean: number;
}

/**
 * Per-process load as membership counts: for each process, the number of distinct quorums
 * containing it (and, for a coterie with an assignment, |R_i|: the number of processes whose
 * quorum contains it — the messages it serves when everyone requests once).
 * @throws ConfigurationError if a quorum is empty or names a process outside 0..n-1.
 */
export function processLoad(
  c: QuorumSet & { reportersOf?(i: ProcessId): readonly ProcessId[] },
): ProcessLoad {
  const p = prepared(c, 'processLoad');
  const counts = new Array<number>(c.n).fill(0);
  for (const q of p.quorums) for (const x of q) counts[x]!++;
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  let sum = 0;
  for (const v of counts) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  const reporters =
    typeof c.reportersOf === 'function'
      ? Array.from({ length: c.n }, (_, i) => c.reportersOf!(i).length)
      : undefined;
  return { counts, ...(reporters ? { reporters } : {}), min, max, mean: sum / c.n };
}

// ───────────────────────────── optimal load (Naor–Wool) ─────────────────────────────

/** The outcome of {@link optimalLoad}. */
export interface LoadResult {
  /**
   * The load of the best strategy found: `max_i Σ_{Q ∋ i} w_Q`, computed exactly from `strategy`.
   * Equals the optimal load L(𝒬) when `exact`.
   */
  readonly load: number;
  /** A certified lower bound on L(𝒬). */
  readonly lowerBound: number;
  /** `load − lowerBound ≤ 1e-6·load` (the LP solver works in floating point). */
  readonly exact: boolean;
  /**
   * `'bounds'`: the uniform strategy meets the lower bound max(1/c(𝒬), c(𝒬)/n) — no LP needed;
   * `'lp'`: the two LPs (below) were solved; `'bounds-only'`: too large for the LP (`maxLpSize`).
   */
  readonly method: 'bounds' | 'lp' | 'bounds-only';
  /** The strategy achieving `load`: a probability per distinct quorum (same order as `quorums`). */
  readonly strategy: readonly number[];
}

/** Load of strategy `w` (a weight per quorum of `p`): the busiest process's sum. */
export function strategyLoad(p: Prepared, w: ArrayLike<number>): number {
  const acc = new Float64Array(p.n);
  p.quorums.forEach((q, j) => {
    const x = w[j]!;
    if (x !== 0) for (const i of q) acc[i]! += x;
  });
  let max = 0;
  for (const v of acc) max = Math.max(max, v);
  return max;
}

/**
 * The optimal load of Naor & Wool: `L(𝒬) = min_w max_i Σ_{Q ∋ i} w_Q` over probability
 * distributions (strategies) w on the quorums — the busiest process's access probability under
 * the best way of picking quorums.
 *
 * Method: (1) the uniform strategy gives an upper bound and, for a coterie,
 * `max(1/c(𝒬), c(𝒬)/n)` (c = smallest quorum size) a lower bound; symmetric systems (grid,
 * majority, projective plane) meet it and are settled without an LP. (2) Otherwise, when
 * `m·n ≤ maxLpSize`, two LPs are solved with the `yalps` solver: the fractional packing
 * `max Σ y_Q s.t. Σ_{Q ∋ i} y_Q ≤ 1` (its normalized solution is a strategy, whose load is then
 * recomputed exactly) and the fractional transversal `min Σ x_i s.t. Σ_{i ∈ Q} x_i ≥ 1` (scaled to
 * feasibility, `1/Σx` is a certified lower bound; by LP duality L(𝒬) = 1/τ*). The result is exact
 * when the two meet. (3) Larger systems get the bounds only.
 *
 * @param options.maxLpSize largest `m·n` given to the LP solver (default 300,000).
 * @throws ConfigurationError if a quorum is empty or names a process outside 0..n-1.
 */
export function optimalLoad(c: QuorumSet, options: { readonly maxLpSize?: number } = {}): LoadResult {
  const p = prepared(c, 'optimalLoad');
  const { n } = p;
  const m = p.quorums.length;
  const uniform = new Float64Array(m).fill(1 / m);
  let best = { load: strategyLoad(p, uniform), strategy: Array.from(uniform) };
  const coterie = findDisjointPair(p) === undefined;
  let lower = Math.max(p.minSize / n, coterie ? 1 / p.minSize : 0);
  const done = (method: LoadResult['method']): LoadResult => ({
    load: best.load,
    lowerBound: Math.min(lower, best.load),
    exact: best.load - lower <= 1e-6 * Math.max(1, best.load),
    method,
    strategy: best.strategy,
  });
  if (best.load - lower <= 1e-12) return done('bounds');
  if (m * n > (options.maxLpSize ?? 300_000)) return done('bounds-only');

  // Fractional packing: variables y_j, constraints per process (key i), objective key -1.
  const packVars: [number, Coefficients<number>][] = p.quorums.map((q, j) => [
    j,
    [[-1, 1], ...q.map((i): [number, number] => [i, 1])],
  ]);
  const packCons: [number, Constraint][] = Array.from({ length: n }, (_, i): [number, Constraint] => [
    i,
    { max: 1 },
  ]);
  const pack = solve<number, number>(
    { direction: 'maximize', objective: -1, constraints: packCons, variables: packVars },
    { maxPivots: 1_000_000 },
  );
  if (pack.status === 'optimal') {
    const y = new Float64Array(m);
    let total = 0;
    for (const [j, v] of pack.variables) {
      y[j] = Math.max(0, v);
      total += y[j]!;
    }
    if (total > 0) {
      for (let j = 0; j < m; j++) y[j]! /= total;
      const l = strategyLoad(p, y);
      if (l < best.load) best = { load: l, strategy: Array.from(y) };
    }
  }
  if (coterie) {
    // Fractional transversal: variables x_i, constraints per quorum (key j), objective key -1.
    const holders: number[][] = Array.from({ length: n }, () => []);
    p.quorums.forEach((q, j) => {
      for (const i of q) holders[i]!.push(j);
    });
    const trVars: [number, Coefficients<number>][] = holders.map((h, i) => [
      i,
      [[-1, 1], ...h.map((j): [number, number] => [j, 1])],
    ]);
    const trCons: [number, Constraint][] = p.quorums.map((_, j): [number, Constraint] => [j, { min: 1 }]);
    const tr = solve<number, number>(
      { direction: 'minimize', objective: -1, constraints: trCons, variables: trVars },
      { maxPivots: 1_000_000 },
    );
    if (tr.status === 'optimal') {
      const x = new Float64Array(n);
      for (const [i, v] of tr.variables) x[i] = Math.max(0, v);
      let minCover = Number.POSITIVE_INFINITY;
      for (const q of p.quorums) {
        let s = 0;
        for (const i of q) s += x[i]!;
        minCover = Math.min(minCover, s);
      }
      if (minCover > 0) {
        let tau = 0;
        for (const v of x) tau += v / minCover;
        lower = Math.max(lower, 1 / tau);
      }
    }
  }
  return done('lp');
}
