/*
 * The global (l,k)-CS family the CLI runs — Maekawa's mutual exclusion, Ricart–Agrawala,
 * MUTIN(l), k-mutual exclusion = Co-MUTIN(n−k) and the (l,k)-GCS — over the coterie
 * constructions of `coterie-choice.ts` (DESIGN.md 3.4).
 */
import { ConfigurationError, type CSFactory, checkConfiguration, globalSpec } from '@critsec/core';
import { type Coterie, quorumSizes } from '@critsec/coteries';
import { gcs, kMutex } from '@critsec/gcs';
import { maekawa, ricartAgrawala } from '@critsec/mutex';
import { mutin } from '@critsec/mutin';
import { type MxName, paperBounds } from './bounds.js';
import { ALGORITHM_TITLES, type GlobalAlgorithmName } from './catalog.js';
import { buildCoterie, COTERIE_NAMES, type CoterieName, isCoterieName } from './coterie-choice.js';
import { checkFootprint } from './footprint.js';
import { describeInitial, parseChoice, parseInit, parseInteger } from './option-values.js';
import type { ClusterInput, ResolvedCluster } from './resolved.js';

/** The mutual exclusions MUTIN can use. */
export const MX_NAMES: readonly MxName[] = ['maekawa', 'ricart-agrawala'];

const DEFAULT_N = 25;
const DEFAULT_L = 3;
const DEFAULT_K = 10;

/**
 * The (l, k) of a global algorithm over n processes: the given ones, those the algorithm fixes,
 * else the defaults capped to fit n.
 * @throws ConfigurationError for an l or k the algorithm fixes otherwise, l ≥ k, or k > n.
 */
function globalLK(
  algorithm: GlobalAlgorithmName,
  n: number,
  givenL: number | undefined,
  givenK: number | undefined,
): { l: number; k: number } {
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
  return { l, k };
}

/**
 * The initial configuration `init` of the (l,k)-CS over n processes, and its description.
 * @throws ConfigurationError when it is not safe.
 */
function globalInitial(
  init: string,
  n: number,
  l: number,
  k: number,
): Pick<ResolvedCluster, 'initial' | 'initialDescription'> {
  const initial = parseInit(init, n, l);
  const unsafe = checkConfiguration(globalSpec(l, k, n), initial);
  if (unsafe !== null) {
    const inCS = initial.filter((s) => s === 'InCS').length;
    throw new ConfigurationError(
      `--init ${init}: ${inCS} process(es) InCS is not a safe initial configuration for the (${l},${k})-CS over ${n} processes; it needs between ${l} and ${k} InCS (e.g. --init first:${l})`,
    );
  }
  return {
    initial,
    initialDescription: `${describeInitial(initial)}${init === 'default' ? ' (default: the first l InCS)' : ''}`,
  };
}

/** The factory of a global algorithm over `coterie` (none for ricart-agrawala), with `mx` as MUTIN's mutual exclusion. */
function globalFactory(
  algorithm: GlobalAlgorithmName,
  l: number,
  k: number,
  coterie: Coterie | null,
  mx: MxName | null,
): CSFactory {
  const mxFactory = (): CSFactory =>
    mx === 'ricart-agrawala' ? ricartAgrawala() : maekawa({ coterie: coterie as Coterie });
  switch (algorithm) {
    case 'mutex':
      return maekawa({ coterie: coterie as Coterie });
    case 'ricart-agrawala':
      return ricartAgrawala();
    case 'mutin':
      return mutin({ l, coterie: coterie as Coterie, mx: mxFactory() });
    case 'kmutex':
      return kMutex({ k, coterie: coterie as Coterie, mx: mxFactory() });
    case 'gcs':
      return gcs({ l, k, coterie: coterie as Coterie, mx: mxFactory() });
  }
}

/**
 * Validates a cluster description of the global family and builds its coterie, factory, safety
 * spec, initial configuration and the papers' bounds. Nothing runs yet.
 *
 * Defaults: n = 25, grid coterie, Maekawa as mx; l = 3 and k = 10, capped to fit n (k ≤ n,
 * l < k); the initial configuration `default`: the first l processes InCS.
 *
 * @throws ConfigurationError (one line: what was wrong, what is accepted) for an unknown
 *   algorithm, coterie or mx; n < 1; l ≥ k or k > n; an l or k that the algorithm fixes
 *   (mutex and ricart-agrawala solve (0,1), mutin (l,n), kmutex (0,k)); a coterie construction
 *   that does not exist for n; an initial configuration that is not safe; an n whose estimated
 *   memory exceeds this process's heap ({@link checkFootprint}, in `buildCoterie` for a coterie).
 */
export function resolveGlobal(algorithm: GlobalAlgorithmName, input: ClusterInput): ResolvedCluster {
  const n = parseInteger('n', input.n ?? DEFAULT_N, 1);
  const givenL = input.l === undefined ? undefined : parseInteger('l', input.l, 0);
  const givenK = input.k === undefined ? undefined : parseInteger('k', input.k, 1);
  const { l, k } = globalLK(algorithm, n, givenL, givenK);
  const spec = globalSpec(l, k, n);

  let coterieName: CoterieName | null = null;
  let coterie: Coterie | null = null;
  if (algorithm !== 'ricart-agrawala') {
    coterieName = parseChoice('coterie', input.coterie ?? 'grid', COTERIE_NAMES);
    if (!isCoterieName(coterieName)) throw new Error('unreachable');
    coterie = buildCoterie(coterieName, n);
  } else {
    checkFootprint({ n, memberships: n * n, what: 'Ricart–Agrawala (every process talks to every other)' });
  }
  const usesMx = algorithm === 'mutin' || algorithm === 'kmutex' || algorithm === 'gcs';
  const mx = usesMx ? parseChoice('mx', input.mx ?? 'maekawa', MX_NAMES) : null;

  const init = input.init ?? 'default';
  const { initial, initialDescription } = globalInitial(init, n, l, k);
  const sizes = coterie === null ? null : quorumSizes(coterie);
  const quorumSize = sizes === null ? null : { min: sizes.min, max: sizes.max };
  const factory = globalFactory(algorithm, l, k, coterie, mx);
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
    structure: null,
    options: {
      ...(algorithm === 'gcs' || algorithm === 'mutin' ? { l } : {}),
      ...(algorithm === 'gcs' || algorithm === 'kmutex' ? { k } : {}),
      ...(coterieName === null ? {} : { coterie: coterieName }),
      ...(mx === null || mx === 'maekawa' ? {} : { mx }),
    },
    spec,
    sequentialSpec: null,
    factory: factory as CSFactory<unknown>,
    request: null,
    requestDescription: null,
    initial,
    initialDescription,
    init,
    bounds,
    title: ALGORITHM_TITLES[algorithm],
  };
}
