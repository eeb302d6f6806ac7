/**
 * `@critsec/testing` — how critsec algorithms prove themselves (DESIGN.md 4): a simulated
 * cluster harness with safety monitors for every problem kind, concurrent and sequential
 * workloads with liveness checks, metrics (messages per exit+entry pair, waiting time in time
 * units), an exhaustive schedule explorer, coverage marks, and reference CS objects (one correct,
 * several broken on purpose). The compliance suite is the subpath `@critsec/testing/cs`.
 *
 * @example
 * ```ts
 * import { mutexSpec } from '@critsec/core';
 * import { centralMutex, createCluster, runWorkload } from '@critsec/testing';
 *
 * const cluster = createCluster({ factory: centralMutex(), spec: mutexSpec(5), seed: 1 });
 * const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
 * console.log(r.ok, r.perPair.mean, r.waiting.entry.max); // true 3 2
 * ```
 *
 * @packageDocumentation
 */
export { roundsPerProcess, seedsPerDelay } from './budget.js';
export { type ClusterOptions, createCluster, defaultInitial, SimCluster } from './cluster.js';
export {
  type ExploreFailure,
  type ExploreOptions,
  type ExploreResult,
  exploreSchedules,
  type Inspectable,
} from './explore.js';
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
export {
  channelTotal,
  type ExitEntryPair,
  exitEntryPairs,
  type PairCost,
  sequentialPairs,
} from './pair-costs.js';
export {
  noProgressMs,
  type ProgressWatchdog,
  progressWatchdog,
  waitForProgress,
} from './progress.js';
export { centralMutex, leakyAbortMutex, neverGrantMutex, StubCS, unsafeMutex } from './reference.js';
export { deliver, deliverAll, drainToRest, pendingList, queuedList } from './scripting.js';
/**
 * The project's one PRNG (sfc32 seeded through splitmix32, `@critsec/transport-sim`'s), for tests
 * that draw random schedules without running the simulator: `createRng(seed).next()` in [0, 1),
 * `.int(bound)`, `.chance(p)`, `.pick(items)`, `.fork(label)`.
 */
export { createRng, type Rng } from '@critsec/transport-sim';
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
  type ExtremeValueOptions,
  type ExtremeValueReport,
  extremeValueCheck,
  type ForgedFailure,
  type ForgedFieldClass,
  type ForgedSite,
  type MessageValidator,
} from './forged.js';
