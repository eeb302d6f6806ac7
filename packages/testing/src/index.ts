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
 * import { createCluster, runWorkload } from '@critsec/harness';
import { centralMutex } from '@critsec/testing';
 *
 * const cluster = createCluster({ factory: centralMutex(), spec: mutexSpec(5), seed: 1 });
 * const r = await runWorkload(cluster, { kind: 'sequential', rounds: 2 });
 * console.log(r.ok, r.perPair.mean, r.waiting.entry.max); // true 3 2
 * ```
 *
 * @packageDocumentation
 */
export { roundsPerProcess, seedsPerDelay } from './budget.js';
export {
  type ExploreFailure,
  type ExploreOptions,
  type ExploreResult,
  exploreSchedules,
  type Inspectable,
} from './explore.js';
export {
  channelTotal,
  type ExitEntryPair,
  exitEntryPairs,
  type PairCost,
  sequentialPairs,
} from './pair-costs.js';
export { PRIORITIES, ScheduleChoices } from './schedule-choices.js';
export {
  runSchedule,
  type SchedulePair,
  type ScheduleRun,
  type ScheduleSetup,
} from './schedule-run.js';
export {
  decodeChoices,
  describeWorstCase,
  encodeChoices,
  measureRun,
  replaySchedule,
  type ScheduleLanes,
  searchWorstSchedule,
  type WorstCaseMeasure,
  type WorstCaseOptions,
  type WorstCaseResult,
} from './worst-case.js';
export {
  noProgressMs,
  type ProgressWatchdog,
  progressWatchdog,
  waitForProgress,
} from './progress.js';
export { centralMutex, leakyAbortMutex, neverGrantMutex, StubCS, unsafeMutex } from './reference.js';
export { durableCentralMutex, type ForgottenVariable } from './reference-durable.js';
export { deliver, deliverAll, drainToRest, pendingList, queuedList } from './scripting.js';
export {
  type ExtremeValueOptions,
  type ExtremeValueReport,
  extremeValueCheck,
  type ForgedFailure,
  type ForgedFieldClass,
  type ForgedSite,
  type MessageValidator,
} from './forged.js';
