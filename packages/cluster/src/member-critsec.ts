/*
 * The member of a `critsec` cluster (`critsec node --config cluster.json --id 3`: one member of a
 * real deployment, DESIGN.md 5), over the TCP/TLS transport of @critsec/transport-tcp and the
 * cluster configuration format of config-cluster.ts (`loadClusterConfig`); also the member
 * process `critsec cluster` spawns through the launcher (member-main.ts, `--member critsec`).
 *
 * The member machinery is `runClusterNode` (member-runtime.ts: transport, shared log, the DONE and
 * BYE barriers on its control channel, the report); this file brings the algorithm by name:
 * the algorithm, resolved and validated from `algorithm` and `params` (`clusterFromConfig`), and the
 * workload of member-workload.ts — the concurrent workload of `critsec simulate` in wall-clock
 * time (finished members cycle uncounted until every member has finished, then withdraw their
 * call in flight), or with `params.workload: 'sequential'` one call in flight in the whole
 * cluster, coordinated by member 0 — with every message counted and attributed.
 */
import { dirname } from 'node:path';
import { ConfigurationError, type ParamValue, type ProcessId } from '@critsec/core';
import type { TcpLogger } from '@critsec/transport-tcp';
import * as v from 'valibot';
import { withAlgorithmModule } from './algorithm-loader.js';
import { ALGORITHMS, type AnyDescriptor, resolveCluster } from './algorithm-resolve.js';
import { type LoadedClusterConfig, loadClusterConfig } from './config-cluster.js';
import {
  type ClusterNodeProgress,
  type ClusterNodeReport,
  type RunClusterNodeOptions,
  runClusterNode,
} from './member-runtime.js';
import { memberWorkload, type NodeMeasurements } from './member-workload.js';
import type { ResolvedCluster } from './algorithm-resolved.js';

/** The run's own entries of a configuration's `params`; every other entry is the algorithm's. */
const runParamsSchema = v.object({
  /** Seed of the workload's think and hold times and request draws, an integer ≥ 0. */
  seed: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  workload: v.optional(v.picklist(['concurrent', 'sequential'])),
});

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
  /** The algorithms to find the configuration's `algorithm` among (default: critsec's); a module path is loaded. */
  readonly algorithms?: readonly AnyDescriptor[];
  /** Restart the member from its store (`critsec node --recover`; see `RunClusterNodeOptions.recover`). */
  readonly recover?: boolean;
  /** Serve the member's metrics (`critsec node --metrics`; see `RunClusterNodeOptions.metrics`). */
  readonly metrics?: RunClusterNodeOptions['metrics'];
}

/**
 * Reads the algorithm part of a cluster configuration (`algorithm`, `params`, `initial`,
 * `bounds`) into a validated cluster.
 * @throws ConfigurationError naming the field when it is not one `critsec` can run.
 */
function clusterFromConfig(
  loaded: LoadedClusterConfig,
  algorithms?: readonly AnyDescriptor[],
): ResolvedCluster & {
  /** Seed of the workload's think and hold times and request draws (`params.seed`, default 1). */
  seed: number;
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  workload: 'concurrent' | 'sequential';
} {
  const { config } = loaded;
  const {
    seed: seedValue,
    workload: workloadValue,
    ...algorithmParams
  } = (config.params ?? {}) as Record<string, unknown>;
  const p = v.safeParse(runParamsSchema, { seed: seedValue, workload: workloadValue });
  if (!p.success) {
    const issue = p.issues[0]!;
    const path = issue.path?.map((x) => String(x.key)).join('.') ?? '';
    throw new ConfigurationError(
      `cluster config: params.${path}: ${issue.message}; seed is an integer ≥ 0, workload concurrent or sequential`,
    );
  }
  const params = p.output;
  const inCS = loaded.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  let cluster: ResolvedCluster;
  try {
    cluster = resolveCluster(
      {
        algorithm: config.algorithm,
        n: config.n,
        // the configuration's initial states (default every process OutCS, as the shared-log check reads them)
        params: {
          ...(algorithmParams as Record<string, ParamValue>),
          init: inCS.length === 0 ? 'none' : inCS.join(','),
        },
      },
      { baseDir: dirname(loaded.path), ...(algorithms === undefined ? {} : { algorithms }) },
    );
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
  const algorithms = await withAlgorithmModule(config.algorithm, options.algorithms ?? ALGORITHMS);
  const cluster = clusterFromConfig(loaded, algorithms);
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
    ...(options.recover === true ? { recover: true } : {}),
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
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
