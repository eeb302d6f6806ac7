/**
 * Maekawa's quorum mutual exclusion, deadlock-free form.
 *
 * Sources: M. Maekawa, "A √N algorithm for mutual exclusion in decentralized systems", ACM TOCS
 * 3(2), 1985, with the deadlock handling corrected after B. Sanders, "The information structure
 * of distributed mutual exclusion algorithms", ACM TOCS 5(3), 1987; as described in Joung,
 * "Quorum-based algorithms for group mutual exclusion", IEEE TPDS 2003, Sec. 4.1 (the basic
 * framework) — the lock/UNLOCK/INQUIRE vocabulary of its Figs. 5–6 (`Maekawa_M` with one lock
 * per node) — and the "papers" README of this repository. A process plays two roles: requester
 * (Fig. 5, "process p") and arbiter of every quorum it belongs to (Fig. 6, "node i").
 *
 * Priorities: Lamport clocks as in Fig. 5 — `sn`, advanced on every receive (`sn := max(sn, t)`,
 * B.2/C.2), incremented for a new request (`sn := sn + 1`, A.5); the request's priority is
 * `(sn, id)`, smaller first, ties broken by the smaller id. The timestamp is also the request's
 * **tag**: every message names the request it belongs to (`req`), so anything about an earlier
 * request is recognised and ignored.
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
 * ## The rules implemented (requester `p`: `locks`, `failed`, `yielded`, deferred inquiries)
 *
 * R1 entry: `sn := sn + 1`; send REQUEST(sn) to every arbiter of `Q_p` (self included).
 * R2 LOCKED(r) for the current request: add the arbiter to `locks` — a **set**, so a duplicate
 *    never counts twice — and forget its `failed`/`yielded` mark. With every lock of `Q_p`: enter
 *    the CS (state flips in this handler) and drop deferred inquiries (they are answered by the
 *    RELEASE at exit).
 * R3 FAILED(r) for the current request: mark the arbiter `failed`; then answer every deferred
 *    INQUIRE with RELINQUISH.
 * R4 INQUIRE(r) for the current request while waiting, from an arbiter whose lock `p` holds: if
 *    some arbiter is marked `failed` or `yielded`, RELINQUISH now (drop that lock, mark it
 *    `yielded`); otherwise defer the answer (R2/R3 revisit it). INQUIRE after entry, for another
 *    request, or for a lock not held is ignored.
 * R5 exit: send RELEASE(r) to every arbiter of `Q_p`; the state flips at once (fire and forget).
 * R6 abort of a waiting entry: send RELEASE(r) to every arbiter of `Q_p` (FIFO puts it behind the
 *    REQUEST, so each arbiter finds the request held or queued and gives it up — A3), forget
 *    everything, reject with `AbortError`. LOCKED/FAILED/INQUIRE still in flight carry the old
 *    tag and are ignored.
 *
 * ## Why this is deadlock-free
 *
 * Invariants of each arbiter (all handlers are atomic): (I1) not locked ⇒ queue empty; (I2) a
 * queue entry without the `failed` flag is the head and beats the holder (A1 flags every entry
 * that is not `top` and the head it displaces; a grant or relinquish makes the new holder beat
 * every remaining entry); (I3) if the head beats the holder then `inquired` holds and the holder
 * was sent INQUIRE for its current grant (A1, A3). On the requester side, (I4) `p` is queued at
 * `k` without `p`'s lock and with a `failed` flag there ⇒ `k` is marked `failed` or `yielded` at
 * `p` once the messages in flight arrive (FAILED precedes any later LOCKED on the FIFO link).
 *
 * Besides, a requester never holds a deferred INQUIRE while marked: marks appear only through R3
 * (which answers every deferred INQUIRE) or a relinquish (which needs a mark already), and R4
 * defers only when unmarked.
 *
 * Suppose a quiescent state (nothing in flight) where the waiting requesters W ≠ ∅ can never
 * progress. Take the highest request `R ∈ W`. It lacks the lock of some `k` where, by (I1), it is
 * queued under a holder `H ∈ W` of lower priority (processes InCS leave). `R` is the head, so by
 * (I3) `H` received INQUIRE and, being stuck, deferred it: `H` has no `failed`/`yielded` mark,
 * and never got one later (R3 would have relinquished). `H` lacks the lock of some `k'` where it
 * is queued; if `H` were not the top there, its entry would be flagged (I2) and by (I4) `H` would
 * carry a mark — so `H` is the head at `k'` and beats the holder `H'`, which by the same argument
 * deferred an INQUIRE and is itself the head somewhere… The priorities along `R, H, H', …`
 * strictly decrease in a finite set, a contradiction. Priorities are Lamport stamps, so a
 * waiting request eventually becomes the highest: no starvation either.
 *
 * The commonly paraphrased rule — FAILED decided only against the current holder, and no FAILED
 * to a displaced head — breaks (I2): a displaced head keeps deferring INQUIREs although a higher
 * request sits in front of it, and the chain above can close into a cycle (a deadlock).
 *
 * Message complexity (self-messages counted): 3·|Q_p| per CS without contention (REQUEST, LOCKED,
 * RELEASE); under contention FAILED, INQUIRE, RELINQUISH and a second LOCKED may be added per
 * arbiter (measured: mean ≈ 4·|Q| under full contention). Waiting time with unit delays and no
 * contention: entry 2, exit 0.
 */
