/*
 * The descriptor of the generalized local (lᵢ,kᵢ)-CS (the plug-in contract of @critsec/core,
 * descriptor.ts; `critsec simulate local-cs --algorithm
 * lmutin|lmutex|lkcs --graph ring:20|grid:5x5|star:8|complete:6|random:30:0.2|abilene|file.json
 * --l L --k K`, or per-process bounds from `--bounds file.json`): Kamei & Kakugawa 2017 —
 * li-LMUTIN (Sec. 3, Algorithms 1–2), ki-LMUTEX = its local complement (Sec. 4, Thm. 2) and LKCS
 * (Sec. 5, Algorithms 3–7). Uniform `--l`/`--k` are capped per process to what its closed
 * neighbourhood allows (lᵢ ≤ |Nᵢ|, kᵢ ≤ |Nᵢ| + 1); the default initial configuration is a safe one
 * built for the bounds (`safeInitial` of @critsec/local-cs).
 */
import {
  type AlgorithmDescriptor,
  type BuildContext,
  type BuiltAlgorithm,
  ConfigurationError,
  type CSFactory,
  checkConfiguration,
  defineAlgorithm,
  type Graph,
  type LocalSpec,
  type MemoryEstimate,
  type ParamValue,
  param,
  params,
} from '@critsec/core';
import { describeInitial, parseChoice, parseInit, parseInteger } from '@critsec/core/kit';
import { localCsBounds } from './bounds.js';
import { graphFromJson, parseGraph } from './graphs.js';
import { localBounds, safeInitial } from './config.js';
import { lkcs } from './lkcs.js';
import { lkcsPlan } from './lkcs-plan.js';
import { lmutex } from './lmutex.js';
import { lmutin } from './lmutin.js';

/** The local-CS algorithms. */
export const LOCAL_ALGORITHM_NAMES = ['lmutin', 'lmutex', 'lkcs'] as const;

/** A local-CS algorithm. */
type LocalAlgorithmName = (typeof LOCAL_ALGORITHM_NAMES)[number];

/**
 * Processes and (an upper bound on) edges of a `--graph` notation, from its numbers alone (nothing
 * is built): ring:N N edges, grid:RxC R(C−1) + C(R−1), star:L L, complete:N N(N−1)/2,
 * random:N:P the expected N(N−1)·P/2 plus at most N − 1 edges joining the components. Null for
 * abilene and for a notation `parseGraph` will refuse (it names the problem).
 */
function notationSize(text: string): { n: number; edges: number } | null {
  const [kind, a = '', b = ''] = text.split(':');
  const num = (x: string | undefined) => (x === undefined || x === '' ? Number.NaN : Number(x));
  let size: { n: number; edges: number } | null = null;
  switch (kind) {
    case 'ring':
      size = { n: num(a), edges: num(a) };
      break;
    case 'grid': {
      const [r, c = r] = a.split('x');
      const [rows, cols] = [num(r), num(c)];
      size = { n: rows * cols, edges: rows * (cols - 1) + cols * (rows - 1) };
      break;
    }
    case 'star':
      size = { n: num(a) + 1, edges: num(a) };
      break;
    case 'complete':
      size = { n: num(a), edges: (num(a) * (num(a) - 1)) / 2 };
      break;
    case 'random': {
      const [n, p] = [num(a), num(b)];
      size = p >= 0 && p <= 1 ? { n, edges: (n * (n - 1) * p) / 2 + n - 1 } : null;
      break;
    }
  }
  return size !== null && Number.isSafeInteger(size.n) && size.n >= 1 && Number.isFinite(size.edges)
    ? size
    : null;
}

/**
 * Bytes one membership of a closed neighbourhood costs over a simulation: peak RSS less the
 * 115 MB of a small run, `critsec simulate local-cs --graph complete:1000 --rounds 1` 820,376 KB
 * for 1,000,000 memberships (725 B), `complete:2000` 2,235,848 KB for 4,000,000 (543 B)
 * (2026-11-24): every process asks all its neighbours at once, so the messages in flight scale
 * with the memberships.
 */
