/**
 * The arbiter role of Maekawa's quorum mutual exclusion, deadlock-free form — Maekawa 1985 with
 * Sanders 1987's correction, as in Joung, "Quorum-based algorithms for group mutual exclusion",
 * IEEE TPDS 2003, Sec. 4.1 and **Fig. 6 "node i"** with one lock per node (`lock_ps`,
 * `requests`, `inquired_ps` are `grantedTo`, `queue`, `inquired` here). Every process is the
 * arbiter of each quorum it belongs to; the requester role and the deadlock-freedom argument are
 * in `maekawa-process.ts` and `maekawa.ts`.
 *
 * ## The rules implemented (arbiter `k`: `grantedTo`/`locked`, `queue`, `inquired`)
 *
 * A1 REQUEST(r) from `p`: if `k` is not locked, lock it for `p` (`grantedTo := (p, r)`,
 *    `inquired := false`) and send LOCKED(r). Otherwise insert `(r, p)` in `queue` and let
 *    `top` be the highest request among the holder and the queue:
 *    - if `p` is not `top`: send FAILED(r) to `p`;
 *    - if `p` is `top`: the previous queue head, if it had not been told (it was `top` until now),
 *      is **displaced** and gets FAILED; and if `inquired` is false, send INQUIRE(holder's tag) to
 *      the holder and set `inquired` — one INQUIRE per grant.
 *    Every queue entry carries a `failed` flag: FAILED was sent to it, or it relinquished here.
 * A2 RELINQUISH(r) from the holder (matching tag): put the holder back in `queue` (flag set — it
 *    knows), then grant the highest queued request (which may be the relinquisher again if the
 *    request that caused the INQUIRE was withdrawn meanwhile).
 * A3 RELEASE(r) from `p`: if `p` holds the lock with tag `r`, unlock and grant the head of
 *    `queue`; if `(r, p)` is queued (an aborted request), remove it and, if the new head beats
 *    the holder and `inquired` is false, send INQUIRE. Anything else is stale and ignored.
 *    RELEASE is both the exit's UNLOCK and the abort's cancel.
 *
 * Invariants (all handlers are atomic): (I1) not locked ⇒ queue empty; (I2) a queue entry
 * without the `failed` flag is the head and beats the holder (A1 flags every entry that is not
 * `top` and the head it displaces; a grant or relinquish makes the new holder beat every
 * remaining entry); (I3) if the head beats the holder then `inquired` holds and the holder was
 * sent INQUIRE for its current grant (A1, A3).
 */
import { type ProcessId, reach } from '@critsec/core';
import { IdIndex } from './id-index.js';
import type { MaekawaMessage, MaekawaRules, MaekawaSnapshot } from './maekawa-protocol.js';
import { beats, RequestQueue } from './request-queue.js';

const NONE = -1;

/** What an arbiter needs of its process: its id, clock, link and error channel. */
export interface MaekawaArbiterContext {
  /** This process. */
  readonly id: ProcessId;
  /** Number of processes. */
  readonly n: number;
  /** `R_i`: the processes whose quorum contains this one (the only ones that may ask it). */
  readonly reporters: readonly ProcessId[];
  /** The process's Lamport clock, read when a message is stamped. */
  readonly clock: { readonly sn: number };
  /** Sends one arbiter message (LOCKED, FAILED, INQUIRE). */
  readonly send: (to: ProcessId, msg: MaekawaMessage) => void;
}

/** The arbiter of one process (A1–A3). Internal to `@critsec/mutex`. */
export class MaekawaArbiter {
  readonly #id: ProcessId;
  readonly #clock: { readonly sn: number };
  readonly #sendTo: (to: ProcessId, msg: MaekawaMessage) => void;
  /** Processes allowed to ask this arbiter (`R_i`). */
  readonly #reporter: IdIndex;
  /** Conflict rules: the deadlock-free ones, or the paraphrased ones (tests only). */
  readonly #rules: MaekawaRules;

  /** Holder of this arbiter's lock (−1: not `locked`). */
  #grantedTo: ProcessId = NONE;
  /** Tag of the holder's request. */
  #grantedReq = 0;
  /** INQUIRE sent to the holder for the current grant. */
  #inquired = false;
  /** Waiting requests, by priority. */
  readonly #queue: RequestQueue;

  /**
   * @param holder the process InCS initially (it holds this lock with tag 0 if it may ask this
   *   arbiter), or −1.
   */
  constructor(ctx: MaekawaArbiterContext, rules: MaekawaRules, holder: ProcessId) {
    this.#id = ctx.id;
    this.#clock = ctx.clock;
    this.#sendTo = ctx.send;
    this.#rules = rules;
    this.#reporter = new IdIndex(ctx.reporters);
    this.#queue = new RequestQueue(ctx.reporters.length, ctx.n, this.#reporter);
    if (holder !== NONE && this.#reporter.indexOf(holder) >= 0) {
      this.#grantedTo = holder;
      this.#grantedReq = 0;
    }
  }

