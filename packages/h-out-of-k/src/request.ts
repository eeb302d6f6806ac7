/**
 * Request generators for workloads (the CLI's `--h H | --h random`): what `runWorkload`'s
 * `request` option takes for h-out-of-k objects.
 */
import { ConfigurationError } from '@critsec/core';

/** The part of a seeded random generator a request generator uses (`Rng` of `@critsec/transport-sim`). */
export interface UnitsRng {
  /** An integer in `[0, bound)`. */
  int(bound: number): number;
}

/**
 * The h of every entry: a fixed `h`, or `'random'` — h uniform in 1..k, drawn per entry from the
 * workload's seeded generator.
 * @throws ConfigurationError unless k is an integer ≥ 1 and h is `'random'` or an integer in 1..k.
 */
export function hOutOfKRequest(k: number, h: number | 'random'): (rng: UnitsRng) => number {
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new ConfigurationError(`hOutOfKRequest: k (units) must be an integer ≥ 1, got k = ${String(k)}`);
  }
  if (h === 'random') return (rng) => 1 + rng.int(k);
  if (!Number.isSafeInteger(h) || h < 1 || h > k) {
    throw new ConfigurationError(
      `hOutOfKRequest: h must be 'random' or an integer with 1 ≤ h ≤ k = ${k}, got h = ${String(h)}`,
    );
  }
  return () => h;
}
