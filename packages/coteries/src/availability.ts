/**
 * Availability of a quorum system under independent crashes (exact enumeration or seeded Monte
 * Carlo).
 * Computed on the quorums given (for a {@link Coterie}: the assigned quorums, which is what
 * Maekawa and MUTIN use); for the literature families of `majority(n)` and `tree(n)` see
 * `family.ts`.
 */
import { ConfigurationError } from '@critsec/core';
import { prepared } from './metrics.js';
import type { Prepared, QuorumSet } from './prepared.js';
import { seededRandom } from './random.js';

/** The outcome of {@link availability}. */
export interface AvailabilityResult {
  /** Probability that some quorum has no crashed member. */
  readonly availability: number;
  /** True for the exact computation, false for the Monte Carlo estimate. */
  readonly exact: boolean;
  /** Monte Carlo only: number of samples, the seed, and the standard error of the estimate. */
  readonly samples?: number;
  /** Monte Carlo only: the sampler's seed. */
  readonly seed?: number;
  /** Monte Carlo only: the standard error of the estimate. */
  readonly standardError?: number;
}

/**
 * Availability: the probability that at least one quorum survives when every process crashes
 * independently with probability `p` (so `1 − availability` is the failure probability of
 * Naor & Wool).
 *
 * Exact for systems whose quorums cover at most `exactMaxN` processes (default 22): a
 * depth-first walk over alive/crashed decisions that stops as soon as a quorum is fully alive
 * (the whole subtree counts) or every quorum is hit (it counts zero). Beyond: Monte Carlo with
 * `samples` (default 20,000) crash patterns from a seeded Mersenne Twister (`seed`, default 1);
 * the result carries its standard error.
 *
 * @param p crash probability of each process, 0 ≤ p ≤ 1.
 * @throws ConfigurationError if p is not in [0, 1], or a quorum is empty or out of range.
 */
export function availability(
  c: QuorumSet,
  p: number,
  options: { readonly exactMaxN?: number; readonly samples?: number; readonly seed?: number } = {},
): AvailabilityResult {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
    throw new ConfigurationError(
      `availability: the crash probability p must be a number in [0, 1], got ${String(p)}`,
    );
  }
  const pr = prepared(c, 'availability');
  const holders: number[][] = Array.from({ length: pr.n }, () => []);
  pr.quorums.forEach((q, j) => {
    for (const i of q) holders[i]!.push(j);
  });
  const involved = holders.map((h, i) => [i, h.length] as const).filter(([, d]) => d > 0);
  if (involved.length <= (options.exactMaxN ?? 22)) {
    const order = involved.sort((a, b) => b[1] - a[1]).map(([i]) => i);
    return { availability: exactAvailability(pr, holders, order, p), exact: true };
  }
  return sampledAvailability(pr, holders, p, options.samples ?? 20_000, options.seed ?? 1);
}

/**
 * The exact availability: a depth-first walk over alive/crashed decisions of the processes in
 * `order` that stops as soon as a quorum is fully alive (the whole subtree counts) or every
 * quorum is hit (it counts zero).
 */
function exactAvailability(
  pr: Prepared,
  holders: readonly number[][],
  order: readonly number[],
  p: number,
): number {
  const m = pr.quorums.length;
  const rem = Int32Array.from(pr.sizes);
  const hit = new Int32Array(m);
  let unhit = m;
  let alive = 0; // quorums fully alive
  const q = 1 - p;
  const walk = (t: number, prob: number): number => {
    if (alive > 0) return prob;
    if (unhit === 0 || prob === 0 || t === order.length) return 0;
    const v = order[t]!;
    let total = 0;
    for (const j of holders[v]!) if (--rem[j]! === 0 && hit[j] === 0) alive++;
    total += walk(t + 1, prob * q);
    for (const j of holders[v]!) if (rem[j]!++ === 0 && hit[j] === 0) alive--;
    for (const j of holders[v]!) if (hit[j]!++ === 0) unhit--;
    total += walk(t + 1, prob * p);
    for (const j of holders[v]!) if (--hit[j]! === 0) unhit++;
    return total;
  };
  return walk(0, 1);
}

/** The crashed processes of one Monte Carlo sample, as a list and as a bitset. */
interface CrashSampler {
  readonly dead: () => readonly number[];
  readonly deadBits: Uint32Array;
  /** Draws the next sample. */
  readonly draw: () => void;
}

/**
 * Crash patterns from `rnd`: for small p, jump over the survivors with geometric gaps (one
 * random draw per crash instead of one per process).
 */
function crashSampler(
  n: number,
  words: number,
  p: number,
  rnd: ReturnType<typeof seededRandom>,
): CrashSampler {
  const deadBits = new Uint32Array(words);
  let dead: number[] = [];
  const logSurvive = Math.log1p(-p);
  const draw = () => {
    for (const i of dead) deadBits[i >>> 5] = 0;
    dead = [];
    if (p === 0) return;
    if (p >= 0.25) {
      for (let i = 0; i < n; i++) if (rnd.float() < p) dead.push(i);
    } else {
      for (
        let i = Math.floor(Math.log(1 - rnd.float()) / logSurvive);
        i < n;
        i += 1 + Math.floor(Math.log(1 - rnd.float()) / logSurvive)
      ) {
        dead.push(i);
      }
    }
    for (const i of dead) deadBits[i >>> 5]! |= 1 << (i & 31);
  };
  return { dead: () => dead, deadBits, draw };
}

/** True when quorum `j` has no crashed member (by bitset for large quorums, else by members). */
function quorumUp(pr: Prepared, j: number, deadBits: Uint32Array): boolean {
  const words = deadBits.length;
  if (pr.sizes[j]! > words) {
    const b = pr.bits[j]!;
    for (let w = 0; w < words; w++) if ((b[w]! & deadBits[w]!) !== 0) return false;
    return true;
  }
  for (const i of pr.quorums[j]!) if ((deadBits[i >>> 5]! & (1 << (i & 31))) !== 0) return false;
  return true;
}

/** The Monte Carlo estimate over `samples` crash patterns from a seeded Mersenne Twister. */
function sampledAvailability(
  pr: Prepared,
  holders: readonly number[][],
  p: number,
  samples: number,
  seed: number,
): AvailabilityResult {
  const m = pr.quorums.length;
  const words = pr.bits[0]!.length;
  const crashes = crashSampler(pr.n, words, p, seededRandom(seed));
  // Two ways to test "some quorum has no crashed member": scan quorums until one is intact
  // (about m·min(1/p, |Q|, words) steps per sample), or mark the quorums the crashed processes hit
  // and compare the count with m (about p·Σ|Q| steps). Take the cheaper one.
  const scanCost = m * Math.min(p > 0 ? 1 / p : Number.POSITIVE_INFINITY, pr.totalSize / m, words + 1);
  const markCost = p * pr.totalSize + m / 8;
  const stamp = new Int32Array(m).fill(-1);
  let ok = 0;
  for (let s = 0; s < samples; s++) {
    crashes.draw();
    if (markCost < scanCost) {
      let hitCount = 0;
      for (const d of crashes.dead()) {
        for (const j of holders[d]!) {
          if (stamp[j] !== s) {
            stamp[j] = s;
            hitCount++;
          }
        }
      }
      if (hitCount < m) ok++;
      continue;
    }
    for (let j = 0; j < m; j++) {
      if (quorumUp(pr, j, crashes.deadBits)) {
        ok++;
        break;
      }
    }
  }
  const a = ok / samples;
  return { availability: a, exact: false, samples, seed, standardError: Math.sqrt((a * (1 - a)) / samples) };
}
