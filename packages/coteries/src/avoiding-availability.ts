/**
 * Availability with quorum reselection, measured through {@link quorumAvoiding} itself: the
 * probability, under independent crashes, that a live process finds a quorum with no crashed
 * member. It is the figure the library computes for the family reselection draws from
 * (`familyMetrics(c, p).availability` for `majority(n)` and `tree(n)`, `availability(c, p)` over
 * `c.quorums` otherwise) — measured here from the function the protocols call, so that the two
 * are checked against each other (`test/avoiding.test.ts`).
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import type { AvailabilityResult } from './availability.js';
import { quorumAvoiding } from './avoiding.js';
import type { Coterie } from './coterie.js';
import { seededRandom } from './random.js';

/** Options of {@link reselectionAvailability}. */
export interface ReselectionAvailabilityOptions {
  /** Enumerate every crash set while `n` is at most this (default 16: 65,536 sets); else sample. */
  readonly exactMaxN?: number;
  /** Monte Carlo: number of crash sets drawn (default 20,000). */
  readonly samples?: number;
  /** Monte Carlo: the seed of the sampler (pure-rand's Mersenne Twister, default 1). */
  readonly seed?: number;
}

/**
 * The fraction of crash sets, weighted by their probability when every process crashes
 * independently with probability `p`, under which `quorumAvoiding(c, i, crashed)` returns a
 * quorum for `i` = the lowest-numbered live process (none when every process crashed). Exact by
 * enumeration of all 2^n crash sets while n ≤ `exactMaxN`, else a seeded Monte Carlo estimate
 * with its standard error. O(2^n · n) (exact) or O(samples · n) (sampled) calls' worth of work.
 *
 * @param c the coterie; its family (or its `quorums`) is what reselection draws from.
 * @param p crash probability of each process, 0 ≤ p ≤ 1.
 * @throws ConfigurationError if `p` is not in [0, 1].
 * @example
 * ```ts
 * reselectionAvailability(majority(5), 0.1).availability; // 0.99144 = familyMetrics(majority(5), 0.1).availability
 * availability(majority(5), 0.1).availability;            // 0.95499: the 5 assigned windows alone
 * ```
 */
export function reselectionAvailability(
  c: Coterie,
  p: number,
  options: ReselectionAvailabilityOptions = {},
): AvailabilityResult {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
    throw new ConfigurationError(
      `reselectionAvailability: the crash probability p must be a number in [0, 1], got ${String(p)}`,
    );
  }
  const n = c.n;
  if (n <= (options.exactMaxN ?? 16)) {
    let total = 0;
    const crashed = new Set<ProcessId>();
    for (let mask = 0; mask < 2 ** n; mask++) {
      crashed.clear();
      for (let x = 0; x < n; x++) if ((mask >>> x) & 1) crashed.add(x);
      if (servable(c, crashed)) total += p ** crashed.size * (1 - p) ** (n - crashed.size);
    }
    return { availability: total, exact: true };
  }
  const samples = options.samples ?? 20_000;
  const seed = options.seed ?? 1;
  const rnd = seededRandom(seed);
  const crashed = new Set<ProcessId>();
  let ok = 0;
  for (let s = 0; s < samples; s++) {
    crashed.clear();
    for (let x = 0; x < n; x++) if (rnd.float() < p) crashed.add(x);
    if (servable(c, crashed)) ok++;
  }
  const a = ok / samples;
  return { availability: a, exact: false, samples, seed, standardError: Math.sqrt((a * (1 - a)) / samples) };
}

/** True when the lowest live process finds a quorum avoiding `crashed`. */
function servable(c: Coterie, crashed: ReadonlySet<ProcessId>): boolean {
  let i = 0;
  while (i < c.n && crashed.has(i)) i++;
  return i < c.n && quorumAvoiding(c, i, crashed) !== undefined;
}
