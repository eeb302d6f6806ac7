/**
 * `@critsec/core/kit` — the building blocks an algorithm package is written with, beside the
 * contract in `@critsec/core`: the deferred result and abort plumbing of a call, the pending-call
 * bookkeeping, the typed event emitter, the coverage marks of rare protocol paths, the parameter
 * parsers and descriptions a descriptor's schema is made of, and small process and graph helpers.
 *
 * A user who composes CS objects needs none of this; an author of a new algorithm (a CS object
 * of their own, wrapped in a descriptor) may. Semver-covered like the main entry.
 *
 * @example
 * ```ts
 * import { Deferred } from '@critsec/core/kit';
 *
 * const granted = new Deferred<void>();
 * granted.resolve();
 * await granted.promise;
 * ```
 *
 * @packageDocumentation
 */
export { splitEntryArgs } from './cs-base.js';
export { abortErrorFor, Deferred, onAbort } from './deferred.js';
export { collectReached, type ReachCollector, reach, reachOf } from './coverage.js';
export { Emitter } from './events.js';
export { closedNeighborhood } from './graph.js';
export {
  checkGlobalLK,
  checkParams,
  describeInitial,
  describeParams,
  type GrantParams,
  grantParamValues,
  type ParamDescription,
  type ParamEntries,
  parseAllOutCS,
  parseChoice,
  parseGivenLK,
  parseGlobalInitial,
  parseGrantParams,
  parseInit,
  parseInteger,
  parseNonNegative,
} from './params.js';
export { PendingCall, type PendingCallMessages } from './pending-call.js';
export { countInCS, flipState, isValidN } from './process.js';
export { describeSpec } from './spec.js';
