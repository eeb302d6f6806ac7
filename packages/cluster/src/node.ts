/*
 * The member of a `critsec` cluster (`critsec node --config cluster.json --id 3`: one member of a
 * real deployment, DESIGN.md 5), over the TCP/TLS transport of @critsec/transport-tcp and the
 * cluster configuration format of cluster-config.ts (`loadClusterConfig`); also the member
 * process `critsec cluster` spawns through the launcher (node-main.ts).
 *
 * The member machinery is `runClusterNode` (cluster-node.ts: transport, shared log, the DONE and
 * BYE barriers on its control channel, the report); this file brings the algorithm by name:
 * the algorithm, resolved and validated from `algorithm` and `params` (`clusterFromConfig`), and the
 * workload of member-workload.ts — the concurrent workload of `critsec simulate` in wall-clock
 * time (finished members cycle uncounted until every member has finished, then withdraw their
 * call in flight), or with `params.workload: 'sequential'` one call in flight in the whole
 * cluster, coordinated by member 0 — with every message counted and attributed.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import type { TcpLogger } from '@critsec/transport-tcp';
import * as v from 'valibot';
import { resolveCluster } from './algorithms.js';
import { type LoadedClusterConfig, loadClusterConfig } from './cluster-config.js';
import { type ClusterNodeProgress, type ClusterNodeReport, runClusterNode } from './cluster-node.js';
import { memberWorkload, type NodeMeasurements } from './member-workload.js';
import type { ResolvedCluster } from './resolved.js';

const paramsSchema = v.strictObject({
  l: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  k: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  coterie: v.optional(v.string()),
  mx: v.optional(v.string()),
  /** h-out-of-k: `uniform` or `cube`; the units per entry (a number or `random`). */
  arbiter: v.optional(v.string()),
  h: v.optional(v.union([v.pipe(v.number(), v.safeInteger(), v.minValue(1)), v.literal('random')])),
  /** group-mutex: groups, variant, group quorum system. */
  m: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  variant: v.optional(v.picklist(['M', 'S'])),
  system: v.optional(v.string()),
  /** local-cs: `lmutin`, `lmutex` or `lkcs`; the graph (notation or JSON file); per-process bounds file; the leader. */
  localAlgorithm: v.optional(v.string()),
  graph: v.optional(v.string()),
  boundsFile: v.optional(v.string()),
  leader: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  seed: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  workload: v.optional(v.picklist(['concurrent', 'sequential'])),
});

/**
 * The algorithm settings `critsec` keeps in a cluster configuration's `params` (the algorithm
 * itself is the configuration's `algorithm`: mutex, ricart-agrawala, mutin, kmutex or gcs).
 */
export interface NodeParams {
  /** (l,k)-CS: the least number of processes InCS, an integer ≥ 0 (mutin, gcs). */
  l?: number | undefined;
  /** (l,k)-CS: the greatest number of processes InCS, an integer ≥ 1 (kmutex, gcs; h-out-of-k: the units). */
  k?: number | undefined;
  /** The coterie (a name of `COTERIE_NAMES`, e.g. `grid`, `majority`). */
  coterie?: string | undefined;
  /** The mutual exclusion MUTIN(l) runs on (a name of `MX_NAMES`). */
  mx?: string | undefined;
  /** h-out-of-k: the (h,k)-arbiter, `uniform` or `cube`. */
  arbiter?: string | undefined;
  /** h-out-of-k: the units per entry, an integer ≥ 1, or `random` (drawn per entry). */
  h?: number | 'random' | undefined;
  /** group-mutex: the number of groups, an integer ≥ 1. */
  m?: number | undefined;
  /** group-mutex: Maekawa_M or Maekawa_S. */
  variant?: 'M' | 'S' | undefined;
  /** group-mutex: the group quorum system. */
  system?: string | undefined;
  /** local-cs: `lmutin`, `lmutex` or `lkcs`. */
  localAlgorithm?: string | undefined;
  /** local-cs: the graph (notation or JSON file). */
  graph?: string | undefined;
  /** local-cs: the per-process bounds file. */
  boundsFile?: string | undefined;
  /** local-cs: the leader, a process id. */
  leader?: number | undefined;
  /** Seed of the workload's think and hold times and request draws, an integer ≥ 0. */
  seed?: number | undefined;
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  workload?: 'concurrent' | 'sequential' | undefined;
}

/** Holds when the schema's output and the documented interface are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const paramsMatchInterface: SameType<v.InferOutput<typeof paramsSchema>, NodeParams> = true;
void paramsMatchInterface;

/** The entries of `o` under `keys` that are defined. */
function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (o[key] !== undefined) out[key] = o[key];
  return out;
}

/** A member's report: `runClusterNode`'s fields plus `cli`, the measurements of `critsec`'s workload. */
export interface NodeReport extends ClusterNodeReport {
  /** The measurements of `critsec`'s member workload. */
  readonly cli: NodeMeasurements;
}

/** Options of {@link runNode}. */
export interface RunNodeOptions {
  /** Path of `cluster.json`. */
  readonly configPath: string;
  /** This process's id. */
  readonly id: ProcessId;
  /** Called at each step of the member's run (ready, round finished, peer down, …). */
  readonly onProgress?: (p: ClusterNodeProgress) => void;
  /** Transport warnings (default: none). */
  readonly logger?: TcpLogger | null;
}