import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  CSObjectBase,
  Deferred,
  type Endpoint,
  onAbort,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
  reach,
} from '@critsec/core';
import type { Coterie } from '@critsec/coteries';
import { counterSchema, defineProtocol } from '@critsec/transport';
import * as v from 'valibot';
import { beats, RequestQueue } from './request-queue.js';

const tagged = <T extends string>(type: T) =>
  v.object({ type: v.literal(type), req: counterSchema, ts: counterSchema });

/**
 * Maekawa's messages. `req` is the tag of the request a message belongs to (the request's
 * timestamp); `ts` is the sender's Lamport clock. For REQUEST both are the request's timestamp.
 *
 * - `REQUEST` requester → arbiter: lock request with priority `(req, sender)`.
 * - `LOCKED` arbiter → requester: the lock is yours.
 * - `FAILED` arbiter → requester: a higher-priority request is here; you will wait.
 * - `INQUIRE` arbiter → holder: a higher-priority request waits; yield if you cannot enter.
 * - `RELINQUISH` holder → arbiter: the lock is yours again (yield).
 * - `RELEASE` requester → arbiter: unlock after the CS, or withdraw an aborted request.
 */
export const maekawaProtocol = defineProtocol(
  'maekawa',
  v.variant('type', [
    tagged('REQUEST'),
    tagged('LOCKED'),
    tagged('FAILED'),
    tagged('INQUIRE'),
    tagged('RELINQUISH'),
    tagged('RELEASE'),
  ]),
);

/** A Maekawa message (see {@link maekawaProtocol}). */
export type MaekawaMessage = v.InferOutput<typeof maekawaProtocol.schema>;

/**
 * The rare paths of Maekawa's algorithm, marked with `reach()` from `@critsec/core` so a test can
 * assert that each was taken across its seeds:
 *
 * - `maekawa:inquire` an arbiter sent INQUIRE;
 * - `maekawa:inquire-deferred` a requester deferred an INQUIRE (no FAILED yet);
 * - `maekawa:relinquish` a requester relinquished a lock;
 * - `maekawa:relinquish-after-failed` a deferred INQUIRE was answered when a FAILED arrived;
 * - `maekawa:failed-displaced` a queue head displaced by a higher request got FAILED;
 * - `maekawa:stale-ignored` a LOCKED/FAILED/INQUIRE for an earlier request was ignored;
 * - `maekawa:inquire-after-entry` an INQUIRE arrived after entry and was ignored;
 * - `maekawa:duplicate-locked` a second LOCKED from the same arbiter did not count;
 * - `maekawa:cancel-queued` RELEASE withdrew a queued (aborted) request;
 * - `maekawa:regrant-relinquisher` after a RELINQUISH the relinquisher was still the highest.
 */
export const maekawaRarePaths = [
  'maekawa:inquire',
  'maekawa:inquire-deferred',
  'maekawa:relinquish',
  'maekawa:relinquish-after-failed',
  'maekawa:failed-displaced',
  'maekawa:stale-ignored',
  'maekawa:inquire-after-entry',
  'maekawa:duplicate-locked',
  'maekawa:cancel-queued',
  'maekawa:regrant-relinquisher',
] as const;

