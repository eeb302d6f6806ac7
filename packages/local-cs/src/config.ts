/**
 * Per-process bounds and safe initial configurations for the generalized local (l_i,k_i)-CS
 * (Kamei & Kakugawa 2017, Sec. 2.2, Def. 1): `0 ≤ l_i < k_i ≤ |N_i| + 1`, and the initial
 * configuration C0 must be safe, `l_i ≤ |CS_i(C0)| ≤ k_i` for every i. Sec. 2.2 builds C0 for
 * (1, |N_i|) from a maximal independent set I (P_i OutCS iff P_i ∈ I): {@link misInitial}; any
 * other bounds get a seeded local search ({@link safeInitial}).
 */
import {
  type CSState,
  ConfigurationError,
  checkConfiguration,
  type Graph,
  type LocalSpec,
  localSpec,
  type ProcessId,
} from '@critsec/core';

/**
 * Per-process bounds: one number for every process, an array indexed by process id, or a function
 * of the process id and its degree `|N_i|` (e.g. `(i, d) => d` for k_i = |N_i|).
 */
export type Bounds = number | readonly number[] | ((i: ProcessId, degree: number) => number);

/**
 * Expands {@link Bounds} to one value per process.
 * @throws ConfigurationError if an array has the wrong length or a value is not a safe integer
 *   (the message names the field, the process and the value).
 */
export function expandBounds(graph: Graph, bounds: Bounds, field: string): number[] {
  const n = graph.n;
  let out: number[];
  if (typeof bounds === 'number') out = new Array<number>(n).fill(bounds);
  else if (typeof bounds === 'function') out = graph.neighbors.map((nb, i) => bounds(i, nb.length));
  else if (Array.isArray(bounds)) {
    if (bounds.length !== n) {
      throw new ConfigurationError(`${field}: expected ${n} values (one per process), got ${bounds.length}`);
    }
    out = [...bounds];
  } else {
    throw new ConfigurationError(
      `${field}: expected a number, an array or a function, got ${String(bounds)}`,
    );
  }
  out.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isSafeInteger(x)) {
      throw new ConfigurationError(`${field}: ${field}_${i} must be an integer, got ${String(x)}`);
    }
  });
  return out;
}

/**
 * The validated problem: `localSpec(graph, l, k)` of `@critsec/core` from {@link Bounds}.
 * @throws ConfigurationError unless `0 ≤ l_i < k_i ≤ |N_i| + 1` for every i (names P_i and values).
 */
export function localBounds(graph: Graph, l: Bounds, k: Bounds): LocalSpec {
  return localSpec(graph, expandBounds(graph, l, 'l'), expandBounds(graph, k, 'k'));
}

/**
 * Checks an initial configuration against a spec (Sec. 2.2: C0 must be safe).
 * @throws ConfigurationError for a wrong length or an unknown state (issue 15), or naming the first
 *   process whose neighbourhood breaks its bounds.
 */
export function assertSafeInitial(spec: LocalSpec, initial: readonly CSState[], who: string): void {
  if (initial.length !== spec.n) {
    throw new ConfigurationError(
      `${who}: the initial configuration has ${initial.length} states, the graph has ${spec.n} processes`,
    );
  }
  initial.forEach((s, i) => {
    if (s !== 'InCS' && s !== 'OutCS') {
      throw new ConfigurationError(
        `${who}: initial state of P${i} is ${String(s)}, expected 'InCS' or 'OutCS'`,
      );
    }
  });
  const v = checkConfiguration(spec, initial);
  if (v !== null) throw new ConfigurationError(`${who}: unsafe initial configuration: ${v.message}`);
}

/**
 * Sec. 2.2's initial configuration for (1, |N_i|): P_i is OutCS iff it belongs to a maximal
 * independent set I (greedy, in id order). Every P_i then has at least one OutCS (itself or a
 * neighbour in I) and at least one InCS in N_i ∪ {P_i} when |N_i| ≥ 1.
 */
export function misInitial(graph: Graph): CSState[] {
  const inI = new Array<boolean>(graph.n).fill(false);
  for (let i = 0; i < graph.n; i++) {
    if (!graph.neighbors[i]!.some((j) => inI[j])) inI[i] = true;
  }
  return inI.map((x) => (x ? 'OutCS' : 'InCS'));
}

function violationCount(spec: LocalSpec, inCS: readonly boolean[]): number {
  let bad = 0;
  for (let i = 0; i < spec.n; i++) {
    let c = inCS[i] ? 1 : 0;
    for (const j of spec.graph.neighbors[i]!) if (inCS[j]) c++;
    if (c < spec.l[i]!) bad += spec.l[i]! - c;
    else if (c > spec.k[i]!) bad += c - spec.k[i]!;
  }
  return bad;
}

/**
 * A safe initial configuration for `spec` (Sec. 2.2), found by a deterministic local search
 * (min-conflicts flips from the all-OutCS configuration, seeded). All-OutCS and all-InCS are tried
 * first; (1, |N_i|) bounds usually succeed at once from {@link misInitial}.
 * @throws ConfigurationError if none is found within `maxSteps` flips (naming the spec).
 */
export function safeInitial(spec: LocalSpec, options: { seed?: number; maxSteps?: number } = {}): CSState[] {
  const n = spec.n;
  const toStates = (b: readonly boolean[]): CSState[] => b.map((x) => (x ? 'InCS' : 'OutCS'));
  const candidates: boolean[][] = [
    new Array<boolean>(n).fill(false),
    new Array<boolean>(n).fill(true),
    misInitial(spec.graph).map((s) => s === 'InCS'),
  ];
  for (const c of candidates) if (violationCount(spec, c) === 0) return toStates(c);
  let a = (options.seed ?? 1) >>> 0 || 1;
  const rnd = () => {
    a ^= a << 13;
    a ^= a >>> 17;
    a ^= a << 5;
    return (a >>> 0) / 4294967296;
  };
  const cur = candidates[2]!;
  let bad = violationCount(spec, cur);
  const maxSteps = options.maxSteps ?? 50 * n + 1000;
  for (let step = 0; step < maxSteps && bad > 0; step++) {
    // flip the process whose flip lowers the violation most; random walk on ties or no gain
    let best = -1;
    let bestBad = Number.POSITIVE_INFINITY;
    const start = Math.floor(rnd() * n);
    for (let d = 0; d < n; d++) {
      const i = (start + d) % n;
      cur[i] = !cur[i];
      const b = violationCount(spec, cur);
      cur[i] = !cur[i];
      if (b < bestBad) {
        bestBad = b;
        best = i;
      }
    }
    if (bestBad >= bad && rnd() < 0.5) best = Math.floor(rnd() * n);
    cur[best] = !cur[best];
    bad = violationCount(spec, cur);
  }
  if (bad > 0) {
    throw new ConfigurationError(
      `no safe initial configuration found for the local (l_i,k_i)-CS over ${n} processes within ${maxSteps} flips; give one with initial`,
    );
  }
  return toStates(cur);
}