  /** The arbiter's variables (see {@link MaekawaSnapshot}). */
  snapshot(): MaekawaSnapshot['arbiter'] {
    return {
      grantedTo: this.#grantedTo,
      grantedReq: this.#grantedTo === NONE ? 0 : this.#grantedReq,
      inquired: this.#inquired,
      queue: this.#queue.toSortedArray(),
    };
  }

  /**
   * Whether `p` may send this arbiter REQUEST, RELINQUISH and RELEASE: `p ∈ R_i`, the processes
   * whose quorum contains this one. The process checks it before anything else (its clock
   * included) and reports a message from anyone else; the handlers below assume it.
   */
  mayAsk(p: ProcessId): boolean {
    return this.#reporter.indexOf(p) >= 0;
  }

  /** A1: REQUEST(req) from `p` (`p ∈ R_i`: see {@link MaekawaArbiter.mayAsk}). */
  onRequest(p: ProcessId, req: number): void {
    // FIFO puts a request's RELEASE before the next REQUEST, so p has nothing here. Only on a
    // reordering network can an entry of p remain: a newer request (larger tag) ends it, an older
    // REQUEST is stale. Safety never depends on this (see the negative test); liveness does.
    const at = this.#grantedTo === p ? NONE : this.#queue.indexOf(p);
    const existing = this.#grantedTo === p ? this.#grantedReq : at === NONE ? NONE : this.#queue.tsAt(at);
    if (existing !== NONE) {
      if (req <= existing) return;
      this.onRelease(p, existing);
    }
    if (this.#grantedTo === NONE) {
      this.#grant(p, req);
      return;
    }
    const holder = this.#grantedTo;
    const holderReq = this.#grantedReq;
    const headPid = this.#queue.headPid;
    const headTs = this.#queue.headTs;
    const beatsHolder = beats(req, p, holderReq, holder);
    if (this.#rules === 'paraphrased') {
      // the commonly paraphrased rule (deadlocks — kept only to show that the tests notice)
      this.#queue.push(p, req, !beatsHolder);
      if (beatsHolder) this.#inquireIfNeeded();
      else this.#send(p, 'FAILED', req);
      return;
    }
    const isTop = beatsHolder && (headPid === NONE || beats(req, p, headTs, headPid));
    if (!isTop) {
      this.#queue.push(p, req, true);
      this.#send(p, 'FAILED', req);
      return;
    }
    if (headPid !== NONE && !this.#queue.headFailed) {
      // the head was the top until now and was never told otherwise: it is displaced
      reach('maekawa:failed-displaced');
      this.#queue.markHeadFailed();
      this.#send(headPid, 'FAILED', headTs);
    }
    this.#queue.push(p, req, false);
    this.#inquireIfNeeded();
  }

  /** (I3): the head beats the holder ⇒ INQUIRE was sent for this grant. */
  #inquireIfNeeded(): void {
    if (this.#inquired || this.#grantedTo === NONE || this.#queue.size === 0) return;
    if (!beats(this.#queue.headTs, this.#queue.headPid, this.#grantedReq, this.#grantedTo)) return;
    reach('maekawa:inquire');
    this.#inquired = true;
    this.#send(this.#grantedTo, 'INQUIRE', this.#grantedReq);
  }

  /** A2: RELINQUISH(req) from the holder (`p ∈ R_i`). */
  onRelinquish(p: ProcessId, req: number): void {
    if (this.#grantedTo !== p || this.#grantedReq !== req) return;
    this.#queue.push(p, req, true);
    this.#grantNext();
    if (this.#grantedTo === p) reach('maekawa:regrant-relinquisher');
  }

  /** A3: RELEASE(req) from `p` (`p ∈ R_i`) — the exit's UNLOCK or the abort's cancel. */
  onRelease(p: ProcessId, req: number): void {
    if (this.#grantedTo === p && this.#grantedReq === req) {
      this.#grantNext();
      return;
    }
    const at = this.#queue.indexOf(p);
    if (at !== NONE && this.#queue.tsAt(at) === req) {
      reach('maekawa:cancel-queued');
      this.#queue.removeAt(at);
      this.#inquireIfNeeded();
    }
  }

  #grantNext(): void {
    // unlock (Fig. 6 F.3–F.4: lock_ps and inquired_ps lose the holder), then lock for the head
    this.#grantedTo = NONE;
    this.#inquired = false;
    if (this.#queue.size === 0) return;
    const p = this.#queue.headPid;
    const req = this.#queue.headTs;
    this.#queue.pop();
    this.#grant(p, req);
  }

  #grant(p: ProcessId, req: number): void {
    this.#grantedTo = p;
    this.#grantedReq = req;
    this.#inquired = false;
    this.#send(p, 'LOCKED', req);
  }

  #send(to: ProcessId, type: 'LOCKED' | 'FAILED' | 'INQUIRE', req: number): void {
    this.#sendTo(to, { type, req, ts: this.#clock.sn });
  }
}
