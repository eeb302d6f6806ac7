/*
 * The algorithms `critsec` runs, and the validation of everything that describes a cluster
 * (algorithm, n, l, k, coterie, mx, initial configuration) before anything runs — DESIGN.md 3.4.
 * Every bad value is a `ConfigurationError` whose one-line message says what was wrong and what
 * is accepted; the CLI turns it into exit code 2.
 */
import {
  ConfigurationError,
  type CSFactory,
  type CSState,
  checkConfiguration,
  type GlobalSpec,
  globalSpec,
} from '@critsec/core';
import { type Coterie, quorumSizes } from '@critsec/coteries';
import { gcs, kMutex } from '@critsec/gcs';
import { maekawa, ricartAgrawala } from '@critsec/mutex';
import { mutin } from '@critsec/mutin';
import { type AlgorithmName, type MxName, type PaperBounds, paperBounds } from './bounds.js';
import { buildCoterie, COTERIE_NAMES, type CoterieName, isCoterieName } from './coterie-choice.js';

/** The algorithms, in the order the CLI lists them. */
export const ALGORITHM_NAMES: readonly AlgorithmName[] = [
  'mutex',
  'ricart-agrawala',
  'mutin',
  'kmutex',
  'gcs',
];

/** The mutual exclusions MUTIN can use. */
export const MX_NAMES: readonly MxName[] = ['maekawa', 'ricart-agrawala'];

/** One line per algorithm: what it solves and where it comes from. */
export const ALGORITHM_TITLES: Readonly<Record<AlgorithmName, string>> = {
  mutex: "Maekawa's quorum mutual exclusion (Maekawa 1985, Sanders 1987)",
  'ricart-agrawala': 'Ricart–Agrawala mutual exclusion, the O(n) baseline (CACM 1981)',
  mutin: 'MUTIN(l), l-mutual inclusion (Kamei & Kakugawa 2019, Sec. 4, Algorithms 1–2)',
  kmutex: 'k-mutual exclusion = Co-MUTIN(n−k) (Kamei & Kakugawa 2019, Sec. 5, Thm. 1)',
  gcs: '(l,k)-GCS = compose(MUTIN(l), Co-MUTIN(n−k)) (Kamei & Kakugawa 2019, Sec. 5, Algorithm 3)',
};

/** True if `name` is one of {@link ALGORITHM_NAMES}. */
export function isAlgorithmName(name: string): name is AlgorithmName {
  return (ALGORITHM_NAMES as readonly string[]).includes(name);
}

/** What describes a cluster, as given on the command line (strings) or by a program (numbers). */
export interface ClusterInput {
  /** `mutex`, `ricart-agrawala`, `mutin`, `kmutex` or `gcs`. */
  readonly algorithm: string;
  /** Number of processes (default 25). */
  readonly n?: number | string;
  /** Lower bound l (gcs, mutin; default 3, capped to fit n). */
  readonly l?: number | string;
  /** Upper bound k (gcs, kmutex; default 10, capped to n). */
  readonly k?: number | string;
  /** Coterie construction (default `grid`); ignored by ricart-agrawala. */
  readonly coterie?: string;
  /** MUTIN's mutual exclusion (mutin, kmutex, gcs; default `maekawa`). */
  readonly mx?: string;
  /**
   * The initial configuration: `default` (the first l processes InCS, the rest OutCS), `none`
   * (all OutCS), `all`, `first:M` (P0 … P(M−1) InCS), or a comma-separated list of the process
   * ids InCS (`0,4,7`). Must be safe: l ≤ #InCS ≤ k.
   */
  readonly init?: string;
}

/** A validated cluster description, ready to run. */
export interface ResolvedCluster {
  readonly algorithm: AlgorithmName;
  readonly n: number;
  /** The problem's l and k (mutex and ricart-agrawala: 0 and 1; mutin: k = n; kmutex: l = 0). */
  readonly l: number;
  readonly k: number;
  /** The coterie's construction, `null` for ricart-agrawala. */
  readonly coterieName: CoterieName | null;
  readonly coterie: Coterie | null;
  /** Smallest and largest |Q_i|, `null` for ricart-agrawala. */
  readonly quorumSize: { readonly min: number; readonly max: number } | null;
  /** MUTIN's mutual exclusion, `null` for mutex and ricart-agrawala. */
  readonly mx: MxName | null;
  /** The safety property checked: the global (l,k)-CS. */
  readonly spec: GlobalSpec;
  readonly factory: CSFactory;
  readonly initial: readonly CSState[];
  /** The initial configuration in words, e.g. `P0–P2 InCS, the rest OutCS (default: the first l)`. */
  readonly initialDescription: string;
  /** The `--init` text that reproduces it. */
  readonly init: string;
  readonly bounds: PaperBounds;
  readonly title: string;
}

