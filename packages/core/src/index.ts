/**
 * `@critsec/core` — the contracts every critsec package shares (DESIGN.md 3.1–3.2): the CS object
 * interface and its CSMIC-enforcing base class, factories and process contexts, the endpoint
 * contract transports implement, problem specs with their safety checks, errors, and the
 * `withCS` / `lease` helpers, and the algorithm descriptor (the plug-in contract). The building
 * blocks an algorithm is written with (deferreds, pending calls, coverage marks, parameter parsers)
 * are the subpath `@critsec/core/kit`.
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
export { CSObjectBase, type MessageSource } from './cs-base.js';
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
export { type DurableCSObject, isDurableCSObject } from './durable.js';
export {
  type AlgorithmDescriptor,
  type BuildContext,
  type BuiltAlgorithm,
  defineAlgorithm,
  type MemoryEstimate,
  type PaperBounds,
  type RequestDraw,
} from './descriptor.js';
export { type Graph, graphFromAdjacency, graphFromEdges } from './graph.js';
export type { JsonValue } from './json.js';
export { type CSLease, lease, withCS } from './lease.js';
export type { Endpoint, Message } from './message.js';
export {
  type GivenLK,
  type InitialConfiguration,
  type ParamSchema,
  type ParamsSchema,
  type ParamValue,
  type ParamValues,
  param,
  params,
} from './params.js';
export type { CSState, ProcessId } from './process.js';
export { createRng, type Rng } from './rng.js';
export type { Suspicions } from './suspicions.js';
export {
  assertSafeConfiguration,
  checkConfiguration,
  complementSpec,
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
