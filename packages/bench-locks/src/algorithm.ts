/**
 * The critsec algorithms of the table, as a cluster algorithm module of `@critsec/cluster`
 * (`createFactory(params, { n, initial })`) and as the settings each row runs: Maekawa's
 * algorithm over the grid coterie (`@critsec/mutex` `maekawa`, Maekawa 1985) and the (l,k)-GCS
 * with (l,k) = (1,3) (`@critsec/gcs`, Kakugawa's compose(MUTIN(l), Co-MUTIN(n−k)), Algorithm 3),
 * both resolved by `resolveCluster`, the registry `critsec simulate` / `critsec cluster` use.
 */
import { type ClusterAlgorithmModule, resolveCluster } from '@critsec/cluster';
import { ConfigurationError, type CSState } from '@critsec/core';

/** `params` of a bench cluster: a `critsec` algorithm name and its options. */
interface BenchAlgorithmParams {
  /** `mutex` (Maekawa) or `gcs`. */
  readonly algorithm: 'mutex' | 'gcs';
  readonly coterie: string;
  readonly l?: number;
  readonly k?: number;
  /** Maekawa's fencing tokens (issue 28 §2). */
  readonly fencing?: boolean;
  /** Maekawa's time-bounded grants, ms (issue 28 §1; implies fencing). */
  readonly ttl?: number;
}

/** One critsec system of the table. */
export interface BenchAlgorithm {
  /** Row label. */
  readonly label: string;
  readonly params: BenchAlgorithmParams;
  /** The initial configuration (GCS with l = 1 starts with P0 InCS). */
  readonly initial: readonly CSState[];
  /** The member that makes the uncontended rounds (one that starts OutCS). */
  readonly driver: number;
  /** Bounds of the shared-log check: (0,1) for mutual exclusion. */
  readonly bounds: { readonly l: number; readonly k: number };
  /** Durable members (issue 27): each commits its state to its LMDB store once per turn before its messages leave. */
  readonly durable?: true;
}

/** Maekawa over the grid coterie at n processes. */
export function maekawaGrid(n: number): BenchAlgorithm {
  return {
    label: 'Maekawa (grid)',
    params: { algorithm: 'mutex', coterie: 'grid' },
    initial: new Array<CSState>(n).fill('OutCS'),
    driver: 0,
    bounds: { l: 0, k: 1 },
  };
}

/** Maekawa over the grid coterie at n processes, durable members (an LMDB store each, `durability` of `@critsec/cluster`). */
export function maekawaGridDurable(n: number): BenchAlgorithm {
  return { ...maekawaGrid(n), label: 'Maekawa (grid), durable', durable: true };
}

/**
 * Maekawa over the grid coterie with fencing tokens (issue 28 §2: one more round trip, CONFIRM /
 * CONFIRMED, per entry) and, with `ttlMs`, time-bounded grants renewed every ttl / 3; `durable`
 * adds the synced write of the arbiters' highest token seen — the fair comparison with etcd's lock,
 * whose revision is its fencing token and which syncs every write.
 */
export function maekawaGridFenced(n: number, o: { ttlMs?: number; durable?: boolean } = {}): BenchAlgorithm {
  const plain = maekawaGrid(n);
  const what = o.ttlMs === undefined ? 'fencing' : `fencing, ttl ${o.ttlMs} ms`;
  return {
    ...plain,
    label: `Maekawa (grid), ${what}${o.durable === true ? ', durable' : ''}`,
    params: { ...plain.params, fencing: true, ...(o.ttlMs === undefined ? {} : { ttl: o.ttlMs }) },
    ...(o.durable === true ? { durable: true as const } : {}),
  };
}

/** The (1,3)-GCS over the grid coterie at n processes, P0 initially InCS. */
export function gcsGrid(n: number): BenchAlgorithm {
  return {
    label: 'GCS (l = 1, k = 3, grid)',
    params: { algorithm: 'gcs', coterie: 'grid', l: 1, k: 3 },
    initial: Array.from({ length: n }, (_, i): CSState => (i === 0 ? 'InCS' : 'OutCS')),
    driver: 1,
    bounds: { l: 1, k: 3 },
  };
}

function isParams(x: unknown): x is BenchAlgorithmParams {
  const p = x as Partial<BenchAlgorithmParams> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    (p.algorithm === 'mutex' || p.algorithm === 'gcs') &&
    typeof p.coterie === 'string'
  );
}

/**
 * The module the bench members run (registered under the name {@link BENCH_ALGORITHM}).
 * `createFactory` throws ConfigurationError for params that are not {@link BenchAlgorithmParams},
 * and (from `resolveCluster`) for bounds or an initial configuration that do not fit n.
 */
export const benchAlgorithm: ClusterAlgorithmModule = {
  createFactory(params, { n, initial }) {
    if (!isParams(params)) {
      throw new ConfigurationError(
        `bench-locks: params must be { algorithm: mutex|gcs, coterie, l?, k?, fencing?, ttl? }, got ${JSON.stringify(params)}`,
      );
    }
    const inCS = initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
    return resolveCluster({
      algorithm: params.algorithm,
      n,
      params: {
        coterie: params.coterie,
        ...(params.l === undefined ? {} : { l: params.l }),
        ...(params.k === undefined ? {} : { k: params.k }),
        ...(params.fencing === undefined ? {} : { fencing: String(params.fencing) }),
        ...(params.ttl === undefined ? {} : { ttl: params.ttl }),
        init: inCS.length === 0 ? 'none' : inCS.join(','),
      },
    }).factory;
  },
};

/** The registry name of {@link benchAlgorithm} in bench cluster configurations. */
export const BENCH_ALGORITHM = 'bench-locks';
