/**
 * `@critsec/harness` — running CS objects and checking them while they run (DESIGN.md 4), the
 * run-time half of what was `@critsec/testing`: the simulated cluster (`createCluster`: one CS
 * object per process on the simulated network, the initial configuration checked safe, a safety
 * monitor on every state change), the workload engine (`WorkloadEngine`, clock-parameterised:
 * `simulatedClock` in time units, `wallClock` in ms) and the workloads over it (`runWorkload`:
 * concurrent or sequential), the safety monitors (`SafetyMonitor` live, `LogMonitor` /
 * `checkCallLog` from a log of calls), the causal message attribution (`MessageAttribution`)
 * and the distributions the summaries print. `@critsec/cluster` and `@critsec/cli` run real and
 * simulated members with it; `@critsec/testing` (the test kit: compliance suites, explorer,
 * forged-message check, reference objects) builds on it.
 *
 * @example
 * ```ts
 * import { type CSFactory, mutexSpec } from '@critsec/core';
 * import { createCluster, runWorkload } from '@critsec/harness';
 *
 * declare const factory: CSFactory; // e.g. maekawa({ coterie: majority(5) }) of @critsec/mutex
 * const cluster = createCluster({ factory, spec: mutexSpec(5), seed: 1 });
 * const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
 * console.log(r.ok, r.perPair.mean, r.waiting.entry.max); // true, messages per pair, time units
 * ```
 *
 * @packageDocumentation
 */
export { type ClusterOptions, createCluster, defaultInitial, SimCluster } from './cluster.js';
export {
  type CallLogCheck,
  type CallLogEvent,
  type CallLogRecord,
  checkCallLog,
  LogMonitor,
  type LogMonitorOptions,
  type LogViolation,
} from './log-monitor.js';
export { SafetyMonitor, type SafetyMonitorOptions, type Violation } from './monitor.js';
export { type Distribution, distribution, perPairMessages } from './stats.js';
export {
  assertWorkloadOk,
  describeFailure,
  type InvocationRecord,
  runWorkload,
  type StuckProcess,
  WorkloadFailure,
  type WorkloadOptions,
  type WorkloadResult,
} from './workload.js';
export { type AttributionCarrier, MessageAttribution } from './attribution.js';
export { simulatedClock, type WorkloadClock, wallClock } from './clock.js';
export { type PauseOptions, type PauseStats, ProcessClocks } from './pauses.js';
export { FencedStore, type FencedStoreOptions } from './fenced-store.js';
export { type FencedRunOptions, type FencedRunResult, runFencedWorkload } from './fenced-run.js';
export {
  type AbortDraw,
  callObject,
  type EngineOptions,
  objectProcess,
  WorkloadEngine,
  type WorkloadProcess,
} from './engine.js';
export {
  chooseMove,
  type MoveSource,
  runSequential,
  type SequentialDriver,
  type SequentialMove,
} from './sequential.js';
export {
  CrashRecovery,
  type CrashOptions,
  type CrashStats,
  ProcessCrashedError,
  type RecoveryHost,
} from './crash-recovery.js';
export { CS_RECORD, type CrashLoss, DurableLayer } from './durable-layer.js';
