/*
 * (l,k)-GCS and k-mutual exclusion — Kamei & Kakugawa, "Asynchronous message-passing distributed
 * algorithm for the global critical section problem", IJNC 9(2), 2019, Section 5, Algorithm 3
 * (Theorems 3–4), with kmex derived from MUTIN(n−k) by the Complementary Theorem (Section 2,
 * Theorem 1): lmin = MUTIN(l), kmex = Co-MUTIN(n−k), (l,k)-GCS = compose(lmin, kmex).
 */
import { complement } from '@critsec/complement';
import { ConfigurationError, type CSFactory, type ProcessContext } from '@critsec/core';
import { countInCS } from '@critsec/core/kit';
import type { Coterie } from '@critsec/coteries';
import { mutin } from '@critsec/mutin';
import { compose } from './compose.js';
import { type GcsTimeBounds, innerMx } from './time-bounds.js';

/** Settings of {@link kMutex} (time bounds: {@link GcsTimeBounds}, issue 28). */
export interface KMutexOptions extends GcsTimeBounds {
  /** k: at most k processes are InCS at any time; `1 ≤ k ≤ n`. */
  readonly k: number;
  /** The coterie of the underlying MUTIN(n−k); over the same n as the cluster. */
  readonly coterie: Coterie;
  /** The mutual exclusion MUTIN uses to serialize (any plain `CSFactory`; default Maekawa). */
  readonly mx?: CSFactory;
}

/** Settings of {@link gcs} (time bounds: {@link GcsTimeBounds}, issue 28). */
export interface GcsOptions extends GcsTimeBounds {
  /** l: at least l processes InCS; `0 ≤ l < k`. */
  readonly l: number;
  /** k: at most k processes InCS; `l < k ≤ n`. */
  readonly k: number;
  /** The coterie both gadgets use; over the same n as the cluster. */
  readonly coterie: Coterie;
  /** The mutual exclusion each MUTIN uses (one instance each, on `lmin/mx` and `kmex/mx`). */
  readonly mx?: CSFactory;
}

function describeInCS(ctx: ProcessContext): string {
  const who = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [`P${i}`] : []));
  if (who.length === 0) return '0 processes InCS';
  return `${who.length} process(es) InCS (${who.slice(0, 8).join(', ')}${who.length > 8 ? ', …' : ''})`;
}

function checkK(k: unknown): asserts k is number {
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1) {
    throw new ConfigurationError(`kMutex: k must be an integer with 1 ≤ k ≤ n, got k = ${String(k)}`);
  }
}

/**
 * k-mutual exclusion as the complement of MUTIN(n−k) (global-CS paper, Sec. 5 with Thm. 1):
 * at most `k` processes InCS. `entry` is MUTIN(n−k)'s Exit() (blocks while k are InCS), `exit`
 * is MUTIN(n−k)'s Entry() (never blocks). Waiting time ≤ 7 (entry), 2 (exit); messages per
 * pair as MUTIN's (Lemma 3).
 *
 * @throws ConfigurationError (here) if `k` is not an integer ≥ 1; (from the factory, before any
 *   message) unless `k ≤ n`, the coterie is over the same n, and at most k processes start InCS.
 * @throws CoterieError (from the factory) for an invalid coterie.
 */
export function kMutex(options: KMutexOptions): CSFactory {
  const { k, coterie, mx } = options ?? ({} as KMutexOptions);
  checkK(k);
  const inner = innerMx('kMutex', coterie, mx, options);
  const made = new Map<number, CSFactory>();
  return (ctx: ProcessContext) => {
    const n = ctx.n;
    if (k > n) throw new ConfigurationError(`kMutex: need 1 ≤ k ≤ n = ${n}, got k = ${k}`);
    if (countInCS(ctx.initial) > k) {
      throw new ConfigurationError(
        `kMutex: the initial configuration is unsafe for ${k}-mutual exclusion: ${describeInCS(ctx)}, expected at most k = ${k}`,
      );
    }
    let f = made.get(n);
    if (f === undefined) {
      f = complement(mutin({ l: n - k, coterie, ...inner }));
      made.set(n, f);
    }
    return f(ctx);
  };
}