const BYTES_PER_NEIGHBOUR_MEMBERSHIP = 700;

/**
 * Bytes one process of the local CS costs besides its memberships: `--graph ring:16384 --rounds 1`
 * peaked at 766,776 KB for 49,152 memberships (2026-11-27), 38 KB a process once they and the
 * small run's 115 MB are taken off — more than the default per-process cost, so that
 * `--graph random:100000:0.0001` is weighed at 4.6 GiB, not 3.2.
 */
const BYTES_PER_LOCAL_PROCESS = 40 * 1024;

/**
 * The local CS's memory on a graph of n processes and `edges` edges: Σ_i (|N_i| + 1) =
 * 2·edges + n quorum memberships (a process's closed neighbourhood is its quorum), at
 * {@link BYTES_PER_NEIGHBOUR_MEMBERSHIP} each, and n processes at {@link BYTES_PER_LOCAL_PROCESS}.
 */
function graphEstimate(text: string, n: number, edges: number): MemoryEstimate {
  return {
    n,
    memberships: 2 * edges + n,
    what: `the local CS (about ${Math.round(edges).toLocaleString('en-US')} edges)`,
    subject: `--graph ${text} (n = ${n})`,
    remedy: 'a smaller or sparser graph',
    bytesPerMembership: BYTES_PER_NEIGHBOUR_MEMBERSHIP,
    bytesPerProcess: BYTES_PER_LOCAL_PROCESS,
  };
}

/**
 * `--graph`: the notation of `parseGraph`, or a JSON file (`{ neighbors }` or `{ n, edges }`);
 * its memory weighed before the notation is built (a file's graph once read).
 */
function loadGraph(text: string, ctx: BuildContext): Graph {
  const t = text.trim();
  if (t.endsWith('.json') || ctx.isFile(t)) {
    const graph = graphFromJson(ctx.readJson(t, '--graph'));
    const edges = graph.neighbors.reduce((sum, nb) => sum + nb.length, 0) / 2;
    ctx.weigh(graphEstimate(t, graph.n, edges));
    return graph;
  }
  const size = notationSize(t);
  if (size !== null) ctx.weigh(graphEstimate(t, size.n, size.edges));
  return parseGraph(t);
}

function boundsFromFile(path: string, n: number, ctx: BuildContext): { l: number[]; k: number[] } {
  const o = ctx.readJson(path, '--bounds') as { l?: unknown; k?: unknown };
  const ok = (a: unknown): a is number[] =>
    Array.isArray(a) && a.length === n && a.every((x) => Number.isSafeInteger(x) && x >= 0);
  if (typeof o !== 'object' || o === null || !ok(o.l) || !ok(o.k)) {
    throw new ConfigurationError(
      `--bounds ${path}: expected { "l": [l_0, …], "k": [k_0, …] } with ${n} non-negative integers each (one per process of the graph)`,
    );
  }
  return { l: o.l, k: o.k };
}

/** A local algorithm's problem, factory and the tighter problem it starts and runs within (LKCS), with its leader. */
interface LocalProblem {
  readonly spec: LocalSpec;
  readonly factory: CSFactory<unknown>;
  readonly safe: LocalSpec;
  readonly leader: number | null;
}

/**
 * The problem of `algorithm` on `graph`: bounds from the file, else from `--l` / `--k` capped per
 * process, else the defaults.
 * @throws ConfigurationError for an l or k the algorithm fixes otherwise, or LKCS's
 *   preconditions.
 */