/**
 * Parses an integer option.
 * @throws ConfigurationError `--name must be an integer ≥ min, got '…'`.
 */
export function parseInteger(name: string, value: number | string, min: number, max?: number): number {
  const text = String(value).trim();
  const x = typeof value === 'number' ? value : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  const range = max === undefined ? `≥ ${min}` : `in ${min}..${max}`;
  if (!Number.isSafeInteger(x) || x < min || (max !== undefined && x > max)) {
    throw new ConfigurationError(`--${name} must be an integer ${range}, got '${text}'`);
  }
  return x;
}

/**
 * Parses a non-negative number option (times).
 * @throws ConfigurationError `--name must be a number ≥ 0, got '…'`.
 */
export function parseNonNegative(name: string, value: number | string): number {
  const text = String(value).trim();
  const x = typeof value === 'number' ? value : text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(x) || x < 0)
    throw new ConfigurationError(`--${name} must be a number ≥ 0, got '${text}'`);
  return x;
}

/**
 * Parses one of a fixed set of words.
 * @throws ConfigurationError `unknown <what> '…'; accepted: a, b, c`.
 */
export function parseChoice<T extends string>(what: string, value: string, accepted: readonly T[]): T {
  if ((accepted as readonly string[]).includes(value)) return value as T;
  throw new ConfigurationError(`unknown ${what} '${value}'; accepted: ${accepted.join(', ')}`);
}

function describeInitial(initial: readonly CSState[]): string {
  const ids = initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  if (ids.length === 0) return 'every process OutCS';
  if (ids.length === initial.length) return 'every process InCS';
  const contiguous = ids.every((id, t) => id === t);
  const who = contiguous
    ? ids.length === 1
      ? 'P0'
      : `P0–P${ids.length - 1}`
    : ids.length <= 8
      ? ids.map((i) => `P${i}`).join(', ')
      : `${ids
          .slice(0, 8)
          .map((i) => `P${i}`)
          .join(', ')}, … (${ids.length} processes)`;
  return `${who} InCS, the rest OutCS`;
}

/**
 * Parses `--init` for n processes (see {@link ClusterInput.init}); `defaultInCS` is the number of
 * processes InCS under `default`.
 * @throws ConfigurationError for an unknown form or a process id out of range.
 */
export function parseInit(text: string, n: number, defaultInCS: number): CSState[] {
  const t = text.trim();
  const states = (inCS: (i: number) => boolean): CSState[] =>
    Array.from({ length: n }, (_, i) => (inCS(i) ? 'InCS' : 'OutCS'));
  if (t === 'default') return states((i) => i < defaultInCS);
  if (t === 'none') return states(() => false);
  if (t === 'all') return states(() => true);
  const first = /^first:(\d+)$/.exec(t);
  if (first) {
    const m = Number(first[1]);
    if (m > n) throw new ConfigurationError(`--init first:${m}: there are only n = ${n} processes`);
    return states((i) => i < m);
  }
  if (/^\d+(,\d+)*$/.test(t)) {
    const ids = new Set(t.split(',').map(Number));
    for (const id of ids) {
      if (id >= n) {
        throw new ConfigurationError(`--init: process ${id} is out of range; processes are 0..${n - 1}`);
      }
    }
    return states((i) => ids.has(i));
  }
  throw new ConfigurationError(
    `--init '${text}' is not understood; accepted: default, none, all, first:M, or the ids InCS as a list like 0,3,7`,
  );
}

const DEFAULT_N = 25;
const DEFAULT_L = 3;
const DEFAULT_K = 10;

/**
 * Validates a cluster description and builds its coterie, factory, safety spec, initial
 * configuration and the papers' bounds. Nothing runs yet.
 *
 * Defaults: n = 25, grid coterie, Maekawa as mx; l = 3 and k = 10, capped to fit n (k ≤ n,
 * l < k); the initial configuration `default`: the first l processes InCS.
 *
 * @throws ConfigurationError (one line: what was wrong, what is accepted) for an unknown
 *   algorithm, coterie or mx; n < 1; l ≥ k or k > n; an l or k that the algorithm fixes
 *   (mutex and ricart-agrawala solve (0,1), mutin (l,n), kmutex (0,k)); a coterie construction
 *   that does not exist for n; an initial configuration that is not safe.
 */
