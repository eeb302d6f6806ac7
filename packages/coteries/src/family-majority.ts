/**
 * The majority coterie as the literature defines it (Thomas 1979; Garcia-Molina & Barbara, JACM
 * 32(4), 1985; global-CS paper, Example 1): every majority of the n processes is a quorum, not
 * only the n cyclic windows {@link majority} assigns. Closed forms and enumeration. Internal to
 * the package; the public face is `familyMetrics` / `familyQuorums` in `family.ts`.
 *
 * - n odd (n = 2h + 1): the quorums are all sets of h + 1 processes.
 * - n even (n = 2h), the paper's `C₁ ∪ C₂` with the tie broken by `P_0` (the same rule
 *   {@link majority}'s assignment follows): C₁ = every set of h processes containing `P_0`,
 *   C₂ = every set of h + 1 processes not containing `P_0`. It dominates the plain family of all
 *   (h + 1)-sets and contains every assigned quorum of `majority(n)`.
 */
import type { ProcessId } from '@critsec/core';

/** C(n, k) as a double (exact while ≤ 2^53; `Infinity` past ~1.8·10³⁰⁸). */
function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const r = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= r; i++) c = (c * (n - r + i)) / i;
  return Number.isFinite(c) ? Math.round(c) : c;
}

/** P(X ≥ k) for X ~ Binomial(m, q), summed term by term (no cancellation). */
function binomialTail(m: number, q: number, k: number): number {
  if (k <= 0) return 1;
  if (k > m) return 0;
  if (q <= 0) return 0;
  if (q >= 1) return 1;
  const lq = Math.log(q);
  const lp = Math.log1p(-q);
  // log C(m, j) built incrementally from j = 0
  let logC = 0;
  let sum = 0;
  for (let j = 1; j <= m; j++) {
    logC += Math.log(m - j + 1) - Math.log(j);
    if (j >= k) sum += Math.exp(logC + j * lq + (m - j) * lp);
  }
  return Math.min(1, sum);
}

/** The closed-form figures of a literature family (family.ts turns them into `QuorumFigures`). */
export interface ClosedFormFigures {
  quorumCount: number;
  minSize: number;
  maxSize: number;
  faultTolerance: number;
  load: number;
  availability: number;
}

/** Closed-form figures of the majority family over n processes (n ≥ 1). */
export function majorityFigures(n: number, crashProbability: number): ClosedFormFigures {
  const up = 1 - crashProbability;
  if (n % 2 === 1) {
    const k = (n + 1) / 2;
    return {
      quorumCount: binomial(n, k),
      minSize: k,
      maxSize: k,
      // a crash set hits every (h+1)-set iff fewer than h + 1 survive: at least n − h = h + 1 crashes
      faultTolerance: k,
      // the uniform strategy puts every process in k/n of the quorums; 1/c ≤ L and c/n ≤ L meet
      load: k / n,
      availability: binomialTail(n, up, k),
    };
  }
  const h = n / 2;
  if (n === 2) {
    // C₂ would need 2 processes besides P_0: the family is {{P_0}}
    return { quorumCount: 1, minSize: 1, maxSize: 1, faultTolerance: 1, load: 1, availability: up };
  }
  return {
    quorumCount: binomial(n - 1, h - 1) + binomial(n - 1, h + 1),
    minSize: h,
    maxSize: h + 1,
    // P_0 up: at most h − 1 survive (h + 1 crashes); P_0 down: at most h survive (h crashes)
    faultTolerance: h,
    // weight α on C₁, 1 − α on C₂, each uniform: P_0 carries α, every other process
    // α(h−1)/(n−1) + (1−α)(h+1)/(n−1); equal at α = (h+1)/(2h+1), optimal by symmetry and convexity
    load: (h + 1) / (2 * h + 1),
    // P_0 up and ≥ h − 1 of the others up, or P_0 down and ≥ h + 1 of the others up
    availability: up * binomialTail(n - 1, up, h - 1) + (1 - up) * binomialTail(n - 1, up, h + 1),
  };
}

/** Every quorum of the majority family over n processes, each sorted ascending. */
export function majorityQuorums(n: number): ProcessId[][] {
  const out: ProcessId[][] = [];
  const pick: ProcessId[] = [];
  const choose = (from: number, k: number) => {
    if (k === 0) {
      out.push(pick.slice());
      return;
    }
    for (let x = from; x <= n - k; x++) {
      pick.push(x);
      choose(x + 1, k - 1);
      pick.pop();
    }
  };
  if (n % 2 === 1) {
    choose(0, (n + 1) / 2);
    return out;
  }
  const h = n / 2;
  pick.push(0);
  choose(1, h - 1); // C₁: P_0 and h − 1 others
  pick.pop();
  choose(1, h + 1); // C₂: h + 1 processes, P_0 not among them
  return out;
}
