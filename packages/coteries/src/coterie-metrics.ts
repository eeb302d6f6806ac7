/**
 * The figures of a coterie side by side: over its assigned quorums (what a fixed per-process
 * assignment gives the algorithms that use it) and over the literature family it is named after.
 */
import { ConfigurationError } from '@critsec/core';
import type { Coterie } from './coterie.js';
import { type FamilyMetrics, familyMetrics, type QuorumFigures } from './family.js';
import { availability } from './availability.js';
import { faultTolerance } from './fault-tolerance.js';
import { optimalLoad, quorumSizes } from './metrics.js';

/** Figures over the assigned quorums, from the brute-force metrics of `metrics.ts`. */
export interface AssignedFigures extends QuorumFigures {
  /**
   * All three figures are exact (fault tolerance within its search budget, load certified by the
   * LP bracket, availability by enumeration rather than Monte Carlo).
   */
  readonly exact: boolean;
}

/** The outcome of {@link coterieMetrics}. */
export interface CoterieMetrics {
  /** The crash probability both availabilities are computed at. */
  readonly crashProbability: number;
  /**
   * Over `c.quorums`, the assigned quorums: what Maekawa and MUTIN get, since `P_i` always asks
   * its own `Q_i` and nobody substitutes another quorum when a member crashes. The same figures
   * as `faultTolerance(c)`, `optimalLoad(c)`, `availability(c, p)`.
   */
  readonly assigned: AssignedFigures;
  /**
   * Over the literature family `c.family` (every majority; the Agrawal–El Abbadi tree protocol),
   * by closed forms — what a protocol that may use any quorum of the family gets; the figures the
   * literature quotes. `undefined` when the coterie has no family.
   */
  readonly literature: FamilyMetrics | undefined;
}

/**
 * Fault tolerance, optimal load and availability of a coterie, over its assigned quorums and —
 * for `majority(n)` and `tree(n)` — over the literature family, clearly apart:
 *
 * ```ts
 * const m = coterieMetrics(majority(15), 0.1);
 * m.assigned.faultTolerance;   // 2        (the 15 cyclic windows)
 * m.literature?.faultTolerance; // 8        (every majority)
 * ```
 *
 * @param crashProbability each process crashes independently with this probability, in [0, 1].
 * @param options passed to {@link faultTolerance} (`budget`), {@link optimalLoad} (`maxLpSize`)
 *   and {@link availability} (`exactMaxN`, `samples`, `seed`) for the assigned figures.
 * @throws ConfigurationError if `crashProbability` is not in [0, 1].
 */
export function coterieMetrics(
  c: Coterie,
  crashProbability: number,
  options: {
    readonly budget?: number;
    readonly maxLpSize?: number;
    readonly exactMaxN?: number;
    readonly samples?: number;
    readonly seed?: number;
  } = {},
): CoterieMetrics {
  if (typeof crashProbability !== 'number' || !(crashProbability >= 0 && crashProbability <= 1)) {
    throw new ConfigurationError(
      `coterieMetrics: the crash probability must be a number in [0, 1], got ${String(crashProbability)}`,
    );
  }
  const sizes = quorumSizes(c);
  const ft = faultTolerance(c, options.budget === undefined ? {} : { budget: options.budget });
  const load = optimalLoad(c, options.maxLpSize === undefined ? {} : { maxLpSize: options.maxLpSize });
  const av = availability(c, crashProbability, {
    ...(options.exactMaxN === undefined ? {} : { exactMaxN: options.exactMaxN }),
    ...(options.samples === undefined ? {} : { samples: options.samples }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  });
  return {
    crashProbability,
    assigned: {
      quorumCount: sizes.count,
      quorumSize: { min: sizes.min, max: sizes.max },
      faultTolerance: ft.faultTolerance,
      load: load.load,
      availability: av.availability,
      exact: ft.exact && load.exact && av.exact,
    },
    literature: c.family === undefined ? undefined : familyMetrics(c.family, crashProbability),
  };
}