export function resolveCluster(input: ClusterInput): ResolvedCluster {
  const algorithm = parseChoice('algorithm', input.algorithm, ALGORITHM_NAMES);
  const n = parseInteger('n', input.n ?? DEFAULT_N, 1);
  const givenL = input.l === undefined ? undefined : parseInteger('l', input.l, 0);
  const givenK = input.k === undefined ? undefined : parseInteger('k', input.k, 1);
  let l: number;
  let k: number;
  const fixed = (what: string, name: 'l' | 'k', value: number | undefined, must: number) => {
    if (value !== undefined && value !== must) {
      throw new ConfigurationError(
        `${algorithm} solves ${what}, so --${name} must be ${must} (or left out), got ${value}`,
      );
    }
  };
  switch (algorithm) {
    case 'mutex':
    case 'ricart-agrawala':
      fixed('mutual exclusion, the (0,1)-CS', 'l', givenL, 0);
      fixed('mutual exclusion, the (0,1)-CS', 'k', givenK, 1);
      l = 0;
      k = 1;
      break;
    case 'mutin':
      fixed(`l-mutual inclusion, the (l,n)-CS`, 'k', givenK, n);
      k = n;
      l = givenL ?? Math.min(DEFAULT_L, n - 1);
      break;
    case 'kmutex':
      fixed('k-mutual exclusion, the (0,k)-CS', 'l', givenL, 0);
      l = 0;
      k = givenK ?? Math.min(DEFAULT_K, n);
      break;
    case 'gcs':
      k = givenK ?? Math.min(DEFAULT_K, n);
      l = givenL ?? Math.max(0, Math.min(DEFAULT_L, k - 1));
      break;
  }
  if (l >= k) {
    throw new ConfigurationError(
      `--l must be smaller than --k: the (l,k)-CS needs 0 ≤ l < k ≤ n; got l = ${l}, k = ${k} (n = ${n})`,
    );
  }
  if (k > n) {
    throw new ConfigurationError(
      `--k must be at most --n: the (l,k)-CS needs 0 ≤ l < k ≤ n; got k = ${k}, n = ${n}`,
    );
  }
  const spec = globalSpec(l, k, n);

  let coterieName: CoterieName | null = null;
  let coterie: Coterie | null = null;
  if (algorithm !== 'ricart-agrawala') {
    coterieName = parseChoice('coterie', input.coterie ?? 'grid', COTERIE_NAMES);
    if (!isCoterieName(coterieName)) throw new Error('unreachable');
    coterie = buildCoterie(coterieName, n);
  }
  const usesMx = algorithm === 'mutin' || algorithm === 'kmutex' || algorithm === 'gcs';
  const mx = usesMx ? parseChoice('mx', input.mx ?? 'maekawa', MX_NAMES) : null;

  const init = input.init ?? 'default';
  const initial = parseInit(init, n, l);
  const unsafe = checkConfiguration(spec, initial);
  if (unsafe !== null) {
    const inCS = initial.filter((s) => s === 'InCS').length;
    throw new ConfigurationError(
      `--init ${init}: ${inCS} process(es) InCS is not a safe initial configuration for the (${l},${k})-CS over ${n} processes; it needs between ${l} and ${k} InCS (e.g. --init first:${l})`,
    );
  }
  const initialDescription = `${describeInitial(initial)}${init === 'default' ? ' (default: the first l InCS)' : ''}`;

  const sizes = coterie === null ? null : quorumSizes(coterie);
  const quorumSize = sizes === null ? null : { min: sizes.min, max: sizes.max };
  const mxFactory = (): CSFactory =>
    mx === 'ricart-agrawala' ? ricartAgrawala() : maekawa({ coterie: coterie as Coterie });
  let factory: CSFactory;
  switch (algorithm) {
    case 'mutex':
      factory = maekawa({ coterie: coterie as Coterie });
      break;
    case 'ricart-agrawala':
      factory = ricartAgrawala();
      break;
    case 'mutin':
      factory = mutin({ l, coterie: coterie as Coterie, mx: mxFactory() });
      break;
    case 'kmutex':
      factory = kMutex({ k, coterie: coterie as Coterie, mx: mxFactory() });
      break;
    case 'gcs':
      factory = gcs({ l, k, coterie: coterie as Coterie, mx: mxFactory() });
      break;
  }
  const bounds = paperBounds({ algorithm, n, maxQuorum: quorumSize?.max ?? 0, ...(mx ? { mx } : {}) });
  return {
    algorithm,
    n,
    l,
    k,
    coterieName,
    coterie,
    quorumSize,
    mx,
    spec,
    factory,
    initial,
    initialDescription,
    init,
    bounds,
    title: ALGORITHM_TITLES[algorithm],
  };
}
