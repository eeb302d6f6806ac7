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
 * A4 (issue 27 §3, a deviation: not in the papers) **one request per process, and a PROBE when
 *    in doubt.** On FIFO links an honest `p` sends RELEASE(e) before its next REQUEST, and its tags
 *    only grow. So two situations are never honest: (a) a REQUEST(r) from a `p` that still has an
 *    entry `e` here (held or queued, r ≠ e), and (b) a REQUEST(r) from a `p` with no entry here
 *    and `r` at or below `done(p)`, the largest tag of `p` whose entry ended here by RELEASE.
 *    Then `p` restarted without its state, or a message was forged in `p`'s name — the arbiter
 *    cannot tell which of the two tags is `p`'s live request, and both ways of guessing break the
 *    cluster: ending `e` on a REQUEST alone let two processes in when `p` was InCS under `e`, and
 *    a lock granted to a tag `p` never issued (or already gave up) is never given back. So it
 *    asks: in (a) it keeps `e`, sets `r` **aside** (one per process; a further one is ignored
 *    until then) and sends PROBE(e); in (b) it admits `r` by A1 and sends PROBE(r). A requester
 *    answers PROBE(t) with RELEASE(t) when `t` is not its current request (R7 of
 *    `maekawa-process.ts`) and ignores it otherwise, so a tag ends here only if `p` says it is not
 *    (or no longer) using it: safety is untouched. When `p`'s entry ends (A3), the request set
 *    aside is admitted by A1 and probed in turn. RELEASE(r) of the request set aside withdraws it.
 *    An honest FIFO run never takes any of these paths (no PROBE is ever sent).
 *
 * A5 (issue 28, fencing; not in the papers) the arbiter keeps `hs`, the highest fencing token it
 *    has seen (durable), grants with FENCE_LOCKED(r, hs) instead of LOCKED, and on CONFIRM(r, t,
 *    round) from the holder of its current grant (tag `r`) sets `hs := max(hs, t)` and answers
 *    CONFIRMED(r, round); a CONFIRM for a grant that is not current is ignored (F2 of
 *    `maekawa-fence.ts`).
 * A6 (issue 28, TTL) each grant has a timer of `ttl` (the clock's unit) started at the grant and
 *    restarted by every accepted CONFIRM; when it fires the grant is **reclaimed**: EXPIRED(r) to
 *    the holder, then the head of the queue is granted as on a RELEASE. The holder's entry is
 *    gone (it asks again, F4); `done(p)` is not raised, so its same-tag REQUEST is admitted by A1.
 *    A restarted arbiter restarts the timer of a grant it recovered (never shorter than before).
 *    A grant to a process that never answers — crashed, paused or cut off, holder or waiter — is
 *    reclaimed the same way, so under quorum reselection (S5 of `maekawa-reselect.ts`) the
 *    arbiters a dead or cut-off member had locked serve the others again within `ttl`.
 *
 * Invariants (all handlers are atomic): (I1) not locked ⇒ queue empty; (I2) a queue entry
 * without the `failed` flag is the head and beats the holder (A1 flags every entry that is not
 * `top` and the head it displaces; a grant or relinquish makes the new holder beat every
 * remaining entry); (I3) if the head beats the holder then `inquired` holds and the holder was
 * sent INQUIRE for its current grant (A1, A3).
 */
import type { ProcessId, ProtocolClock } from '@critsec/core';
import { reach } from './maekawa-protocol.js';
import { IdIndex } from './id-index.js';
import type { MaekawaDurableState } from './maekawa-durable.js';
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
  /** Sends one arbiter message (LOCKED, FAILED, INQUIRE, PROBE; FENCE_LOCKED, CONFIRMED, EXPIRED). */
  readonly send: (to: ProcessId, msg: MaekawaMessage) => void;
  /** Fencing (A5) and, with `ttl` and `clock`, time-bounded grants (A6); absent: neither. */
  readonly fence?:
    | { readonly ttl: number | undefined; readonly clock: ProtocolClock | undefined }
    | undefined;
}

