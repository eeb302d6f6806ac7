/**
 * Request patterns of h-out-of-k mutual exclusion — h-out-of-k paper, Sec. 3.1, Defs. 3–4 and
 * Theorem 2. A request pattern r_k is a bag of unit counts in 1..k (Def. 3); it is *conflicting*
 * iff Σ_{h∈r_k} h ≥ k + 1, and a conflicting pattern is *critical* iff removing any one request
 * leaves a non-conflicting bag (Def. 4), i.e. iff Σ − min ≤ k, which is Theorem 2's bound
 * Σ ≤ k + min h together with conflict.
 */
import { ConfigurationError } from '@critsec/core';

function assertPattern(r: readonly number[], k: number): void {
  if (!Number.isSafeInteger(k) || k < 1)
    throw new ConfigurationError(`k must be an integer ≥ 1, got ${String(k)}`);
  for (const h of r) {
    if (!Number.isSafeInteger(h) || h < 1 || h > k) {
      throw new ConfigurationError(
        `a request pattern holds unit counts h with 1 ≤ h ≤ k = ${k}, got ${String(h)}`,
      );
    }
  }
}

function sum(r: readonly number[]): number {
  let s = 0;
  for (const h of r) s += h;
  return s;
}

/**
 * Def. 4: `r` (a bag of unit counts in 1..k) is conflicting iff Σ h ≥ k + 1.
 * @throws ConfigurationError if some h is not an integer in 1..k.
 */
export function isConflicting(r: readonly number[], k: number): boolean {
  assertPattern(r, k);
  return sum(r) >= k + 1;
}

/**
 * Def. 4: a conflicting `r` is critical iff `r − {h}` is not conflicting for every h ∈ r,
 * i.e. iff k + 1 ≤ Σ ≤ k + min h (Theorem 2). For k = 4, {2, 2, 3} is conflicting but not critical,
 * {1, 1, 1, 2} is critical.
 * @throws ConfigurationError if some h is not an integer in 1..k.
 */
export function isCritical(r: readonly number[], k: number): boolean {
  assertPattern(r, k);
  if (r.length === 0) return false;
  const s = sum(r);
  return s >= k + 1 && s - Math.min(...r) <= k;
}

/**
 * Every critical conflicting request pattern for k units, each bag sorted ascending (as the paper
 * writes them), in lexicographic order of the bag sorted descending. Enumerates non-increasing
 * sequences whose proper prefix sums stay ≤ k and whose total reaches k + 1: the last (smallest)
 * element is the minimum, so these are exactly the bags with Σ − min ≤ k < Σ.
 * @throws ConfigurationError if k is not an integer in 1..64.
 */
export function criticalConflictingPatterns(k: number): number[][] {
  if (!Number.isSafeInteger(k) || k < 1 || k > 64) {
    throw new ConfigurationError(
      `criticalConflictingPatterns(k): k must be an integer in 1..64, got ${String(k)}`,
    );
  }
  const out: number[][] = [];
  const seq: number[] = [];
  const walk = (max: number, s: number) => {
    for (let h = max; h >= 1; h--) {
      seq.push(h);
      if (s + h >= k + 1) out.push(seq.slice().reverse());
      else walk(h, s + h);
      seq.pop();
    }
  };
  walk(k, 0);
  return out;
}
