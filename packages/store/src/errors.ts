import { CritsecError } from '@critsec/core';

/**
 * Why a store refused: `missing` (a member told to recover found no store — it was lost),
 * `exists` (a member told to create found a store already there), `foreign` (the store belongs
 * to another cluster or member), `oversized` (a key or value beyond the store's bounds),
 * `closed` (a call after `close()` or after a simulated crash), `io` (the underlying store
 * failed; `cause` holds its error).
 */
export type StoreErrorReason = 'missing' | 'exists' | 'foreign' | 'oversized' | 'closed' | 'io';

/**
 * A durable-store error (code `'STORE'`). `reason` says which refusal; `message` names the
 * store, what was found, what was expected and the way out.
 */
export class StoreError extends CritsecError {
  /** Which refusal (see {@link StoreErrorReason}). */
  readonly reason: StoreErrorReason;
  /** A store error of the given `reason`; `options.cause` is the underlying error, if any. */
  constructor(reason: StoreErrorReason, message: string, options?: { cause?: unknown }) {
    super('STORE', message, options);
    this.reason = reason;
  }
}
