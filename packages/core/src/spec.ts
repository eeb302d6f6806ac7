import { ConfigurationError } from './errors.js';
import type { Graph } from './graph.js';
import { type CSState, countInCS, isValidN, type ProcessId } from './process.js';

/**
 * The global (l,k)-CS problem (global-CS paper, Def. 2): at all times `l ≤ #InCS ≤ k`,
 * `0 ≤ l < k ≤ n`. Mutual exclusion is (0,1), k-mutual exclusion (0,k), l-mutual inclusion (l,n).
 */
export interface GlobalSpec {
  /** The discriminant. */
  readonly kind: 'global';
  /** Number of processes. */
  readonly n: number;
  /** Least number of processes InCS. */
  readonly l: number;
  /** Greatest number of processes InCS. */
  readonly k: number;
}

/**
 * The generalized local (l_i,k_i)-CS problem on a graph (local-CS paper, Def. 1): for each i,
 * `l_i ≤ |InCS ∩ (N_i ∪ {i})| ≤ k_i`, with `0 ≤ l_i < k_i ≤ |N_i| + 1`.
 */
export interface LocalSpec {
  /** The discriminant. */
  readonly kind: 'local';
  /** Number of processes. */
  readonly n: number;
  /** The communication graph; N_i is `graph.neighbors[i]`. */
  readonly graph: Graph;
  /** l_i per process. */
  readonly l: readonly number[];
  /** k_i per process. */
  readonly k: readonly number[];
}

/**
 * h-out-of-k mutual exclusion (h-out-of-k paper, Sec. 1): `k` identical units; a request takes
 * `h ∈ 1..k` of them; the units held by processes InCS never exceed `k`. `Req` is `h`.
 */
export interface HOutOfKSpec {
  /** The discriminant. */
  readonly kind: 'h-out-of-k';
  /** Number of processes. */
  readonly n: number;
  /** Number of identical units. */
  readonly k: number;
}

/**
 * Group mutual exclusion (group-mutex paper, Sec. 1): a request names a group `0..m-1`; processes
 * requesting different groups are never InCS together; same-group processes may be. `Req` is the
 * group.
 */
export interface GroupSpec {
  /** The discriminant. */
  readonly kind: 'group';
  /** Number of processes. */
  readonly n: number;
  /** Number of groups. */
  readonly m: number;
}

/** Any critical-section problem critsec knows how to monitor. */
export type ProblemSpec = GlobalSpec | LocalSpec | HOutOfKSpec | GroupSpec;

function int(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x);
}

/**
 * A validated global (l,k)-CS spec.
 * @throws ConfigurationError unless `n ≥ 1` and `0 ≤ l < k ≤ n` (integers).
 */
export function globalSpec(l: number, k: number, n: number): GlobalSpec {
  if (!isValidN(n)) throw new ConfigurationError(`(l,k)-CS: n must be a positive integer, got ${String(n)}`);
  if (!int(l) || !int(k) || l < 0 || l >= k || k > n) {
    throw new ConfigurationError(
      `(l,k)-CS: need integers 0 ≤ l < k ≤ n, got l = ${String(l)}, k = ${String(k)}, n = ${n}`,
    );
  }
  return Object.freeze({ kind: 'global', n, l, k });
}

/** Mutual exclusion: the (0,1)-CS over n processes. */
export function mutexSpec(n: number): GlobalSpec {
  return globalSpec(0, 1, n);
}

/**
 * A validated generalized local (l_i,k_i)-CS spec.
 * @throws ConfigurationError unless there is one `l_i` and `k_i` per process with
 *   `0 ≤ l_i < k_i ≤ |N_i| + 1`.
 */
export function localSpec(graph: Graph, l: readonly number[], k: readonly number[]): LocalSpec {
  const n = graph.n;
  if (l.length !== n || k.length !== n) {
    throw new ConfigurationError(
      `local CS: need one l_i and one k_i per process (n = ${n}), got ${l.length} and ${k.length}`,
    );
  }
  for (let i = 0; i < n; i++) {
    const li = l[i]!;
    const ki = k[i]!;
    const size = graph.neighbors[i]!.length + 1;
    if (!int(li) || !int(ki) || li < 0 || li >= ki || ki > size) {
      throw new ConfigurationError(
        `local CS: P${i} needs integers 0 ≤ l_i < k_i ≤ |N_i|+1 = ${size}, got l_${i} = ${String(li)}, k_${i} = ${String(ki)}`,
      );
    }
  }
  return Object.freeze({ kind: 'local', n, graph, l: Object.freeze([...l]), k: Object.freeze([...k]) });
}

