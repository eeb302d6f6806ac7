/**
 * `@critsec/core` — the contracts every critsec package shares (DESIGN.md 3.1–3.2): the CS object
 * interface and its CSMIC-enforcing base class, factories and process contexts, the endpoint
 * contract transports implement, problem specs with their safety checks, errors, and the
 * `withCS` / `lease` helpers.
 *
 * @example
 * ```ts
 * import { withCS, type CSFactory } from '@critsec/core';
 *
 * declare const factory: CSFactory;            // e.g. maekawa({ coterie }) from @critsec/mutex
 * declare const ctx: import('@critsec/core').ProcessContext;
 * const cs = factory(ctx);
 * await withCS(cs, async () => {
 *   // at most k processes (or at least l, by the algorithm) are here
 * });
 * ```
 *
 * @packageDocumentation
 */
export { CSObjectBase, type MessageSource, splitEntryArgs } from './cs-base.js';
export {
  type CSCallOptions,
  type CSEvents,
  type CSFactory,
  type CSObject,
  type EntryArgs,
  isCSObject,
  type ProcessContext,
  type RequestOf,
} from './cs-object.js';
export { abortErrorFor, Deferred, onAbort } from './deferred.js';
export {
  AbortError,
  ConfigurationError,
  CoterieError,
  CritsecError,
  CSMICError,
  HeldMessagesOverflowError,
  isAbortError,
  LeaveTimeoutError,
  PeerDepartedError,
  ProtocolError,
  TransportError,
  throwIfAborted,
} from './errors.js';
export { collectReached, type ReachCollector, reach, reachOf } from './coverage.js';
export {
  type AlgorithmDescriptor,
  type BuildContext,
  type BuiltAlgorithm,
  defineAlgorithm,
  type MemoryEstimate,
  type PaperBounds,
  type RequestDraw,
} from './descriptor.js';
export { Emitter } from './events.js';
export { closedNeighborhood, type Graph, graphFromAdjacency, graphFromEdges } from './graph.js';
export { type CSLease, lease, withCS } from './lease.js';
export type { Endpoint, Message } from './message.js';
export {
  checkGlobalLK,
  checkParams,
  describeInitial,
  describeParams,
  type GivenLK,
  type InitialConfiguration,
  type ParamDescription,
  type ParamEntries,
  type ParamSchema,
  type ParamsSchema,
  type ParamValue,
  type ParamValues,
  param,
  params,
  parseAllOutCS,
  parseChoice,
  parseGivenLK,
  parseGlobalInitial,
  parseInit,
  parseInteger,
  parseNonNegative,
} from './params.js';
export { PendingCall, type PendingCallMessages } from './pending-call.js';
export { type CSState, countInCS, flipState, isValidN, type ProcessId } from './process.js';
export { createRng, type Rng } from './rng.js';
export {
  assertSafeConfiguration,
  checkConfiguration,
  complementSpec,
  describeSpec,
  type GlobalSpec,
  type GroupSpec,
  globalSpec,
  groupSpec,
  type HOutOfKSpec,
  hOutOfKSpec,
  initialConfiguration,
  type LocalSpec,
  localSpec,
  mutexSpec,
  type ProblemSpec,
  type SafetyBound,
  type SpecViolation,
} from './spec.js';
