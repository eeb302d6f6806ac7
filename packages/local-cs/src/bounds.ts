/**
 * The paper's message bounds (Kamei & Kakugawa 2017, Lemma 3 for li-LMUTIN — and so for ki-LMUTEX,
 * its complement — and Lemma 6 for LKCS), counted as the paper does: every message of an
 * exit+entry pair of P_i, self-messages included.
 */
import { ConfigurationError } from '@critsec/core';

/** The three algorithms of this package. */
export type LocalCsAlgorithm = 'lmutin' | 'lmutex' | 'lkcs';

/** Messages per exit+entry pair of a process with |N_i| = `degree` neighbours. */
export interface LocalCsBounds {
  /** Best case (no contention: the sequential workload), exact: 3(|N_i|+1) or 6(|N_i|+1). */
  readonly best: number;
  /**
   * Worst case as the lemma counts it: 6(|N_i|+1) or 12(|N_i|+1) — one Preempt, Relinquish and
   * extra Grant per neighbour and per algorithm type. For LKCS the sidetrack (Trigger,
   * RequestByTrigger and its grants) is not counted by Lemma 6 and comes on top when used.
   */
  readonly worst: number;
}

/**
 * Lemma 3 / Lemma 6 for one process.
 * @param algorithm `'lmutin'`, `'lmutex'` or `'lkcs'`.
 * @param degree |N_i| (a non-negative integer).
 * @throws ConfigurationError for an unknown algorithm or a bad degree.
 */
export function localCsBounds(algorithm: LocalCsAlgorithm, degree: number): LocalCsBounds {
  if (!Number.isSafeInteger(degree) || degree < 0) {
    throw new ConfigurationError(`localCsBounds: degree must be an integer ≥ 0, got ${String(degree)}`);
  }
  const size = degree + 1;
  switch (algorithm) {
    case 'lmutin':
    case 'lmutex':
      return { best: 3 * size, worst: 6 * size };
    case 'lkcs':
      return { best: 6 * size, worst: 12 * size };
    default:
      throw new ConfigurationError(
        `localCsBounds: algorithm must be 'lmutin', 'lmutex' or 'lkcs', got ${String(algorithm)}`,
      );
  }
}