/**
 * A validated h-out-of-k spec.
 * @throws ConfigurationError unless `n ≥ 1` and `k ≥ 1`.
 */
export function hOutOfKSpec(k: number, n: number): HOutOfKSpec {
  if (!isValidN(n))
    throw new ConfigurationError(`h-out-of-k: n must be a positive integer, got ${String(n)}`);
  if (!int(k) || k < 1)
    throw new ConfigurationError(`h-out-of-k: k (units) must be an integer ≥ 1, got ${String(k)}`);
  return Object.freeze({ kind: 'h-out-of-k', n, k });
}

/**
 * A validated group mutual exclusion spec with groups `0..m-1`.
 * @throws ConfigurationError unless `n ≥ 1` and `m ≥ 1`.
 */
export function groupSpec(m: number, n: number): GroupSpec {
  if (!isValidN(n))
    throw new ConfigurationError(`group mutex: n must be a positive integer, got ${String(n)}`);
  if (!int(m) || m < 1)
    throw new ConfigurationError(`group mutex: m (groups) must be an integer ≥ 1, got ${String(m)}`);
  return Object.freeze({ kind: 'group', n, m });
}

/**
 * The complement problem (global-CS paper, Thm. 1; local-CS paper, Thm. 2): swapping InCS and
 * OutCS turns (l,k) into (n−k, n−l), and locally (l_i,k_i) into (|N_i|+1−k_i, |N_i|+1−l_i).
 * @throws ConfigurationError for h-out-of-k and group specs, which have no complement.
 */
export function complementSpec<S extends GlobalSpec | LocalSpec>(spec: S): S;
export function complementSpec(spec: ProblemSpec): GlobalSpec | LocalSpec;
export function complementSpec(spec: ProblemSpec): GlobalSpec | LocalSpec {
  switch (spec.kind) {
    case 'global':
      return globalSpec(spec.n - spec.k, spec.n - spec.l, spec.n);
    case 'local': {
      const size = (i: number) => spec.graph.neighbors[i]!.length + 1;
      return localSpec(
        spec.graph,
        spec.k.map((ki, i) => size(i) - ki),
        spec.l.map((li, i) => size(i) - li),
      );
    }
    default:
      throw new ConfigurationError(
        `the ${spec.kind} problem has no complement (only global and local (l,k)-CS do)`,
      );
  }
}

/** A breach of a problem's safety condition in one configuration. */
export interface SpecViolation {
  /** What is wrong, with the numbers (e.g. "4 processes InCS, k = 3"). */
  readonly message: string;
  /** The process whose neighbourhood is violated (local CS), when there is one. */
  readonly at?: ProcessId;
}

/**
 * Which half of a safety condition {@link checkConfiguration} checks: `'upper'` — the bounds a
 * process too many InCS breaks (k, k_i, units held ≤ k, one group at a time); `'lower'` — the
 * bounds a process too few InCS breaks (l, l_i; h-out-of-k and group mutex have none); `'both'`
 * (default). A checker that only knows a subset of the processes InCS for sure (and a superset
 * of those possibly InCS) checks `'upper'` on the first and `'lower'` on the second.
 */
export type SafetyBound = 'upper' | 'lower' | 'both';

/**
 * Checks one configuration against a spec: the safety condition of each problem.
 *
 * `requests[i]` is the request of process i while InCS (units h, or a group); ignored for
 * global and local specs. `bound` restricts the check to one half of the condition
 * ({@link SafetyBound}). Returns `null` when safe.
 */