/**
 * The (l,k)-GCS of the global-CS paper (Sec. 5, Algorithm 3, Theorems 3–4): at least `l` and at
 * most `k` processes InCS at any time. `compose(lmin, kmex)` with `lmin = mutin({ l })` on the
 * channel `lmin` and `kmex = kMutex({ k })` on the channel `kmex`.
 *
 * Costs (Theorem 4): O(|Q|) messages per exit+entry pair (lmin's pair + kmex's pair); waiting
 * time ≤ 9 time units for both exit and entry.
 *
 * @throws ConfigurationError (here) unless `l`, `k` are integers with `0 ≤ l < k`; (from the
 *   factory, before any message) unless `k ≤ n`, the coterie is over the same n, and the
 *   initial configuration is safe, `l ≤ #InCS ≤ k`.
 * @throws ConfigurationError (here) for time bounds with a user's `mx` or bad ones (from
 *   `maekawa`); (from the factory) for a `ttl` without `ctx.clock`.
 * @throws CoterieError (from the factory) for an invalid coterie.
 *
 * Time bounds (issue 28, {@link GcsTimeBounds}): with a `ttl` (in the clock's unit: ms on a real
 * member) both inner Maekawas reclaim grants their holders stopped renewing, and an exit (lmin's)
 * or entry (kmex's) commits only while its grant's tenure holds, else it is undone and rejects with
 * `TenureExpiredError` (the state unchanged; call again). Guarantee: `l ≤ #InCS ≤ k` holds on
 * states assuming only that clock rates err by less than the drift margin; no slot of the k is
 * ever reclaimed from a process InCS, and a crashed process InCS counts as InCS (for l and for
 * k) until it recovers. The README's "Crash-stop, pauses and partitions" section has the analysis.
 *
 * @example
 * ```ts
 * // at least 2 and at most 5 of 12 servers are up
 * const factory = gcs({ l: 2, k: 5, coterie: grid(12) });
 * ```
 */
export function gcs(options: GcsOptions): CSFactory {
  const { l, k, coterie, mx } = options ?? ({} as GcsOptions);
  if (
    typeof l !== 'number' ||
    typeof k !== 'number' ||
    !Number.isSafeInteger(l) ||
    !Number.isSafeInteger(k)
  ) {
    throw new ConfigurationError(`gcs: l and k must be integers, got l = ${String(l)}, k = ${String(k)}`);
  }
  if (l < 0 || l >= k) {
    throw new ConfigurationError(
      `gcs: need 0 ≤ l < k ≤ n (l = k leaves no process able to move, Def. 2), got l = ${l}, k = ${k}`,
    );
  }
  const timeBounds = { ttl: options.ttl, driftMargin: options.driftMargin, fencing: options.fencing };
  const bounds = innerMx('gcs', coterie, mx, timeBounds);
  const inner = compose(
    mutin({ l, coterie, ...bounds }),
    kMutex({ k, coterie, ...(mx === undefined ? {} : { mx }), ...timeBounds }),
    { channels: ['lmin', 'kmex'] },
  );
  return (ctx: ProcessContext) => {
    const n = ctx.n;
    if (k > n) throw new ConfigurationError(`gcs: need 0 ≤ l < k ≤ n = ${n}, got l = ${l}, k = ${k}`);
    const c = countInCS(ctx.initial);
    if (c < l || c > k) {
      throw new ConfigurationError(
        `gcs: the initial configuration is unsafe for the (${l},${k})-CS: ${describeInCS(ctx)}, expected between l = ${l} and k = ${k}`,
      );
    }
    return inner(ctx);
  };
}
