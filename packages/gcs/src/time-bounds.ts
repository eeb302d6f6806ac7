/*
 * Time-bounded grants for the (l,k)-GCS and k-mutual exclusion (issue 28 §1; a deviation from the
 * global-CS paper, listed in the README): the options go to the Maekawa mutual exclusions inside
 * the MUTINs (`lmin/mx`, `kmex/mx`), and each MUTIN is told its `mx` is time-bounded, so that an
 * Exit() commits only while its `mx` tenure holds (`mx-tenure.ts` of `@critsec/mutin`, T1–T3).
 * The GCS's own InCS is not time-bounded: a process InCS keeps its place among the k until it
 * exits (the README says why no slot is reclaimed).
 */
import { ConfigurationError, type CSFactory } from '@critsec/core';
import type { Coterie } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';

/**
 * Time bounds of the inner mutual exclusions (issue 28), as `maekawa()` of `@critsec/mutex` takes
 * them; they apply to the default `mx` only (a user's `mx` carries its own).
 */
export interface GcsTimeBounds {
  /**
   * Each inner Maekawa reclaims a grant its holder has not renewed within `ttl`, in the unit of
   * `ProcessContext.clock` (**ms** on a real member, time units in the simulator; a clock is
   * required). A leaver (an exit of the GCS, an entry of kMutex) that stops renewing — crashed,
   * paused, cut off — then no longer blocks every other one forever. Implies `fencing`.
   */
  readonly ttl?: number | undefined;
  /** The inner Maekawas' drift margin (same unit as `ttl`, default `ttl / 10`; ≥ 2ρ·ttl for a rate error ρ). */
  readonly driftMargin?: number | undefined;
  /**
   * Fencing tokens on the inner Maekawas (their tenures; the MUTINs commit only while they hold).
   * The GCS holder gets no token: the README says why "at most k" has none. Default false.
   */
  readonly fencing?: boolean | undefined;
}

/**
 * The `mx` and `mxTenure` options of a MUTIN of the composite: the user's `mx`, or a Maekawa over
 * `coterie` with the time bounds (then `mxTenure: true`), or nothing (MUTIN's default).
 * @throws ConfigurationError when `mx` is given with time bounds, or (from `maekawa`) for a bad
 *   `ttl`, `driftMargin` or `fencing`.
 */
export function innerMx(
  who: 'gcs' | 'kMutex',
  coterie: Coterie,
  mx: CSFactory | undefined,
  bounds: GcsTimeBounds,
): { mx?: CSFactory; mxTenure?: true } {
  const { ttl, driftMargin, fencing } = bounds;
  const timed = ttl !== undefined || driftMargin !== undefined || fencing === true;
  if (!timed) return mx === undefined ? {} : { mx };
  if (mx !== undefined) {
    throw new ConfigurationError(
      `${who}: ttl, driftMargin and fencing apply to the default mx (Maekawa); give them to your own mx instead`,
    );
  }
  const options = {
    ...(ttl === undefined ? {} : { ttl }),
    ...(driftMargin === undefined ? {} : { driftMargin }),
    ...(fencing === undefined ? {} : { fencing }),
  };
  return { mx: maekawa({ coterie, ...options }), mxTenure: true };
}
