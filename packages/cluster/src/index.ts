/**
 * `@critsec/cluster` — critsec members as separate OS processes over the TCP/TLS transport of
 * `@critsec/transport-tcp` (DESIGN.md 3.4, 5; issues #6 and 13): everything about a cluster that
 * is neither a transport nor a command line.
 *
 * - the configuration: `cluster.json` (format, validation, {@link createLocalCluster}) and the
 *   settings of a run, one type for the simulated and the real run ({@link resolveRun}: rounds,
 *   seed, workload, think and hold in time units or ms);
 * - the member runtime: {@link runClusterNode} (transport, shared log, the DONE and BYE
 *   barriers, the report) with a workload ({@link roundsWorkload}, or a module of your own), and
 *   {@link runNode}, the `critsec node` member with the algorithms of {@link resolveCluster};
 * - the local launcher: {@link launchCluster} (spawn, kill, restart, the shared-log check) and
 *   {@link runLocalCluster} (`critsec cluster`: certificates, configuration, members, totals);
 * - the algorithms: {@link ALGORITHMS}, the descriptors of every critsec algorithm (the plug-in
 *   contract of @critsec/core; add your own), and {@link resolveCluster}, which finds one by name,
 *   checks its parameters and lets it build its factory, safety spec, requests, initial
 *   configuration and paper bounds;
 * - the shared-log check ({@link checkSharedLog}): sound — every violation it reports happened;
 * - the chaos run: {@link runChaos} (`critsec chaos`: members SIGKILLed and restarted while they
 *   read-modify-write a shared counter under the lock) and its check, {@link checkChaos}
 *   (overlaps beyond k, lost updates); over named locks, {@link runLocksChaos} (`critsec chaos
 *   locks`: a `@critsec/locks` manager per member) and its per-name check, {@link checkLocks}.
 *
 * The member workload as a workload module is the subpath `@critsec/cluster/member`. The source
 * files are named after these rooms: `config-*.ts`, `member-*.ts` (with the one process main,
 * `member-main.ts`), `launcher*.ts`, `algorithm-*.ts`, `shared-log.ts` and `chaos-check.ts`.
 *
 * @example
 * ```ts
 * import { resolveClusterRun, runLocalCluster } from '@critsec/cluster';
 *
 * const settings = resolveClusterRun({ algorithm: 'gcs', n: 5, params: { l: 1, k: 3 }, rounds: 10 });
 * const { failure, result, totals } = await runLocalCluster(settings);
 * console.log(failure, result.check.violationCount, totals.entries); // null 0 50
 * ```
 *
 * @packageDocumentation
 */
export {
  type ClusterAlgorithmModule,
  type ClusterAlgorithmRegistry,
  withAlgorithmModule,
} from './algorithm-loader.js';
export {
  ALGORITHMS,
  type AnyDescriptor,
  clusterArguments,
  findAlgorithm,
  type ResolveOptions,
  resolveCluster,
} from './algorithm-resolve.js';
export type { ClusterInput, ResolvedCluster } from './algorithm-resolved.js';
export {
  type ClusterConfig,
  type ClusterGlobalSpecConfig,
  type ClusterGroupSpecConfig,
  type ClusterHOutOfKSpecConfig,
  type ClusterLocalSpecConfig,
  type ClusterProcessConfig,
  type ClusterSpecConfig,
  type ClusterTransportConfig,
  type ClusterWorkloadConfig,
  type LoadedClusterConfig,
  loadClusterConfig,
  parseClusterConfig,
} from './config-cluster.js';
export { type ClusterDurabilityConfig, memberStorePath } from './config-durability.js';
export { createLocalCluster, type LocalClusterOptions } from './config-local.js';
export {
  type RunInput,
  type RunSettings,
  resolveRun,
  type TimeUnit,
  WORKLOAD_NAMES,
} from './config-run.js';
export { transportOptionsFor } from './config-transport.js';
export {
  type ClusterDeath,
  type ClusterExit,
  type ClusterRun,
  type ClusterRunResult,
  type LaunchClusterOptions,
  launchCluster,
} from './launcher.js';
export {
  type ClusterHooks,
  type LocalClusterOutcome,
  type LocatedViolation,
  type MemberTotals,
  runLocalCluster,
} from './launcher-local-run.js';
export type { LoggedWork, MemberDeath } from './launcher-logged-work.js';
export { type ClusterRunInput, type ClusterRunSettings, resolveClusterRun } from './launcher-settings.js';
export {
  type ChaosOptions,
  type ChaosPause,
  type ChaosProgress,
  type ChaosResult,
  type ChaosVictim,
  runChaos,
} from './launcher-chaos.js';
export { ChaosStuckError, type ChaosWhere } from './launcher-chaos-watch.js';
export type { ChaosLogRecord, CounterContent, CounterWrite } from './launcher-chaos-rmw.js';
export {
  type ChaosCheck,
  type ChaosCheckInput,
  checkChaos,
  type EntriesAfterRestart,
  readChaosRecords,
} from './chaos-check.js';
export type { FencingCheck } from './chaos-fencing.js';
export {
  type LocksChaosOptions,
  type LocksChaosResult,
  runLocksChaos,
} from './launcher-chaos-locks.js';
export {
  checkLocks,
  type LockLogLine,
  type LockLogRecord,
  type LockRecordMode,
  type LocksCheck,
  type LocksCheckInput,
  type NameCheck,
  readLockLines,
} from './chaos-locks-check.js';
export {
  type MemberMetricsAddress,
  type MemberMetricsOptions,
  type MetricsServer,
  serveMetrics,
} from './member-metrics.js';
export { type NodeReport, type RunNodeOptions, runNode } from './member-critsec.js';
export {
  type ClusterNodeProgress,
  type ClusterNodeReport,
  type RunClusterNodeOptions,
  runClusterNode,
} from './member-runtime.js';
export type { NodeMeasurements } from './member-workload.js';
export {
  type ClusterWorkload,
  type ClusterWorkloadChannel,
  type ClusterWorkloadContext,
  roundsWorkload,
} from './member-workload-contract.js';
export {
  checkSharedLog,
  readSharedLog,
  type SharedLogBounds,
  type SharedLogCheck,
  type SharedLogEvent,
  type SharedLogRecord,
  type SharedLogViolation,
} from './shared-log.js';
