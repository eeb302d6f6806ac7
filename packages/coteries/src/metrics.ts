/**
 * Metrics to compare quorum systems by: quorum sizes, per-process load, the optimal load of
 * Naor & Wool ("The load, capacity and availability of quorum systems", SIAM J. Comput. 27(2),
 * 1998), fault tolerance, availability under independent crashes, and dominance (Garcia-Molina &
 * Barbara, "How to assign votes in a distributed system", JACM 32(4), 1985).
 *
 * Every metric is computed on the quorums given (for a {@link Coterie}: the assigned quorums,
 * which is what Maekawa and MUTIN use). For `majority(n)` and `tree(n)` these are not the figures
 * the literature quotes for the majority coterie and the Agrawal–El Abbadi tree protocol, whose
 * quorum systems are larger: see `familyMetrics` (closed forms) and `familyQuorums` (the whole
 * family, to run these metrics on for small n) in `family.ts`, and `coterieMetrics`.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { type Coefficients, type Constraint, solve } from 'yalps';
import { isSubset, wordsFor } from './bitset.js';
import { findDisjointPair } from './check-coterie.js';
import { dedupe } from './coterie.js';
import { describeStructural, normalizeQuorums, type Prepared, prepare, type QuorumSet } from './prepared.js';
import { seededRandom } from './random.js';

function prepared(c: QuorumSet, fn: string): Prepared {
  const norm = normalizeQuorums(c.n, c.quorums, c);
  if (!norm.ok) throw new ConfigurationError(`${fn}: ${describeStructural(norm.violation, c.n)}`);
  const distinct = dedupe(norm.quorums).quorums;
  return prepare(c.n, distinct.length === norm.quorums.length ? norm.quorums : distinct);
}

// ───────────────────────────── sizes and per-process load ─────────────────────────────

/** Quorum sizes over the distinct quorums. */
export interface QuorumSizes {
  readonly min: number;
  readonly max: number;
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
  readonly min: number;
  readonly max: number;
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

function strategyLoad(p: Prepared, w: ArrayLike<number>): number {
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

// ───────────────────────────── fault tolerance ─────────────────────────────

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

// ───────────────────────────── availability ─────────────────────────────

/** The outcome of {@link availability}. */
export interface AvailabilityResult {
  /** Probability that some quorum has no crashed member. */
  readonly availability: number;
  /** True for the exact computation, false for the Monte Carlo estimate. */
  readonly exact: boolean;
  /** Monte Carlo only: number of samples, the seed, and the standard error of the estimate. */
  readonly samples?: number;
  readonly seed?: number;
  readonly standardError?: number;
}

/**
 * Availability: the probability that at least one quorum survives when every process crashes
 * independently with probability `p` (so `1 − availability` is the failure probability of
 * Naor & Wool).
 *
 * Exact for systems whose quorums cover at most `exactMaxN` processes (default 22): a
 * depth-first walk over alive/crashed decisions that stops as soon as a quorum is fully alive
 * (the whole subtree counts) or every quorum is hit (it counts zero). Beyond: Monte Carlo with
 * `samples` (default 20,000) crash patterns from a seeded Mersenne Twister (`seed`, default 1);
 * the result carries its standard error.
 *
 * @param p crash probability of each process, 0 ≤ p ≤ 1.
 * @throws ConfigurationError if p is not in [0, 1], or a quorum is empty or out of range.
 */
export function availability(
  c: QuorumSet,
  p: number,
  options: { readonly exactMaxN?: number; readonly samples?: number; readonly seed?: number } = {},
): AvailabilityResult {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
    throw new ConfigurationError(
      `availability: the crash probability p must be a number in [0, 1], got ${String(p)}`,
    );
  }
  const pr = prepared(c, 'availability');
  const Q = pr.quorums;
  const m = Q.length;
  const holders: number[][] = Array.from({ length: pr.n }, () => []);
  Q.forEach((q, j) => {
    for (const i of q) holders[i]!.push(j);
  });
  const involved = holders.map((h, i) => [i, h.length] as const).filter(([, d]) => d > 0);
  if (involved.length <= (options.exactMaxN ?? 22)) {
    const order = involved.sort((a, b) => b[1] - a[1]).map(([i]) => i);
    const rem = Int32Array.from(pr.sizes);
    const hit = new Int32Array(m);
    let unhit = m;
    let alive = 0; // quorums fully alive
    const q = 1 - p;
    const walk = (t: number, prob: number): number => {
      if (alive > 0) return prob;
      if (unhit === 0 || prob === 0 || t === order.length) return 0;
      const v = order[t]!;
      let total = 0;
      for (const j of holders[v]!) if (--rem[j]! === 0 && hit[j] === 0) alive++;
      total += walk(t + 1, prob * q);
      for (const j of holders[v]!) if (rem[j]!++ === 0 && hit[j] === 0) alive--;
      for (const j of holders[v]!) if (hit[j]!++ === 0) unhit--;
      total += walk(t + 1, prob * p);
      for (const j of holders[v]!) if (--hit[j]! === 0) unhit++;
      return total;
    };
    return { availability: walk(0, 1), exact: true };
  }
  const samples = options.samples ?? 20_000;
  const seed = options.seed ?? 1;
  const rnd = seededRandom(seed);
  const words = pr.bits[0]!.length;
  const deadBits = new Uint32Array(words);
  let dead: number[] = [];
  // Crashed processes of one sample: for small p, jump over the survivors with geometric gaps
  // (one random draw per crash instead of one per process).
  const logSurvive = Math.log1p(-p);
  const drawDead = () => {
    for (const i of dead) deadBits[i >>> 5] = 0;
    dead = [];
    if (p === 0) return;
    if (p >= 0.25) {
      for (let i = 0; i < pr.n; i++) if (rnd.float() < p) dead.push(i);
    } else {
      for (
        let i = Math.floor(Math.log(1 - rnd.float()) / logSurvive);
        i < pr.n;
        i += 1 + Math.floor(Math.log(1 - rnd.float()) / logSurvive)
      ) {
        dead.push(i);
      }
    }
    for (const i of dead) deadBits[i >>> 5]! |= 1 << (i & 31);
  };
  // Two ways to test "some quorum has no crashed member": scan quorums until one is intact
  // (about m·min(1/p, |Q|, words) steps per sample), or mark the quorums the crashed processes hit
  // and compare the count with m (about p·Σ|Q| steps). Take the cheaper one.
  const scanCost = m * Math.min(p > 0 ? 1 / p : Number.POSITIVE_INFINITY, pr.totalSize / m, words + 1);
  const markCost = p * pr.totalSize + m / 8;
  const stamp = new Int32Array(m).fill(-1);
  let ok = 0;
  for (let s = 0; s < samples; s++) {
    drawDead();
    if (markCost < scanCost) {
      let hitCount = 0;
      for (const d of dead) {
        for (const j of holders[d]!) {
          if (stamp[j] !== s) {
            stamp[j] = s;
            hitCount++;
          }
        }
      }
      if (hitCount < m) ok++;
      continue;
    }
    for (let j = 0; j < m; j++) {
      let up = true;
      if (pr.sizes[j]! > words) {
        const b = pr.bits[j]!;
        for (let w = 0; w < words; w++) {
          if ((b[w]! & deadBits[w]!) !== 0) {
            up = false;
            break;
          }
        }
      } else {
        for (const i of Q[j]!) {
          if ((deadBits[i >>> 5]! & (1 << (i & 31))) !== 0) {
            up = false;
            break;
          }
        }
      }
      if (up) {
        ok++;
        break;
      }
    }
  }
  const a = ok / samples;
  return { availability: a, exact: false, samples, seed, standardError: Math.sqrt((a * (1 - a)) / samples) };
}

// ───────────────────────────── dominance ─────────────────────────────

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
    let arg = -1;
    let argAvail = Number.POSITIVE_INFINITY;
    for (let j = 0; j < m; j++) {
      if (inCount[j] !== 0) continue;
      const avail = p.sizes[j]! - ex[j]!;
      if (avail < argAvail) {
        argAvail = avail;
        arg = j;
      }
    }
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
