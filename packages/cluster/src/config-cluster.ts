/**
 * Cluster configuration for running critsec as separate OS processes (issue #6; DESIGN.md 3.4,
 * 5): where each process listens, its certificate files, the algorithm (a module path, or a
 * name the member program's registry knows) and its parameters, the initial configuration, the
 * workload, the shared log and the bounds the shared-log check verifies.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  ConfigurationError,
  type CSState,
  globalSpec,
  graphFromEdges,
  groupSpec,
  hOutOfKSpec,
  localSpec,
  type ProblemSpec,
} from '@critsec/core';
import * as v from 'valibot';
import type { TcpTransportOptions } from '@critsec/transport-tcp';
import { type ClusterDurabilityConfig, checkDurability, durabilitySchema } from './config-durability.js';
import { checkDistinctAddresses } from './member-addresses.js';

const nonNegInt = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const posInt = v.pipe(v.number(), v.safeInteger(), v.minValue(1));
const ms = v.pipe(v.number(), v.minValue(0));

const specSchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('global'), l: nonNegInt, k: posInt }),
  v.strictObject({ kind: v.literal('h-out-of-k'), k: posInt }),
  v.strictObject({ kind: v.literal('group'), m: posInt }),
  v.strictObject({
    kind: v.literal('local'),
    edges: v.array(v.tuple([nonNegInt, nonNegInt])),
    l: v.array(nonNegInt),
    k: v.array(posInt),
  }),
]);

/**
 * The `spec` of a cluster configuration: the problem the shared-log check verifies when it is not
 * the global (l,k)-CS given by `bounds`. One of the four kinds of `@critsec/core`'s `ProblemSpec`.
 */
export type ClusterSpecConfig =
  | ClusterGlobalSpecConfig
  | ClusterHOutOfKSpecConfig
  | ClusterGroupSpecConfig
  | ClusterLocalSpecConfig;

/** Global (l,k)-CS: l ≤ |InCS| ≤ k at every instant (`globalSpec`). */
export interface ClusterGlobalSpecConfig {
  /** The discriminant. */
  kind: 'global';
  /** Least number of processes InCS, an integer ≥ 0. */
  l: number;
  /** Greatest number of processes InCS, an integer ≥ 1 (l < k ≤ n). */
  k: number;
}

/** h-out-of-k mutual exclusion: Σ units held ≤ k, the units read from the logged requests (`hOutOfKSpec`). */
export interface ClusterHOutOfKSpecConfig {
  /** The discriminant. */
  kind: 'h-out-of-k';
  /** Number of resource units, an integer ≥ 1. */
  k: number;
}

/** Group mutual exclusion: processes InCS at once all requested the same one of `m` groups (`groupSpec`). */
export interface ClusterGroupSpecConfig {
  /** The discriminant. */
  kind: 'group';
  /** Number of groups, an integer ≥ 1. */
  m: number;
}

/** Local CS: lᵢ ≤ |InCS ∩ N[i]| ≤ kᵢ for every process i on an undirected graph (`localSpec`). */
export interface ClusterLocalSpecConfig {
  /** The discriminant. */
  kind: 'local';
  /** The undirected edges `[i, j]` of the graph, process ids 0 … n−1. */
  edges: [number, number][];
  /** lᵢ per process (length n), integers ≥ 0. */
  l: number[];
  /** kᵢ per process (length n), integers ≥ 1. */
  k: number[];
}

/** One member of a cluster configuration: where it listens and its certificate files. */
export interface ClusterProcessConfig {
  /** Its process id, 0 … n−1 (each once). */
  id: number;
  /** Host name or address it listens on and its peers dial. */
  host: string;
  /** TCP port, 1 … 65535. */
  port: number;
  /** Certificate file (PEM), relative to the config file; required unless `insecure`. */
  cert?: string | undefined;
  /** Private key file (PEM), relative to the config file; required unless `insecure`. */
  key?: string | undefined;
}

