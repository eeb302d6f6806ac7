/**
 * What the holder of a time-bounded, fenced grant gets (issue 28 §1–3): its **fencing token** and
 * its **deadline**. Named tenure, not lease: {@link lease} of this package is the `await using`
 * helper and says nothing about time.
 *
 * ## The guarantee
 *
 * - Without time bounds (no TTL), exclusion is unconditional, as in the papers: no two processes
 *   are InCS together beyond the problem's bound, whatever the pauses and delays.
 * - With time bounds, an arbiter reclaims a grant its holder has not renewed within the TTL, so a
 *   holder that is paused (GC, SIGSTOP, swap) or cut off past its deadline may still *believe* it
 *   is InCS while another holds the grant. Then:
 *   - **exclusion of effects** holds unconditionally at every resource that rejects operations
 *     carrying a token lower than the highest it has seen (a fencing-aware resource): tokens
 *     strictly increase across successive holders, so the stale holder's operations are refused;
 *   - **exclusion of the code** (no two holders run their CS at the same instant) additionally
 *     assumes bounded process pauses and clock drift: a holder that calls {@link Tenure.check}
 *     before every effect and is never paused between the check and the effect for longer than
 *     its {@link Tenure.remaining} time, on a clock whose rate errs by less than the drift margin,
 *     never overlaps the next holder.
 * - Inclusion-type problems (MUTIN's "at least l InCS") have no time bounds: a crashed process
 *   InCS counts as InCS until it recovers and runs the exit protocol.
 */
import type { CSObject } from './cs-object.js';

/** The fencing token and deadline of one CS, as the holder sees it (see the module comment). */
export interface Tenure {
  /**
   * The fencing token: a safe integer, strictly increasing across successive holders of the same
   * resource, derived without a central counter (the algorithm's docs say how: Maekawa's is
   * proved from quorum intersection in the `@critsec/mutex` README). Hand it to every resource
   * the CS protects; a resource rejects a token lower than the highest it has seen.
   */
  readonly token: number;
  /**
   * Aborted at the deadline (reason: a {@link TenureExpiredError}); never aborted without a TTL.
   * Abort in-flight effects with it.
   */
  readonly signal: AbortSignal;
  /**
   * Time until the deadline, in the clock's unit (ms on a real member, time units in the
   * simulator); ≤ 0 once past, `Infinity` without a TTL. The deadline is the send time of the
   * last renewal the whole quorum confirmed + TTL − drift margin.
   */
  remaining(): number;
  /** @throws TenureExpiredError once the grant may have expired ({@link remaining} ≤ 0). */
  check(): void;
}

/**
 * A CS object whose holder gets a {@link Tenure}: `tenure()` is defined while InCS (after
 * `entry()` resolved, until `exit()`), `undefined` otherwise.
 */
export interface TenuredCSObject<Req = void> extends CSObject<Req> {
  /** The current CS's tenure while InCS, `undefined` otherwise. */
  tenure(): Tenure | undefined;
}

/**
 * True when `cs` has `tenure()`: every Maekawa object of `@critsec/mutex` does, and its `tenure()`
 * is defined while InCS when it was built with `fencing` or a `ttl`.
 */
export function hasTenure<Req>(cs: CSObject<Req>): cs is TenuredCSObject<Req> {
  return typeof (cs as Partial<TenuredCSObject<Req>>).tenure === 'function';
}
