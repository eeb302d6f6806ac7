/**
 * The grant a holder has under a time-bounded grant (issue 28's tenure: a fencing token, the
 * grant's `signal`, `remaining()`, `check()`), detected structurally until `@critsec/core`
 * exports `Tenure` and `TenuredCSObject`: this one function is what their landing replaces.
 */
import type { CSObject } from '@critsec/core';

/** A holder's grant, as issue 28 defines it (`core/src/tenure.ts` once it lands). */
export interface LockTenure {
  /** The fencing token: grows with every grant of the lock. */
  readonly token: number;
  /** Aborted once the grant may have expired. */
  readonly signal: AbortSignal;
  /** Time left of the grant (the protocol clock's unit). */
  remaining(): number;
  /** Throws once the grant may have expired. */
  check(): void;
}

/** The tenure of `cs`'s current grant, or `undefined` when the algorithm gives none. */
export function tenureOf(cs: CSObject<unknown>): LockTenure | undefined {
  const t = (cs as { tenure?: unknown }).tenure;
  return typeof t === 'function' ? (t.call(cs) as LockTenure | undefined) : undefined;
}