/** The `workload` of a cluster configuration: what each member does once its peers are connected. */
export interface ClusterWorkloadConfig {
  /** CS entries per process, an integer ≥ 0. */
  rounds: number;
  /** Time spent InCS per round, in ms. */
  holdMs?: number | undefined;
  /** Time spent OutCS between rounds, in ms. */
  thinkMs?: number | undefined;
  /** The request passed to `entry(req)` for objects that take one (h units, a group). */
  request?: unknown;
  /**
   * A workload of your own: a module path (relative to the config file) or specifier exporting
   * `runWorkload(ctx)` (see `ClusterWorkloadContext`). Default: `rounds` plain rounds.
   */
  module?: string | undefined;
  /** Settings for that module (any JSON). */
  settings?: unknown;
}

/**
 * The `transport` of a cluster configuration: the keys of `@critsec/transport-tcp`'s
 * `TcpTransportOptions` a configuration file may set (each documented there), passed to every
 * member's transport as they are.
 */
export type ClusterTransportConfig = Pick<
  TcpTransportOptions,
  | 'handshakeTimeoutMs'
  | 'unauthenticatedTimeoutMs'
  | 'maxUnauthenticated'
  | 'maxUnauthenticatedPerSource'
  | 'reservedPeerSlots'
  | 'heartbeatIntervalMs'
  | 'heartbeatTimeoutMs'
  | 'suspectAfterMs'
  | 'maxUnacked'
  | 'maxFrameBytes'
  | 'onPeerRestart'
  | 'reconnect'
>;

const processSchema = v.strictObject({
  id: nonNegInt,
  host: v.pipe(v.string(), v.minLength(1)),
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
  /** Certificate and key files (PEM), relative to the config file. */
  cert: v.optional(v.string()),
  key: v.optional(v.string()),
});

const clusterSchema = v.strictObject({
  version: v.literal(1),
  n: posInt,
  processes: v.array(processSchema),
  /** CA certificate file (PEM), relative to the config file. */
  ca: v.optional(v.string()),
  insecure: v.optional(v.boolean()),
  /**
   * A module path (relative to the config file) or package specifier exporting `createFactory`,
   * or a name in the registry of the member program (`runClusterNode({ algorithms })`).
   */
  algorithm: v.pipe(v.string(), v.minLength(1)),
  params: v.optional(v.unknown()),
  initial: v.optional(v.array(v.picklist(['InCS', 'OutCS']))),
  /** The bounds the shared-log check verifies: l ≤ |InCS| ≤ k (default mutual exclusion, 0 and 1). */
  bounds: v.optional(v.strictObject({ l: nonNegInt, k: posInt })),
  /** The problem the shared-log check verifies, instead of `bounds` (h-out-of-k, group, local). */
  spec: v.optional(specSchema),
  workload: v.strictObject({
    /** CS entries per process. */
    rounds: nonNegInt,
    /** Time spent InCS per round, in ms. */
    holdMs: v.optional(ms),
    /** Time spent OutCS between rounds, in ms. */
    thinkMs: v.optional(ms),
    /** The request passed to `entry(req)` for objects that take one (h units, a group). */
    request: v.optional(v.unknown()),
    /**
     * A workload of your own: a module path (relative to the config file) or specifier exporting
     * `runWorkload(ctx)` (see `ClusterWorkloadContext`). Default: `rounds` plain rounds.
     */
    module: v.optional(v.pipe(v.string(), v.minLength(1))),
    /** Settings for that module (any JSON). */
    settings: v.optional(v.unknown()),
  }),
  /** The shared log file (appended with O_APPEND by every process), relative to the config file. */
  log: v.pipe(v.string(), v.minLength(1)),
  /** Time a process waits for all its peers to connect, in ms (default 30 000). */
  readyTimeoutMs: v.optional(ms),
  /** Time one `entry()` or `exit()` may take before the member gives up, in ms (default 60 000). */
  callTimeoutMs: v.optional(ms),
  /** Time a peer may stay unreachable, once connected, before the member gives up, in ms (default 60 000). */
  peerDownTimeoutMs: v.optional(ms),
  /** Time from this member's end of its rounds until every member has finished, in ms (default 300 000). */
  finishTimeoutMs: v.optional(ms),
  /** Time to flush and close the connections at the end, in ms (default 10 000). */
  shutdownTimeoutMs: v.optional(ms),
  durability: durabilitySchema,
  transport: v.optional(
    v.strictObject({
      handshakeTimeoutMs: v.optional(ms),
      unauthenticatedTimeoutMs: v.optional(ms),
      maxUnauthenticated: v.optional(posInt),
      maxUnauthenticatedPerSource: v.optional(posInt),
      reservedPeerSlots: v.optional(nonNegInt),
      heartbeatIntervalMs: v.optional(ms),
      heartbeatTimeoutMs: v.optional(ms),
      suspectAfterMs: v.optional(ms),
      maxUnacked: v.optional(posInt),
      maxFrameBytes: v.optional(posInt),
      onPeerRestart: v.optional(v.picklist(['refuse', 'reset', 'resume'])),
      reconnect: v.optional(
        v.strictObject({
          initialDelayMs: v.optional(ms),
          maxDelayMs: v.optional(ms),
          factor: v.optional(v.number()),
          jitter: v.optional(v.number()),
        }),
      ),
    }),
  ),
});

