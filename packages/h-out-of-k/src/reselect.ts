/**
 * Quorum reselection for the requester of h-out-of-k (issue 28 §4; a deviation from the paper,
 * whose `P_i` always asks its one quorum `q_{h,k}(i)`). Used only when `hOutOfK()` is built with
 * `reselect: true` and the process is given a failure detector (`ctx.suspicions` of
 * `@critsec/core`). The rules follow Maekawa's S1–S5 of `@critsec/mutex` (`maekawa-reselect.ts`)
 * in names and numbering. Internal to `@critsec/h-out-of-k`.
 *
 * S1 a request of h units asks `quorumAvoiding(arbiter.quorumSet(h), i, suspected)` of
 *    `@critsec/coteries` — `q_{h,k}(i)` itself while it avoids every suspected process, so
 *    nothing changes while nobody is suspected — or `q_{h,k}(i)` when no quorum of `Q_{h,k}`
 *    avoids them. The quorums drawn from are the (h,k)-arbiter's listed quorums for h
 *    (`quorumSet(h).quorums`), all of `Q_{h,k}`.
 * S2 while waiting (never InCS; confirming a token counts as waiting), after every change of the
 *    suspicions: if the quorum asked holds a suspect and another quorum of `Q_{h,k}` avoids them
 *    all, the attempt is **withdrawn** as an aborted `entry()` is (`release(seq)` to every arbiter
 *    asked: each gives back the units granted or in flight, or drops the queued request — the
 *    protocol's own withdrawal, probes included) and the request is made again on the new quorum
 *    under a **new tag** (`seq`, the next request count), so no `OK`, `cancel`, `probe`,
 *    `confirmed` or `expired` of the old attempt still in flight counts for the retry (it names
 *    the old `seq`: stale, ignored — or, for an `OK`, given back by the arbiter's `probe`). When
 *    no quorum avoids the suspects, the request keeps waiting where it is (S2 runs again at the
 *    next change).
 * S3 **priority kept**: the retry's `request(h, c, seq')` carries the clock `c` of the first
 *    attempt, so every arbiter ranks it exactly where it ranked the first (`(c, p)`, Sec. 4.1);
 *    only at the clock ceiling, where the default `'ceiling-fair'` order falls back to
 *    `(seq, p)`, does a retry rank behind the other requests at the ceiling.
 * S4 under reselection an arbiter accepts `request(h)` from every process when it belongs to some
 *    quorum of `Q_{h,k}`, and `release` / `cancelled` / `confirm` when it belongs to any; a
 *    requester accepts answers to its current request from the quorum it asks, and to another
 *    request from any member of any quorum (`roles.ts`). Every process of a cluster must use the
 *    same setting.
 * S5 with fencing or a ttl (issue 28 §1–2), the token is confirmed with, and the grant renewed
 *    with, the quorum the attempt asks (F5–F7 of `fence.ts`): a retry starts a fresh confirmation
 *    under its new `seq`; a holder never reselects.
 *
 * Safety never depends on the suspicions: every quorum returned is one of `Q_{h,k}`, and the
 * intersection property of an (h,k)-arbiter (Theorem 1) holds for **every** quorum assignment of a
 * critical conflicting request pattern, not only the per-process one — so requests that may not
 * be InCS together share an arbiter whichever quorums they picked, and that arbiter never grants
 * more than k units. Deadlock and starvation: a retry is an abort followed by a request with the
 * same priority, both already handled by Fig. 1 and the withdrawal; priorities stay a total order.
 */
import { ConfigurationError, type ProcessContext, type ProcessId, type Suspicions } from '@critsec/core';
import { type HKArbiter, quorumAvoiding } from '@critsec/coteries';
import { reach } from './rare-paths.js';

/**
 * Refuses an (h,k)-arbiter whose quorum set for some h has no alternative quorum (S1 could only
 * ever return `q_{h,k}(i)`).
 * @throws ConfigurationError naming the first such h.
 */
export function checkReselectable(arbiter: HKArbiter): void {
  for (let h = 1; h <= arbiter.k; h++) {
    const quorums = arbiter.quorumSet(h).quorums;
    if (quorums.length < 2) {
      throw new ConfigurationError(
        `hOutOfK({ reselect }): the arbiter (${arbiter.kind}) has one quorum for h = ${h} ({${quorums[0]?.join(', ') ?? ''}}), so a request of ${h} units has no other quorum to move to; build it with alternatives for every h, or leave reselect off`,
      );
    }
  }
}

/** The requester's quorum choice under reselection (S1, S2), over the process's suspicions. */
export class Reselection {
  readonly #arbiter: HKArbiter;
  readonly #id: ProcessId;
  readonly #suspicions: Suspicions;
  readonly #unsubscribe: () => void;

  /** @param onChange called after every change of the suspicions (S2 runs there). */
  constructor(arbiter: HKArbiter, id: ProcessId, suspicions: Suspicions, onChange: () => void) {
    this.#arbiter = arbiter;
    this.#id = id;
    this.#suspicions = suspicions;
    this.#unsubscribe = suspicions.onChange(onChange);
  }

  /** The reselection of process `ctx.id` when `on` and `ctx.suspicions` is given; else undefined. */
  static of(
    on: boolean,
    arbiter: HKArbiter,
    ctx: ProcessContext,
    onChange: () => void,
  ): Reselection | undefined {
    const s = on ? ctx.suspicions : undefined;
    return s === undefined ? undefined : new Reselection(arbiter, ctx.id, s, onChange);
  }

  /** S1: the quorum a new request of `h` units asks. */
  choose(h: number): readonly ProcessId[] {
    const set = this.#arbiter.quorumSet(h);
    return quorumAvoiding(set, this.#id, this.#suspicions.suspected()) ?? set.quorumOf(this.#id);
  }

  /** S2: the quorum to retry on when `asked` holds a suspect and another quorum avoids them; else undefined. */
  retryOn(asked: readonly ProcessId[], h: number): readonly ProcessId[] | undefined {
    const suspected = this.#suspicions.suspected();
    if (!asked.some((p) => suspected.has(p))) return undefined;
    const to = quorumAvoiding(this.#arbiter.quorumSet(h), this.#id, suspected);
    if (to !== undefined) reach('h-out-of-k:reselected');
    return to;
  }

  /** Stops listening to the suspicions (the object closed). */
  close(): void {
    this.#unsubscribe();
  }
}