/** The arbiter of one process (A1–A4). Internal to `@critsec/mutex`. */
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
  /** `R_i`, in the order of `#reporter`'s positions. */
  readonly #reporters: readonly ProcessId[];
  /** A4: per reporter (position in `R_i`), the tag of a request set aside, −1 if none. */
  readonly #aside: Float64Array;
  /** A4: per reporter, `done(p)`: the largest tag of `p` whose entry ended here by RELEASE. */
  readonly #done: Float64Array;
  /** A5: fencing on. */
  readonly #fenced: boolean;
  /** A5: the highest fencing token seen (durable). */
  #hs = 0;
  /** A6: the grant's TTL and the clock it runs on (both set, or no TTL). */
  readonly #ttl: number | undefined;
  readonly #timerClock: ProtocolClock | undefined;
  /** A6: cancels the current grant's timer. */
  #cancelTimer: (() => void) | undefined;

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
    this.#reporters = ctx.reporters;
    this.#aside = new Float64Array(ctx.reporters.length).fill(NONE);
    // requests are tagged from 1: a REQUEST(0) is a tag no process issues (the initial holder's)
    this.#done = new Float64Array(ctx.reporters.length);
    if (holder !== NONE && this.#reporter.indexOf(holder) >= 0) {
      this.#grantedTo = holder;
      this.#grantedReq = 0;
    }
    this.#fenced = ctx.fence !== undefined;
    const ttl = ctx.fence?.ttl;
    [this.#ttl, this.#timerClock] = ttl === undefined ? [undefined, undefined] : [ttl, ctx.fence!.clock];
  }

  /** A5: the highest fencing token seen (durable with {@link snapshot}). */
  get highestToken(): number {
    return this.#hs;
  }

  /** The arbiter's variables (see {@link MaekawaSnapshot}). */
  snapshot(): MaekawaSnapshot['arbiter'] {
    return {
      grantedTo: this.#grantedTo,
      grantedReq: this.#grantedTo === NONE ? 0 : this.#grantedReq,
      inquired: this.#inquired,
      queue: this.#queue.toSortedArray(),
      aside: this.#reporters.flatMap((p, ix): [ProcessId, number][] =>
        this.#aside[ix] === NONE ? [] : [[p, this.#aside[ix]!]],
      ),
    };
  }

  /** A4's `done(p)` of every reporter with a nonzero one, `[p, tag]` (durable, with {@link snapshot}). */
  doneList(): [ProcessId, number][] {
    return this.#reporters.flatMap((p, ix): [ProcessId, number][] =>
      this.#done[ix] === 0 ? [] : [[p, this.#done[ix]!]],
    );
  }

  /** Resumes from a recovered state (checked by `parseMaekawaDurable`), replacing the initial one. */
  restore(a: MaekawaDurableState['arbiter']): void {
    this.#grantedTo = a.grantedTo;
    this.#grantedReq = a.grantedReq;
    this.#inquired = a.inquired;
    for (const [p, req, failed] of a.queue) this.#queue.push(p, req, failed);
    for (const [p, req] of a.aside) this.#aside[this.#reporter.indexOf(p)] = req;
    for (const [p, req] of a.done) this.#done[this.#reporter.indexOf(p)] = req;
    this.#hs = a.hs ?? 0;
    if (this.#grantedTo !== NONE) this.#armTimer();
  }

  /** A5: CONFIRM(req, token, round) from `p` (`p ∈ R_i`). */
  onConfirm(p: ProcessId, req: number, token: number, round: number): void {
    if (this.#grantedTo !== p || this.#grantedReq !== req) {
      reach('maekawa:confirm-stale');
      return;
    }
    if (token > this.#hs) this.#hs = token;
    this.#armTimer();
    this.#sendTo(p, { type: 'CONFIRMED', req, ts: this.#clock.sn, round });
  }

  /** A6: (re)starts the current grant's timer. */
  #armTimer(): void {
    this.#cancelTimer?.();
    const clock = this.#timerClock;
    if (clock === undefined) return;
    const [p, req] = [this.#grantedTo, this.#grantedReq];
    this.#cancelTimer = clock.setTimer(this.#ttl!, () => {
      this.#cancelTimer = undefined;
      if (this.#grantedTo === p && this.#grantedReq === req) this.#reclaim(p, req);
    });
  }

  /** A6: the grant of `p`'s `req` was not renewed within the TTL. */
  #reclaim(p: ProcessId, req: number): void {
    reach('maekawa:grant-expired');
    this.#send(p, 'EXPIRED', req);
    this.#grantNext();
    const ix = this.#reporter.indexOf(p);
    const aside = this.#aside[ix]!;
    if (aside === NONE) return;
    this.#aside[ix] = NONE;
    this.#admit(p, aside);
    this.#probe(p, aside);
  }

  /** Stops the grant's timer (the process closes). */
  close(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  /**
   * Whether `p` may send this arbiter REQUEST, RELINQUISH and RELEASE: `p ∈ R_i`, the processes
   * whose quorum contains this one. The process checks it before anything else (its clock
   * included) and reports a message from anyone else; the handlers below assume it.
   */
  mayAsk(p: ProcessId): boolean {
    return this.#reporter.indexOf(p) >= 0;
  }

  /** A message to the arbiter role from `p ∈ R_i` (checked by the dispatch first): A1–A5. */
  receive(p: ProcessId, msg: MaekawaMessage): void {
    if (msg.type === 'REQUEST') this.onRequest(p, msg.req);
    else if (msg.type === 'RELINQUISH') this.onRelinquish(p, msg.req);
    else if (msg.type === 'RELEASE') this.onRelease(p, msg.req);
    else if (msg.type === 'CONFIRM') this.onConfirm(p, msg.req, msg.token, msg.round);
  }

  /** A1: REQUEST(req) from `p` (`p ∈ R_i`: see {@link MaekawaArbiter.mayAsk}), or A4 when in doubt. */
  onRequest(p: ProcessId, req: number): void {
    const at = this.#grantedTo === p ? NONE : this.#queue.indexOf(p);
    const existing = this.#grantedTo === p ? this.#grantedReq : at === NONE ? NONE : this.#queue.tsAt(at);
    const ix = this.#reporter.indexOf(p);
    if (existing !== NONE) {
      // A4 (a): p asks again while its entry stands
      if (req === existing || this.#aside[ix] !== NONE) return;
      reach('maekawa:request-set-aside');
      this.#aside[ix] = req;
      this.#probe(p, existing);
      return;
    }
    this.#admit(p, req);
    if (req <= this.#done[ix]!) this.#probe(p, req); // A4 (b): a tag p has already given up
  }

  /** A1 for a request of `p`, which has no entry here. */
  #admit(p: ProcessId, req: number): void {
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

  /** A4: ask `p` whether `req` is its current request (it answers RELEASE(req) if not). */
  #probe(p: ProcessId, req: number): void {
    reach('maekawa:probe');
    this.#send(p, 'PROBE', req);
  }

  /** A3 ended `p`'s entry `req`: remember the tag, then admit and probe the request set aside. */
  #ended(p: ProcessId, req: number): void {
    const ix = this.#reporter.indexOf(p);
    if (req > this.#done[ix]!) this.#done[ix] = req;
    const aside = this.#aside[ix]!;
    if (aside === NONE) return;
    reach('maekawa:aside-admitted');
    this.#aside[ix] = NONE;
    this.#admit(p, aside);
    this.#probe(p, aside);
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
      this.#ended(p, req);
      return;
    }
    const at = this.#queue.indexOf(p);
    if (at !== NONE && this.#queue.tsAt(at) === req) {
      reach('maekawa:cancel-queued');
      this.#queue.removeAt(at);
      this.#inquireIfNeeded();
      this.#ended(p, req);
      return;
    }
    const ix = this.#reporter.indexOf(p);
    if (this.#aside[ix] === req) this.#aside[ix] = NONE; // A4: the request set aside, withdrawn
  }

  #grantNext(): void {
    // unlock (Fig. 6 F.3–F.4: lock_ps and inquired_ps lose the holder), then lock for the head
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
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
    if (!this.#fenced) {
      this.#send(p, 'LOCKED', req);
      return;
    }
    this.#sendTo(p, { type: 'FENCE_LOCKED', req, ts: this.#clock.sn, hs: this.#hs });
    this.#armTimer();
  }

  #send(to: ProcessId, type: 'LOCKED' | 'FAILED' | 'INQUIRE' | 'PROBE' | 'EXPIRED', req: number): void {
    this.#sendTo(to, { type, req, ts: this.#clock.sn });
  }
}