/**
 * A cluster configuration file (`cluster.json`), as {@link parseClusterConfig} returns it. Paths
 * are relative to the file. Times are in ms.
 */
export interface ClusterConfig {
  /** The format version, `1`. */
  version: 1;
  /** Number of processes, an integer ≥ 1. */
  n: number;
  /** The n members, ids exactly 0 … n−1. */
  processes: ClusterProcessConfig[];
  /** CA certificate file (PEM), relative to the config file; required unless `insecure`. */
  ca?: string | undefined;
  /** Plain TCP instead of mutual TLS (demos on loopback only). */
  insecure?: boolean | undefined;
  /**
   * A module path (relative to the config file) or package specifier exporting `createFactory`,
   * or a name in the registry of the member program (`runClusterNode({ algorithms })`).
   */
  algorithm: string;
  /** The algorithm's parameters (any JSON; the registry or the module validates them). */
  params?: unknown;
  /** The initial configuration, one state per process (default every process OutCS). */
  initial?: ('InCS' | 'OutCS')[] | undefined;
  /** The bounds the shared-log check verifies: l ≤ |InCS| ≤ k (default mutual exclusion, 0 and 1). */
  bounds?:
    | {
        /** Least number of processes InCS, an integer ≥ 0. */
        l: number;
        /** Greatest number of processes InCS, an integer ≥ 1 (l < k ≤ n). */
        k: number;
      }
    | undefined;
  /** The problem the shared-log check verifies, instead of `bounds` (h-out-of-k, group, local). */
  spec?: ClusterSpecConfig | undefined;
  /** What each member does. */
  workload: ClusterWorkloadConfig;
  /** The shared log file (appended with O_APPEND by every process), relative to the config file. */
  log: string;
  /** Time a process waits for all its peers to connect, in ms (default 30 000). */
  readyTimeoutMs?: number | undefined;
  /** Time one `entry()` or `exit()` may take before the member gives up, in ms (default 60 000). */
  callTimeoutMs?: number | undefined;
  /** Time a peer may stay unreachable, once connected, before the member gives up, in ms (default 60 000). */
  peerDownTimeoutMs?: number | undefined;
  /** Time from this member's end of its rounds until every member has finished, in ms (default 300 000). */
  finishTimeoutMs?: number | undefined;
  /** Time to flush and close the connections at the end, in ms (default 10 000). */
  shutdownTimeoutMs?: number | undefined;
  /** Durable members (issue 27): their stores' directory; `--recover` restarts a member from its store. */
  durability?: ClusterDurabilityConfig | undefined;
  /** Settings of every member's TCP transport (`onPeerRestart` defaults to `'resume'` with `durability`). */
  transport?: ClusterTransportConfig | undefined;
}

/** Holds when the schema's output and the documented interfaces are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterfaces: SameType<v.InferOutput<typeof clusterSchema>, ClusterConfig> = true;
void schemaMatchesInterfaces;

/** A loaded configuration with its location (to resolve relative paths). */
export interface LoadedClusterConfig {
  /** The validated configuration, as written (paths still relative to the file). */
  readonly config: ClusterConfig;
  /** Absolute path of the configuration file. */
  readonly path: string;
  /** Resolves a path written in the configuration. */
  resolve(p: string): string;
  /** The initial configuration (default every process OutCS). */
  readonly initial: readonly CSState[];
}