export function checkConfiguration(
  spec: ProblemSpec,
  states: readonly CSState[],
  requests?: readonly unknown[],
  bound: SafetyBound = 'both',
): SpecViolation | null {
  const upper = bound !== 'lower';
  const lower = bound !== 'upper';
  if (states.length !== spec.n) {
    return { message: `configuration has ${states.length} states, spec has n = ${spec.n}` };
  }
  switch (spec.kind) {
    case 'global': {
      const c = countInCS(states);
      if (lower && c < spec.l) return { message: `${c} processes InCS, fewer than l = ${spec.l}` };
      if (upper && c > spec.k) return { message: `${c} processes InCS, more than k = ${spec.k}` };
      return null;
    }
    case 'local': {
      for (let i = 0; i < spec.n; i++) {
        let c = states[i] === 'InCS' ? 1 : 0;
        for (const j of spec.graph.neighbors[i]!) if (states[j] === 'InCS') c++;
        if (lower && c < spec.l[i]!)
          return { at: i, message: `${c} InCS in N_${i} ∪ {${i}}, fewer than l_${i} = ${spec.l[i]}` };
        if (upper && c > spec.k[i]!)
          return { at: i, message: `${c} InCS in N_${i} ∪ {${i}}, more than k_${i} = ${spec.k[i]}` };
      }
      return null;
    }
    case 'h-out-of-k': {
      if (!upper) return null;
      let units = 0;
      for (let i = 0; i < spec.n; i++) {
        if (states[i] !== 'InCS') continue;
        const h = requests?.[i];
        if (!int(h) || h < 1 || h > spec.k)
          return { at: i, message: `P${i} is InCS with request h = ${String(h)}, expected 1..${spec.k}` };
        units += h;
      }
      if (units > spec.k) return { message: `${units} units held InCS, more than k = ${spec.k}` };
      return null;
    }
    case 'group': {
      if (!upper) return null;
      let group: unknown;
      let holder = -1;
      for (let i = 0; i < spec.n; i++) {
        if (states[i] !== 'InCS') continue;
        const g = requests?.[i];
        if (holder === -1) {
          group = g;
          holder = i;
        } else if (g !== group) {
          return {
            at: i,
            message: `P${holder} (group ${String(group)}) and P${i} (group ${String(g)}) are InCS together`,
          };
        }
      }
      return null;
    }
  }
}

/**
 * Throws unless the initial configuration is safe for the spec (DESIGN.md 3.4).
 * @throws ConfigurationError naming the breach, e.g. "initial configuration is unsafe for
 *   (2,5)-CS: 1 processes InCS, fewer than l = 2".
 */
export function assertSafeConfiguration(
  spec: ProblemSpec,
  states: readonly CSState[],
  requests?: readonly unknown[],
): void {
  const v = checkConfiguration(spec, states, requests);
  if (v !== null)
    throw new ConfigurationError(`initial configuration is unsafe for ${describeSpec(spec)}: ${v.message}`);
}

/** A short human name: "(2,5)-CS over 12 processes", "3-out-of-k (k = 4)", … */
export function describeSpec(spec: ProblemSpec): string {
  switch (spec.kind) {
    case 'global':
      return `(${spec.l},${spec.k})-CS over ${spec.n} processes`;
    case 'local':
      return `local (l_i,k_i)-CS over ${spec.n} processes`;
    case 'h-out-of-k':
      return `h-out-of-${spec.k} mutual exclusion over ${spec.n} processes`;
    case 'group':
      return `group mutual exclusion (${spec.m} groups) over ${spec.n} processes`;
  }
}

/**
 * Validates and normalizes an initial configuration given as states or as the set of processes
 * InCS.
 * @throws ConfigurationError for a wrong length, an unknown state, or an id out of range.
 */
export function initialConfiguration(
  n: number,
  init: readonly CSState[] | { inCS: readonly ProcessId[] },
): CSState[] {
  if ('inCS' in init) {
    const states: CSState[] = Array.from({ length: n }, () => 'OutCS');
    for (const i of init.inCS) {
      if (!Number.isInteger(i) || i < 0 || i >= n) {
        throw new ConfigurationError(
          `initial configuration names process ${String(i)}, expected 0..${n - 1}`,
        );
      }
      states[i] = 'InCS';
    }
    return states;
  }
  if (init.length !== n)
    throw new ConfigurationError(`initial configuration has ${init.length} states, expected n = ${n}`);
  return init.map((s, i) => {
    if (s !== 'InCS' && s !== 'OutCS') {
      throw new ConfigurationError(`initial state of P${i} is ${String(s)}, expected 'InCS' or 'OutCS'`);
    }
    return s;
  });
}
