/**
 * The algorithm module the OS-process clusters of these tests run (the plug-in point of
 * `@critsec/cluster`'s launcher: a module exporting `createFactory(params, { n, initial })`).
 * It names no algorithm itself: it hands `params` to `resolveCluster` of `@critsec/cluster`, the
 * registry `critsec simulate` / `critsec cluster` use, so the same names, defaults and
 * validation apply (`mutex` = Maekawa, `ricart-agrawala`, `mutin`, `kmutex`, `gcs`; coteries by
 * name, e.g. `grid`; `mx` = `maekawa` or `ricart-agrawala`).
 */
import { ConfigurationError, type CSFactory, type CSState } from '@critsec/core';
import { resolveCluster } from '@critsec/cluster';

/** What a cluster configuration's `params` holds for this module. */
export interface ClusterAlgorithmParams {
  /** `mutex`, `ricart-agrawala`, `mutin`, `kmutex` or `gcs` (the names of `critsec`). */
  readonly algorithm: string;
  readonly l?: number;
  readonly k?: number;
  /** A coterie construction name of `critsec` (default `grid`). */
  readonly coterie?: string;
  /** MUTIN's mutual exclusion: `maekawa` (default) or `ricart-agrawala`. */
  readonly mx?: string;
  /** Maekawa's quorum reselection (issue 28 §4): `on` or `off` (default). */
  readonly reselect?: string;
  /** Maekawa's fencing tokens (issue 28 §2): `true` or `false` (default). */
  readonly fencing?: string;
  /** Maekawa's grant ttl, ms (issue 28 §1; default none). */
  readonly ttl?: number;
  /** Maekawa's drift margin, ms (default ttl / 10). */
  readonly driftMargin?: number;
}

function isParams(x: unknown): x is ClusterAlgorithmParams {
  return typeof x === 'object' && x !== null && typeof (x as { algorithm?: unknown }).algorithm === 'string';
}

/**
 * Builds the factory named by `params` for a cluster of `n` processes starting in `initial`.
 * @throws ConfigurationError for params without an algorithm name, and (from `resolveCluster`)
 *   for an unknown algorithm, coterie or mx, bounds that do not fit n, or an unsafe `initial`.
 */
export function createFactory(
  params: unknown,
  cluster: { readonly n: number; readonly initial: readonly CSState[] },
): CSFactory<unknown> {
  if (!isParams(params)) {
    throw new ConfigurationError(
      `cluster-algorithm: params must be { algorithm, l?, k?, coterie?, mx?, reselect?, fencing?, ttl?, driftMargin? }, got ${JSON.stringify(params)}`,
    );
  }
  const inCS = cluster.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  return resolveCluster({
    algorithm: params.algorithm,
    n: cluster.n,
    params: {
      ...(params.l === undefined ? {} : { l: params.l }),
      ...(params.k === undefined ? {} : { k: params.k }),
      ...(params.coterie === undefined ? {} : { coterie: params.coterie }),
      ...(params.mx === undefined ? {} : { mx: params.mx }),
      ...(params.reselect === undefined ? {} : { reselect: params.reselect }),
      ...(params.fencing === undefined ? {} : { fencing: params.fencing }),
      ...(params.ttl === undefined ? {} : { ttl: params.ttl }),
      ...(params.driftMargin === undefined ? {} : { driftMargin: params.driftMargin }),
      init: inCS.length === 0 ? 'none' : inCS.join(','),
    },
  }).factory;
}
