/**
 * Quorum reselection for Maekawa's requester (issue 28 §4; a deviation from the papers, which
 * assume no failures and a fixed `Q_i`). With `maekawa({ coterie, reselect: true })` and a
 * failure detector (`ctx.suspicions` of `@critsec/core`):
 *
 * S1 entry asks `quorumAvoiding(coterie, i, suspected)` (`@critsec/coteries`) — `Q_i` itself while
 *    it avoids every suspected process — or `Q_i` when no quorum of the family avoids them.
 * S2 while waiting (not InCS), after every change of the suspicions: if the quorum asked holds a
 *    suspected member and another quorum of the family avoids every suspect, the attempt is
 *    **aborted** as R6 withdraws an entry (RELEASE of its tag to every arbiter asked: each gives
 *    the lock back or drops the queued request) and the request is made again on the new quorum
 *    under a **new tag** (the previous tag + 1), so no LOCKED / FAILED / INQUIRE of the aborted
 *    attempt still in flight can count for the retry (it names the old tag: stale, ignored). When
 *    no quorum avoids the suspects, the request keeps waiting where it is (S2 runs again at the
 *    next change).
 * S3 **priority kept**: under reselection a request's tag is `ts · RETRY_SLOTS` (its Lamport
 *    timestamp scaled; `maekawa-tags.ts`) and a retry's the previous tag + 1, so arbiters — which order requests by
 *    tag, then id — rank a retry right behind the requests of its own timestamp and before every
 *    later one (exactly as before the retry, but for ties of equal timestamps, which the retry
 *    may lose; after `RETRY_SLOTS − 1` retries of one request its priority moves to the next
 *    timestamp's slot). Every process of the cluster must use the same setting.
 * S4 an arbiter accepts REQUEST / RELINQUISH / RELEASE from every process (any process may ask
 *    any quorum of the family containing it); the requester accepts arbiter messages from any
 *    process (those of an arbiter it no longer asks carry an old tag and are stale).
 *
 * S5 with fencing or a ttl (issue 28 §1–2): the token is confirmed with the quorum the attempt
 *    asks and a holder renews with the quorum it entered with (F5–F7 of `maekawa-fence.ts`); a
 *    retry's new tag makes every FENCE_LOCKED, CONFIRMED and EXPIRED of the old attempt stale.
 *    A member that dies or is cut off holding a lock (InCS, or waiting with some locks) loses it
 *    at each arbiter within the ttl (A6 of `maekawa-arbiter.ts`: reclaimed, the next request
 *    granted), so the processes that reach a live quorum keep entering; without a ttl its locks
 *    stay held and every quorum through those arbiters is blocked.
 *
 * Safety never depends on the suspicions: every quorum `quorumAvoiding` can return belongs to one
 * family whose quorums pairwise intersect, so two requesters that both hold every lock of their
 * (possibly different) quorums share an arbiter, which granted its one lock to only one of them.
 * Deadlock-freedom: a retry is an abort followed by a new request, both already handled by
 * A1–A4; tags stay distinct and increasing per process (R7 and A4 rely on that).
 */
import type { ProcessContext, ProcessId, Suspicions } from '@critsec/core';
import { type Coterie, quorumAvoiding } from '@critsec/coteries';
import { reach } from './maekawa-protocol.js';

/** Every process id `0..n−1` (S4: whom the requester and the arbiter accept messages from). */
export function everyone(n: number): readonly ProcessId[] {
  return Object.freeze(Array.from({ length: n }, (_, p) => p));
}

/** The requester's quorum choice under reselection (S1, S2), over the process's suspicions. */
export class Reselection {
  readonly #coterie: Coterie;
  readonly #id: ProcessId;
  readonly #suspicions: Suspicions;
  readonly #unsubscribe: () => void;

  /** @param onChange called after every change of the suspicions (S2 runs there). */
  constructor(coterie: Coterie, id: ProcessId, suspicions: Suspicions, onChange: () => void) {
    this.#coterie = coterie;
    this.#id = id;
    this.#suspicions = suspicions;
    this.#unsubscribe = suspicions.onChange(onChange);
  }

  /** The reselection of process `ctx.id` when `on` and `ctx.suspicions` is given; else undefined. */
  static of(
    on: boolean,
    coterie: Coterie,
    ctx: ProcessContext,
    onChange: () => void,
  ): Reselection | undefined {
    const s = on ? ctx.suspicions : undefined;
    return s === undefined ? undefined : new Reselection(coterie, ctx.id, s, onChange);
  }

  /** S1: the quorum a new request asks. */
  choose(): readonly ProcessId[] {
    const avoiding = quorumAvoiding(this.#coterie, this.#id, this.#suspicions.suspected());
    return avoiding ?? this.#coterie.quorumOf(this.#id);
  }

  /** S2: the quorum to retry on when `asked` holds a suspect and another quorum avoids them; else undefined. */
  retryOn(asked: readonly ProcessId[]): readonly ProcessId[] | undefined {
    const suspected = this.#suspicions.suspected();
    if (!asked.some((p) => suspected.has(p))) return undefined;
    const to = quorumAvoiding(this.#coterie, this.#id, suspected);
    if (to !== undefined) reach('maekawa:reselected');
    return to;
  }

  /** Stops listening to the suspicions (the object closed). */
  close(): void {
    this.#unsubscribe();
  }
}