/**
 * Reads the algorithm part of a cluster configuration (`algorithm`, `params`, `initial`,
 * `bounds`) into a validated cluster.
 * @throws ConfigurationError naming the field when it is not one `critsec` can run.
 */
export function clusterFromConfig(loaded: LoadedClusterConfig): ResolvedCluster & {
  /** Seed of the workload's think and hold times and request draws (`params.seed`, default 1). */
  seed: number;
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  workload: 'concurrent' | 'sequential';
} {
  const { config } = loaded;
  const p = v.safeParse(paramsSchema, config.params ?? {});
  if (!p.success) {
    const issue = p.issues[0]!;
    const path = issue.path?.map((x) => String(x.key)).join('.') ?? '';
    throw new ConfigurationError(
      `cluster config: params${path ? `.${path}` : ''}: ${issue.message}; params holds { l?, k?, coterie?, mx?, arbiter?, h?, m?, variant?, system?, localAlgorithm?, graph?, boundsFile?, leader?, seed?, workload? }`,
    );
  }
  const params = p.output;
  const inCS = loaded.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  let cluster: ResolvedCluster;
  try {
    cluster = resolveCluster({
      algorithm: config.algorithm,
      n: config.n,
      ...(params.l === undefined ? {} : { l: params.l }),
      ...(params.k === undefined ? {} : { k: params.k }),
      ...(params.coterie === undefined ? {} : { coterie: params.coterie }),
      ...(params.mx === undefined ? {} : { mx: params.mx }),
      ...pick(params, ['arbiter', 'h', 'm', 'variant', 'system', 'localAlgorithm', 'graph', 'leader']),
      ...(params.boundsFile === undefined ? {} : { boundsFile: loaded.resolve(params.boundsFile) }),
      // the configuration's initial states (default every process OutCS, as the shared-log check reads them)
      init: inCS.length === 0 ? 'none' : inCS.join(','),
    });
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    const m = err.message
      .replace(/^--init [^:]*: /, 'initial: ')
      .replace(/\(e\.g\. --init first:(\d+)\)/, '(e.g. the first $1 InCS)');
    throw new ConfigurationError(`cluster config ${loaded.path} (algorithm, params, initial): ${m}`);
  }
  if (config.spec !== undefined && config.spec.kind !== cluster.spec.kind) {
    throw new ConfigurationError(
      `cluster config: spec is a ${config.spec.kind} problem, but ${config.algorithm} solves a ${cluster.spec.kind} one; give its spec or leave spec out`,
    );
  }
  if (config.bounds !== undefined && (config.bounds.l !== cluster.l || config.bounds.k !== cluster.k)) {
    throw new ConfigurationError(
      `cluster config: bounds (l = ${config.bounds.l}, k = ${config.bounds.k}) differ from the algorithm's (l = ${cluster.l}, k = ${cluster.k}); give the same or leave bounds out`,
    );
  }
  return { ...cluster, seed: params.seed ?? 1, workload: params.workload ?? 'concurrent' };
}

/**
 * Runs member `id` of the cluster in `configPath` to the end (see the module comment): the
 * member machinery of `runClusterNode`: transport, shared log, DONE and
 * BYE barriers, report) with `critsec`'s algorithm — resolved and validated here, handed over as
 * a one-entry registry — and `critsec`'s workload (`memberWorkload`).
 * @throws ConfigurationError for a bad configuration (certificate, key or log files included);
 *   TransportError when the peers cannot be reached within the configuration's `readyTimeoutMs`
 *   or another deadline of the member expires (`callTimeoutMs`, `peerDownTimeoutMs`,
 *   `finishTimeoutMs`, `shutdownTimeoutMs`) — the transport closed either way.
 */
export async function runNode(options: RunNodeOptions): Promise<NodeReport> {
  const loaded = loadClusterConfig(options.configPath);
  const { config } = loaded;
  const id = options.id;
  if (!(Number.isSafeInteger(id) && id >= 0 && id < config.n)) {
    throw new ConfigurationError(`--id must be a process id 0..${config.n - 1} of ${loaded.path}, got ${id}`);
  }
  const cluster = clusterFromConfig(loaded);
  const member = memberWorkload({
    seed: cluster.seed,
    workload: cluster.workload,
    spec: cluster.workload === 'sequential' ? (cluster.sequentialSpec ?? cluster.spec) : cluster.spec,
    ...(cluster.request === null ? {} : { request: cluster.request }),
  });
  const onProgress = options.onProgress;
  const report = await runClusterNode({
    configPath: loaded.path,
    id,
    logger: options.logger ?? null,
    // progress of counted calls only (`critsec cluster` counts them against 2 · n · rounds)
    ...(onProgress === undefined
      ? {}
      : {
          onProgress: (p) => {
            if (p.counted !== false) onProgress(p);
          },
        }),
    algorithms: { [config.algorithm]: { createFactory: () => member.instrument(cluster.factory) } },
    workload: member.run,
  });
  return { ...report, cli: member.measurements() };
}
