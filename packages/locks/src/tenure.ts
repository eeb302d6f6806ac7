/**
 * The grant a holder has under a time-bounded, fenced grant (issue 28: `Tenure` of
 * `@critsec/core` — a fencing token, the grant's `signal`, `remaining()`, `check()`).
 */
import { type CSObject, hasTenure, type Tenure } from '@critsec/core';

/** The tenure of `cs`'s current grant, or `undefined` when the algorithm gives none (no `fencing`/`ttl`). */
export function tenureOf(cs: CSObject<unknown>): Tenure | undefined {
  return hasTenure(cs) ? cs.tenure() : undefined;
}