function localProblem(
  algorithm: LocalAlgorithmName,
  graph: Graph,
  file: { l: number[]; k: number[] } | undefined,
  lArg: number | undefined,
  kArg: number | undefined,
  leaderInput: ParamValue | undefined,
): LocalProblem {
  const deg = graph.neighbors.map((nb) => nb.length);
  if (algorithm === 'lmutin' && kArg !== undefined && deg.some((d) => kArg !== d + 1)) {
    throw new ConfigurationError(
      `--k ${kArg}: lmutin solves the (l_i, |N_i|+1)-CS (k_i is every process of N_i ∪ {P_i}); leave --k out, or use --algorithm lkcs for k_i < |N_i|+1`,
    );
  }
  if (algorithm === 'lmutex' && lArg !== undefined && lArg !== 0) {
    throw new ConfigurationError(
      `--l ${lArg}: lmutex solves the (0, k_i)-CS; leave --l out, or use --algorithm lkcs for l_i > 0`,
    );
  }
  switch (algorithm) {
    case 'lmutin': {
      const l = file?.l ?? deg.map((d) => Math.min(lArg ?? 1, d));
      const spec = localBounds(graph, l, (_, d) => d + 1);
      return { spec, factory: lmutin({ graph, l }) as CSFactory<unknown>, safe: spec, leader: null };
    }
    case 'lmutex': {
      const k = file?.k ?? deg.map((d) => Math.min(kArg ?? 1, d + 1));
      const spec = localBounds(graph, 0, k);
      return { spec, factory: lmutex({ graph, k }) as CSFactory<unknown>, safe: spec, leader: null };
    }
    case 'lkcs': {
      const k = file?.k ?? deg.map((d) => Math.min(kArg ?? d + 1, d + 1));
      const l = file?.l ?? deg.map((_, i) => Math.max(0, Math.min(lArg ?? 1, k[i]! - 1)));
      const leaderArg =
        leaderInput === undefined ? undefined : parseInteger('leader', leaderInput, 0, graph.n - 1);
      const plan = lkcsPlan(graph, l, k, leaderArg);
      const factory = lkcs({ graph, l, k, leader: plan.leader }) as CSFactory<unknown>;
      return { spec: plan.spec, factory, safe: plan.tightened, leader: plan.leader };
    }
  }
}

/** The bounds of Kamei & Kakugawa 2017 for `algorithm` on a graph of degrees `deg`. */
function localPaperBounds(algorithm: LocalAlgorithmName, deg: readonly number[]): BuiltAlgorithm['bounds'] {
  return {
    messagesPerPair: Math.max(...deg.map((d) => localCsBounds(algorithm, d).best)),
    waitingTimeEntry: algorithm === 'lmutin' ? 0 : 2,
    waitingTimeExit: algorithm === 'lmutex' ? 0 : 2,
    source:
      algorithm === 'lkcs'
        ? 'Kamei & Kakugawa 2017, Lemma 6 (6(|N_i|+1) per pair without contention, ≤ 12(|N_i|+1)); waiting times: one Request–Grant round trip per waiting call (derived; the paper states none)'
        : 'Kamei & Kakugawa 2017, Lemma 3 (3(|N_i|+1) per pair without contention, ≤ 6(|N_i|+1)); waiting times: one Request–Grant round trip per waiting call (derived; the paper states none)',
    formula: algorithm === 'lkcs' ? '6(max|N_i|+1)' : '3(max|N_i|+1)',
  };
}

/**
 * The local (lᵢ,kᵢ)-CS on a graph: validates the parameters and builds the graph, factory, spec
 * (lᵢ ≤ |InCS ∩ N[i]| ≤ kᵢ for every i), initial configuration and bounds (Lemma 3: 3(|Nᵢ|+1)
 * messages per pair without contention for LMUTIN and LMUTEX; Lemma 6: 6(|Nᵢ|+1) for LKCS).
 *
 * Its `build` throws ConfigurationError for an unknown algorithm or graph, a graph whose estimated memory
 *   (2·edges + n quorum memberships, footprint.ts) exceeds this process's heap — before a
 *   notation is built —, `--n` that is not the graph's size, bounds out of range (named with the process), LKCS's preconditions (no valid leader),
 *   or an initial configuration that is not safe.
 */