/** Options of {@link maekawa}. */
export interface MaekawaOptions {
  /**
   * The coterie; process `i` asks the arbiters of `coterie.quorumOf(i)` (`Q_i`, which may or may
   * not contain `i`). Any ordinary coterie of `@critsec/coteries` (majority, grid, projective
   * plane, tree, wall, `fromQuorums`…) with `coterie.n` equal to the cluster size.
   */
  readonly coterie: Coterie;
}

/** Protocol variables of one process, as returned by `inspect()` (JSON-serializable). */
export interface MaekawaSnapshot {
  /** Lamport clock `sn`. */
  readonly sn: number;
  /** Requester role. */
  readonly requester: {
    /** Tag (timestamp) of the current request, −1 when none. */
    readonly request: number;
    /** True while `entry` waits. */
    readonly waiting: boolean;
    /** Arbiters whose lock is held. */
    readonly locks: readonly ProcessId[];
    /** Arbiters that sent FAILED (and have not granted since). */
    readonly failed: readonly ProcessId[];
    /** Arbiters relinquished to (and not regained). */
    readonly yielded: readonly ProcessId[];
    /** Arbiters whose INQUIRE is deferred. */
    readonly inquiredBy: readonly ProcessId[];
  };
  /** Arbiter role. */
  readonly arbiter: {
    /** Holder of the lock, −1 when not locked. */
    readonly grantedTo: ProcessId;
    /** Tag of the holder's request. */
    readonly grantedReq: number;
    /** INQUIRE sent to the holder for this grant. */
    readonly inquired: boolean;
    /** Waiting requests in priority order: `[process, ts, failed]`. */
    readonly queue: readonly [ProcessId, number, boolean][];
  };
}

const NONE = -1;

/**
 * `'sanders'`: the deadlock-free rules of the file header. `'paraphrased'`: FAILED decided only
 * against the holder and no FAILED to a displaced head — the version that deadlocks.
 * @internal
 */
export type MaekawaRules = 'sanders' | 'paraphrased';

class MaekawaMutex extends CSObjectBase {
  readonly #endpoint: Endpoint;
  readonly #off: () => void;
  /** `Q_i`: the arbiters this process asks. */
  readonly #quorum: readonly ProcessId[];
  /** Arbiter id → its index in `Q_i`, −1 if not in `Q_i`. */
  readonly #qIndex: Int32Array;
  /** Processes allowed to ask this arbiter (`R_i`). */
  readonly #reporter: Uint8Array;

  /** Lamport clock (Fig. 5: `sn`). */
  #sn = 0;

  // requester (group-mutex paper Fig. 5: `priority`, `locked_nodes`)
  /** Timestamp (tag) of the current request; −1 when none. */
  #request = NONE;
  #waiting: Deferred | null = null;
  #offAbort: () => void = () => {};
  /** `locks[x] = 1`: the lock of arbiter `Q_i[x]` is held. A set: `lockCount` counts its members. */
  readonly #locks: Uint8Array;
  #lockCount = 0;
  /** `failed[x] = 1`: `Q_i[x]` sent FAILED for this request and has not granted since. */
  readonly #failed: Uint8Array;
  /** `yielded[x] = 1`: this process relinquished `Q_i[x]`'s lock and has not regained it. */
  readonly #yielded: Uint8Array;
  /** Number of x with `failed[x] ∨ yielded[x]`: nonzero ⇒ answer INQUIRE with RELINQUISH. */
  #blocked = 0;
  /** `inquiredBy[x] = 1`: an INQUIRE from `Q_i[x]` is deferred. */
  readonly #inquiredBy: Uint8Array;
  #deferredCount = 0;

  // arbiter (group-mutex paper Fig. 6 with one lock: `lock_ps`, `requests`, `inquired_ps`)
  /** Holder of this arbiter's lock (−1: not `locked`). */
  #grantedTo: ProcessId = NONE;
  /** Tag of the holder's request. */
  #grantedReq = 0;
  /** INQUIRE sent to the holder for the current grant. */
  #inquired = false;
  /** Waiting requests, by priority. */
  readonly #queue: RequestQueue;

  /** Conflict rules: the deadlock-free ones, or the paraphrased ones (tests only). */
  readonly #rules: MaekawaRules;