/**
 * Validates a cluster configuration object.
 * @throws ConfigurationError naming the offending field, for a wrong shape, ids that are not
 * exactly `0 … n-1`, two members at one host:port, missing certificate files in secure mode, an
 * initial configuration of the wrong length, bounds that are not `0 ≤ l < k ≤ n`, `transport.onPeerRestart: 'reset'` for
 * one of critsec's own algorithms (a member restarted without its state would deadlock the
 * cluster), `'resume'` without `durability`, or `durability` with a built-in algorithm that has no
 * crash recovery (the message names those that have it).
 */
export function parseClusterConfig(value: unknown): ClusterConfig {
  const r = v.safeParse(clusterSchema, value);
  if (!r.success) {
    const issue = r.issues[0]!;
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '(root)';
    throw new ConfigurationError(`cluster config: ${path}: ${issue.message}`);
  }
  const c = r.output;
  const ids = c.processes.map((p) => p.id).sort((a, b) => a - b);
  if (ids.length !== c.n || ids.some((id, i) => id !== i)) {
    throw new ConfigurationError(
      `cluster config: processes must have the ids 0 … ${c.n - 1} exactly once, got [${ids.join(', ')}]`,
    );
  }
  checkDistinctAddresses(c.processes);
  if (c.insecure !== true) {
    if (c.ca === undefined)
      throw new ConfigurationError('cluster config: ca is required unless insecure is true');
    const missing = c.processes.find((p) => p.cert === undefined || p.key === undefined);
    if (missing) {
      throw new ConfigurationError(
        `cluster config: process ${missing.id} needs cert and key files unless insecure is true`,
      );
    }
  }
  if (c.initial !== undefined && c.initial.length !== c.n) {
    throw new ConfigurationError(`cluster config: initial has ${c.initial.length} states, but n = ${c.n}`);
  }
  if (c.bounds !== undefined && !(c.bounds.l < c.bounds.k && c.bounds.k <= c.n)) {
    throw new ConfigurationError(
      `cluster config: bounds must satisfy 0 ≤ l < k ≤ n, got l=${c.bounds.l}, k=${c.bounds.k}, n=${c.n}`,
    );
  }
  checkDurability(c);
  if (c.bounds !== undefined && c.spec !== undefined) {
    throw new ConfigurationError('cluster config: give bounds or spec, not both');
  }
  if (c.spec !== undefined) {
    try {
      problemSpecFor(c.n, c.spec);
    } catch (err) {
      throw new ConfigurationError(`cluster config: spec: ${(err as Error).message}`, { cause: err });
    }
  }
  return c;
}

/**
 * The problem spec of `@critsec/core` a configuration's `spec` describes for n processes.
 * @throws ConfigurationError for bounds or graphs the spec constructors refuse.
 */
function problemSpecFor(n: number, spec: ClusterSpecConfig): ProblemSpec {
  switch (spec.kind) {
    case 'global':
      return globalSpec(spec.l, spec.k, n);
    case 'h-out-of-k':
      return hOutOfKSpec(spec.k, n);
    case 'group':
      return groupSpec(spec.m, n);
    case 'local':
      return localSpec(graphFromEdges(n, spec.edges), spec.l, spec.k);
  }
}

/** What the shared-log check of a configuration verifies: its `spec`, else its `bounds` (default mutual exclusion). */
export function clusterProblemSpec(config: ClusterConfig): ProblemSpec {
  if (config.spec !== undefined) return problemSpecFor(config.n, config.spec);
  const b = config.bounds ?? { l: 0, k: 1 };
  return globalSpec(b.l, b.k, config.n);
}

/** Reads and validates a cluster configuration file. @throws ConfigurationError. */
export function loadClusterConfig(path: string): LoadedClusterConfig {
  const abs = resolve(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (err) {
    throw new ConfigurationError(`cannot read cluster config ${abs}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const config = parseClusterConfig(raw);
  const dir = dirname(abs);
  return {
    config,
    path: abs,
    resolve: (p) => (isAbsolute(p) ? p : join(dir, p)),
    initial: config.initial ?? Array.from({ length: config.n }, (): CSState => 'OutCS'),
  };
}