export const localCsDescriptor: AlgorithmDescriptor = defineAlgorithm({
  name: 'local-cs',
  title: 'the local (lᵢ,kᵢ)-CS on a graph: LMUTIN, LMUTEX, LKCS (Kamei & Kakugawa 2017, Algorithms 1–7)',
  defaultN: null,
  // issue 27: LMUTIN, LMUTEX (its complement) and LKCS objects are DurableCSObjects
  crashRecovery: true,
  params: params({
    algorithm: param(`the local algorithm: ${LOCAL_ALGORITHM_NAMES.join(', ')} (default lmutin)`),
    graph: param(
      'the graph: ring:N, grid:RxC, star:L, complete:N, random:N:P[:SEED], abilene, or a JSON file (default ring:20)',
    ),
    l: param('at least l_i InCS in each closed neighbourhood (capped to |N_i|; default 1)'),
    k: param('at most k_i InCS in each closed neighbourhood (capped to |N_i|+1)'),
    bounds: param('per-process bounds from a JSON file { "l": [...], "k": [...] } instead of l and k'),
    leader: param('lkcs: the leader P_LDR (default: a valid one of highest degree)'),
    init: param(
      'initial configuration: default (a safe one for the bounds), none, all, first:M, or ids like 0,3,7',
    ),
  }),
  build(values, givenN, ctx) {
    const algorithm = parseChoice('algorithm', String(values.algorithm ?? 'lmutin'), LOCAL_ALGORITHM_NAMES);
    const graphText = String(values.graph ?? 'ring:20');
    const graph = loadGraph(graphText, ctx);
    const n = graph.n;
    if (givenN !== undefined && givenN !== n) {
      throw new ConfigurationError(`--n ${givenN}: the graph ${graphText} has ${n} processes; leave --n out`);
    }
    const deg = graph.neighbors.map((nb) => nb.length);
    const boundsPath = values.bounds === undefined ? undefined : String(values.bounds);
    const file = boundsPath === undefined ? undefined : boundsFromFile(boundsPath, n, ctx);
    const lArg = values.l === undefined ? undefined : parseInteger('l', values.l, 0);
    const kArg = values.k === undefined ? undefined : parseInteger('k', values.k, 1);
    const { spec, factory, safe, leader } = localProblem(algorithm, graph, file, lArg, kArg, values.leader);
    const init = String(values.init ?? 'default');
    const initial = init === 'default' ? safeInitial(safe) : parseInit(init, n, 0);
    const unsafe = checkConfiguration(safe, initial);
    if (unsafe !== null) {
      throw new ConfigurationError(
        `--init ${init}: not a safe initial configuration for ${algorithm} on ${graphText}: ${unsafe.message}${algorithm === 'lkcs' ? ' (LKCS starts within its tightened bounds L_i, K_i)' : ''}; leave --init out for a safe one`,
      );
    }
    const minL = Math.min(...spec.l);
    const maxK = Math.max(...spec.k);
    const edges = deg.reduce((a, b) => a + b, 0) / 2;
    return {
      n,
      l: minL,
      k: maxK,
      coterieName: null,
      coterieDescription: null,
      quorumSize: { min: Math.min(...deg) + 1, max: Math.max(...deg) + 1 },
      mx: null,
      structure: `${algorithm} on ${graphText} (${n} processes, ${edges} edges, |N_i| ${Math.min(...deg)}–${Math.max(...deg)}), l_i ${minL}–${Math.max(...spec.l)}, k_i ${Math.min(...spec.k)}–${maxK}${leader === null ? '' : `, leader P${leader}`}`,
      options: {
        algorithm,
        graph: graphText,
        ...(file === undefined
          ? { ...(lArg === undefined ? {} : { l: lArg }), ...(kArg === undefined ? {} : { k: kArg }) }
          : { bounds: boundsPath! }),
        ...(leader === null ? {} : { leader }),
      },
      spec,
      sequentialSpec: algorithm === 'lkcs' ? safe : null,
      factory,
      request: null,
      requestDescription: null,
      initial,
      initialDescription: `${describeInitial(initial)}${init === 'default' ? ' (default: a safe configuration for the bounds)' : ''}`,
      init: initial.flatMap((s, i) => (s === 'InCS' ? [i] : [])).join(',') || 'none',
      bounds: localPaperBounds(algorithm, deg),
    };
  },
});