  constructor(ctx: ProcessContext, coterie: Coterie, rules: MaekawaRules) {
    super(ctx.id, ctx.initial[ctx.id]!);
    this.#rules = rules;
    const { id, n } = ctx;
    this.#endpoint = ctx.endpoint;
    this.#quorum = coterie.quorumOf(id);
    this.#qIndex = new Int32Array(n).fill(NONE);
    this.#quorum.forEach((k, x) => {
      this.#qIndex[k] = x;
    });
    const q = this.#quorum.length;
    this.#locks = new Uint8Array(q);
    this.#failed = new Uint8Array(q);
    this.#yielded = new Uint8Array(q);
    this.#inquiredBy = new Uint8Array(q);
    const reporters = coterie.reportersOf(id);
    this.#reporter = new Uint8Array(n);
    for (const p of reporters) this.#reporter[p] = 1;
    this.#queue = new RequestQueue(reporters.length, n);

    const holder = ctx.initial.indexOf('InCS');
    if (holder !== NONE) {
      // the initial holder owns every lock of its quorum with request tag 0 (requests use ts ≥ 1)
      if (holder === id) {
        this.#request = 0;
        this.#locks.fill(1);
        this.#lockCount = q;
      }
      if (this.#reporter[holder] === 1) {
        this.#grantedTo = holder;
        this.#grantedReq = 0;
      }
    }
    this.#off = maekawaProtocol.listen(
      ctx.endpoint,
      (from, msg) => this.#onMessage(from, msg),
      (err) => this.reportError(err),
    );
  }

  /** Every protocol variable (for schedule exploration and debugging). */
  inspect(): MaekawaSnapshot {
    const pick = (a: Uint8Array) => this.#quorum.filter((_, x) => a[x] === 1);
    return {
      sn: this.#sn,
      requester: {
        request: this.#request,
        waiting: this.#waiting !== null,
        locks: pick(this.#locks),
        failed: pick(this.#failed),
        yielded: pick(this.#yielded),
        inquiredBy: pick(this.#inquiredBy),
      },
      arbiter: {
        grantedTo: this.#grantedTo,
        grantedReq: this.#grantedTo === NONE ? 0 : this.#grantedReq,
        inquired: this.#inquired,
        queue: this.#queue.toSortedArray(),
      },
    };
  }

  // ---------------------------------------------------------------- requester

  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    const ts = ++this.#sn;
    this.#request = ts;
    this.#resetRequester();
    const waiting = new Deferred();
    this.#waiting = waiting;
    this.#multicast({ type: 'REQUEST', req: ts, ts });
    this.#offAbort = onAbort(signal, (reason) => this.#abort(waiting, reason));
    return waiting.promise;
  }

  protected async doExit(): Promise<void> {
    // R5: fire and forget
    const req = this.#request;
    this.#request = NONE;
    this.#resetRequester();
    this.setState('OutCS');
    this.#multicast({ type: 'RELEASE', req, ts: this.#sn });
  }

  protected doClose(): void {
    this.#off();
    const waiting = this.#waiting;
    this.#waiting = null;
    this.#offAbort();
    waiting?.reject(new AbortError(`Maekawa: P${this.id} was closed while waiting in entry()`));
  }

  /** R6: withdraw a waiting request. */
  #abort(waiting: Deferred, reason: unknown): void {
    if (waiting !== this.#waiting || waiting.settled) return;
    const req = this.#request;
    this.#waiting = null;
    this.#request = NONE;
    this.#resetRequester();
    if (!this.closed) this.#multicast({ type: 'RELEASE', req, ts: this.#sn });
    waiting.reject(new AbortError(`Maekawa: P${this.id} entry() aborted`, { cause: reason }));
  }

  #resetRequester(): void {
    this.#locks.fill(0);
    this.#lockCount = 0;
    this.#failed.fill(0);
    this.#yielded.fill(0);
    this.#blocked = 0;
    this.#inquiredBy.fill(0);
    this.#deferredCount = 0;
  }

  /** Index of `from` in `Q_i` for a message of the current request, or −1 (stale or foreign). */
  #current(from: ProcessId, msg: MaekawaMessage): number {
    const x = this.#qIndex[from]!;
    if (x === NONE) {
      this.reportError(
        new ProtocolError(
          `Maekawa: P${this.id} got ${msg.type} from P${from}, which is not in its quorum Q_${this.id} = {${this.#quorum.join(', ')}}`,
          { from },
        ),
      );
      return NONE;
    }
    if (msg.req !== this.#request || this.#waiting === null) {
      if (msg.req === this.#request && msg.type === 'INQUIRE') reach('maekawa:inquire-after-entry');
      else reach('maekawa:stale-ignored');
      return NONE;
    }
    return x;
  }

  #onLocked(from: ProcessId, msg: MaekawaMessage): void {
    const x = this.#current(from, msg);
    if (x === NONE) return;
    if (this.#locks[x] === 1) {
      reach('maekawa:duplicate-locked');
      return;
    }
    this.#locks[x] = 1;
    this.#lockCount++;
    if (this.#failed[x] === 1 || this.#yielded[x] === 1) {
      this.#failed[x] = 0;
      this.#yielded[x] = 0;
      this.#blocked--;
    }
    if (this.#lockCount === this.#quorum.length) {
      // R2: every lock held — enter; deferred inquiries are answered by the RELEASE at exit
      const waiting = this.#waiting!;
      this.#waiting = null;
      this.#offAbort();
      this.#inquiredBy.fill(0);
      this.#deferredCount = 0;
      this.setState('InCS');
      waiting.resolve();
    }
  }

  #onFailed(from: ProcessId, msg: MaekawaMessage): void {
    const x = this.#current(from, msg);
    if (x === NONE || this.#locks[x] === 1 || this.#failed[x] === 1) return;
    this.#failed[x] = 1;
    if (this.#yielded[x] === 0) this.#blocked++;
    if (this.#deferredCount > 0) {
      // R3: revisit deferred inquiries
      reach('maekawa:relinquish-after-failed');
      const q = this.#quorum.length;
      for (let y = 0; y < q; y++) if (this.#inquiredBy[y] === 1) this.#relinquish(y);
    }
  }

  #onInquire(from: ProcessId, msg: MaekawaMessage): void {
    const x = this.#current(from, msg);
    if (x === NONE) return;
    if (this.#locks[x] === 0) {
      reach('maekawa:stale-ignored');
      return;
    }
    if (this.#blocked > 0) this.#relinquish(x);
    else if (this.#inquiredBy[x] === 0) {
      reach('maekawa:inquire-deferred');
      this.#inquiredBy[x] = 1;
      this.#deferredCount++;
    }
  }

  #relinquish(x: number): void {
    reach('maekawa:relinquish');
    if (this.#inquiredBy[x] === 1) {
      this.#inquiredBy[x] = 0;
      this.#deferredCount--;
    }
    this.#locks[x] = 0;
    this.#lockCount--;
    this.#yielded[x] = 1;
    if (this.#failed[x] === 0) this.#blocked++;
    this.#endpoint.send(this.#quorum[x]!, { type: 'RELINQUISH', req: this.#request, ts: this.#sn });
  }

  #multicast(msg: MaekawaMessage): void {
    // one message object for the whole quorum: messages are never mutated after sending
    for (const k of this.#quorum) this.#endpoint.send(k, msg);
  }

  // ---------------------------------------------------------------- arbiter

  #onRequest(p: ProcessId, req: number): void {
    if (this.#reporter[p] !== 1) {
      this.reportError(
        new ProtocolError(
          `Maekawa: P${this.id} got REQUEST from P${p}, whose quorum Q_${p} does not contain P${this.id}`,
          { from: p },
        ),
      );
      return;
    }
    // FIFO puts a request's RELEASE before the next REQUEST, so p has nothing here. Only on a
    // reordering network can an entry of p remain: a newer request (larger tag) ends it, an older
    // REQUEST is stale. Safety never depends on this (see the negative test); liveness does.
    const at = this.#grantedTo === p ? NONE : this.#queue.indexOf(p);
    const existing = this.#grantedTo === p ? this.#grantedReq : at === NONE ? NONE : this.#queue.tsAt(at);
    if (existing !== NONE) {
      if (req <= existing) return;
      this.#onRelease(p, existing);
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

  #onRelinquish(p: ProcessId, req: number): void {
    if (this.#grantedTo !== p || this.#grantedReq !== req) return;
    this.#queue.push(p, req, true);
    this.#grantNext();
    if (this.#grantedTo === p) reach('maekawa:regrant-relinquisher');
  }

  #onRelease(p: ProcessId, req: number): void {
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
    this.#endpoint.send(to, { type, req, ts: this.#sn });
  }

  // ---------------------------------------------------------------- dispatch

  #onMessage(from: ProcessId, msg: MaekawaMessage): void {
    // Fig. 5 B.2/C.2: sn := max(sn, t) on every receive
    if (msg.ts > this.#sn) this.#sn = msg.ts;
    switch (msg.type) {
      case 'REQUEST':
        this.#onRequest(from, msg.req);
        return;
      case 'RELINQUISH':
        this.#onRelinquish(from, msg.req);
        return;
      case 'RELEASE':
        this.#onRelease(from, msg.req);
        return;
      case 'LOCKED':
        this.#onLocked(from, msg);
        return;
      case 'FAILED':
        this.#onFailed(from, msg);
        return;
      case 'INQUIRE':
        this.#onInquire(from, msg);
        return;
    }
  }
}

function isCoterie(c: unknown): c is Coterie {
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof (c as Coterie).n === 'number' &&
    typeof (c as Coterie).quorumOf === 'function' &&
    typeof (c as Coterie).reportersOf === 'function'
  );
}

/**
 * Maekawa's quorum mutual exclusion — the (0,1)-CS over a coterie, deadlock-free form (Maekawa
 * 1985 with Sanders 1987's correction; group-mutex paper, Sec. 4.1). Process `i` locks every
 * arbiter of `Q_i = coterie.quorumOf(i)`; arbiters grant one lock at a time by priority
 * `(Lamport timestamp, id)` and resolve conflicts with INQUIRE / FAILED / RELINQUISH (the exact
 * rules are in the file header of `maekawa.ts` and the package README).
 *
 * Costs, counting messages a process sends to itself: exactly `3·|Q_i|` messages per CS without
 * contention (REQUEST, LOCKED, RELEASE); under full contention about `4·|Q|` on average (FAILED
 * added), single CS measured up to about `6.5·|Q|` (INQUIRE, RELINQUISH and a second LOCKED).
 * Waiting time with unit delays and no contention: entry 2 time units, exit 0 (RELEASE is fire and
 * forget).
 *
 * `entry({ signal })` can be aborted while waiting: the request is withdrawn with RELEASE at
 * every arbiter of `Q_i` (`|Q_i|` messages), locks held or in flight are given back, and the
 * promise rejects with `AbortError`. `exit` completes at once. The objects expose `inspect()`
 * (every protocol variable, see {@link MaekawaSnapshot}).
 *
 * @param options `{ coterie }`.
 * @returns a factory; the coterie's quorums are looked up once per process.
 * @throws ConfigurationError (from the factory) if `coterie` is not a coterie, if `coterie.n`
 *   differs from the cluster's `n`, or if more than one process starts InCS.
 */
export function maekawa(options: MaekawaOptions): CSFactory {
  return maekawaWithRules(options, 'sanders');
}

/**
 * {@link maekawa} with a choice of conflict rules. `'paraphrased'` deadlocks; it exists so the
 * deadlock hunt can show that it would notice. Not part of the public API.
 * @internal
 */
export function maekawaWithRules(options: MaekawaOptions, rules: MaekawaRules): CSFactory {
  const coterie = options?.coterie;
  if (!isCoterie(coterie)) {
    throw new ConfigurationError(
      'maekawa({ coterie }): coterie must be a Coterie from @critsec/coteries (majority(n), grid(n), projectivePlane(q), tree(n), wall(widths), fromQuorums(n, assignment), …)',
    );
  }
  return (ctx) => {
    if (coterie.n !== ctx.n) {
      throw new ConfigurationError(
        `maekawa: the coterie (${coterie.kind}) has n = ${coterie.n} processes but the cluster has n = ${ctx.n}; build the coterie for n = ${ctx.n}`,
      );
    }
    const holders = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
    if (holders.length > 1) {
      throw new ConfigurationError(
        `maekawa: mutual exclusion allows at most one process InCS initially, got ${holders.map((h) => `P${h}`).join(', ')}`,
      );
    }
    return new MaekawaMutex(ctx, coterie, rules);
  };
}
