/**
 * One process of Maekawa's quorum mutual exclusion, deadlock-free form (Maekawa 1985 with
 * Sanders 1987's correction; Joung, IEEE TPDS 2003, Sec. 4.1): the requester role (**Fig. 5
 * "process p"**: `priority`, `locked_nodes`), the message dispatch, and the arbiter role of
 * `maekawa-arbiter.ts` (Fig. 6, "node i"). The deadlock-freedom argument is in `maekawa.ts`.
 *
 * Priorities: Lamport clocks as in Fig. 5 — `sn`, advanced on every receive (`sn := max(sn, t)`,
 * B.2/C.2), incremented for a new request (`sn := sn + 1`, A.5); the request's priority is
 * `(sn, id)`, smaller first, ties broken by the smaller id. The timestamp is also the request's
 * **tag**: every message names the request it belongs to (`req`), so anything about an earlier
 * request is recognised and ignored (the clock's ceiling and reselection's tags: `maekawa-tags.ts`).
 *
 * ## The rules implemented (requester `p`: `locks`, `failed`, `yielded`, deferred inquiries)
 *
 * R1 entry: `sn := sn + 1` (saturating at `CLOCK_MAX`, see below); send REQUEST(sn) to every
 *    arbiter of `Q_p` (self included).
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
 * R7 (issue 27 §3, a deviation: not in the papers; the arbiter's side is A4) PROBE(t): if `t`
 *    is not the current request (none, or another tag), `p` uses no lock of tag `t`: answer
 *    RELEASE(t), which ends the arbiter's entry for it; if it is, ignore the PROBE. And LOCKED(t)
 *    or INQUIRE(t) with `t` above the tag of `p`'s latest request: `p` never issued `t` (its tags
 *    only grow), so the lock was granted on a REQUEST that was not `p`'s and nobody would give it
 *    back: answer RELEASE(t) too. Both are safe (a RELEASE of a tag `p` is not using ends nothing
 *    `p` relies on) and never happen on an honest run (no PROBE is sent; every LOCKED or INQUIRE
 *    names a tag `p` issued). A tag at or below the latest one, not current, is a stale message
 *    of an earlier request whose RELEASE is already on its way, and is ignored as before.
 *
 * (I4) `p` is queued at `k` without `p`'s lock and with a `failed` flag there ⇒ `k` is marked
 * `failed` or `yielded` at `p` once the messages in flight arrive (FAILED precedes any later
 * LOCKED on the FIFO link). A requester never holds a deferred INQUIRE while marked: marks appear
 * only through R3 (which answers every deferred INQUIRE) or a relinquish (which needs a mark
 * already), and R4 defers only when unmarked.
 */
import {
  CSMICError,
  CSObjectBase,
  type DurableCSObject,
  type Endpoint,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
  type Tenure,
  type TenuredCSObject,
} from '@critsec/core';
import { PendingCall } from '@critsec/core/kit';
import { reach } from './maekawa-protocol.js';
import { everyone, Reselection } from './maekawa-reselect.js';
import { routeOf } from './maekawa-route.js';
import { newRequest } from './maekawa-tags.js';
import type { Coterie } from '@critsec/coteries';
import { tick, witness } from '@critsec/transport';
import { IdIndex } from './id-index.js';
import { AskedQuorum } from './maekawa-asked.js';
import { MaekawaArbiter, type MaekawaArbiterContext } from './maekawa-arbiter.js';
import { MaekawaFence } from './maekawa-fence.js';
import { type MaekawaDurableState, maekawaDurable } from './maekawa-durable.js';
import { RequesterMarks } from './maekawa-marks.js';
import {
  type MaekawaMessage,
  type MaekawaRules,
  type MaekawaSnapshot,
  maekawaProtocol,
} from './maekawa-protocol.js';

const NONE = -1;

/** What a process is built with besides its context, coterie and rules. */
type Built = {
  readonly restored?: MaekawaDurableState | undefined;
  readonly reselect?: boolean;
  readonly fence?: { readonly ttl: number | undefined; readonly margin: number } | undefined;
};

/**
 * One process of Maekawa's algorithm: the requester (R1–R7) and its arbiter (A1–A4); durable
 * (issue 27: `durableState()`, `recover()`, the format in `maekawa-durable.ts`).
 */
export class MaekawaMutex extends CSObjectBase implements DurableCSObject, TenuredCSObject {
  readonly #endpoint: Endpoint;
  readonly #n: number;
  /** `Q_i`: the arbiters this process may ask (every process under reselection, S4). */
  readonly #quorum: readonly ProcessId[];
  /** Arbiter id → its index in `Q_i`, −1 if not in `Q_i`. */
  readonly #qIndex: IdIndex;
  /** The arbiters the current request asks: `Q_i`, or under reselection the quorum chosen (S1, S2). */
  readonly #target: AskedQuorum;
  /** Quorum reselection (issue 28 §4, `maekawa-reselect.ts`), when on and a failure detector is given. */
  readonly #reselection: Reselection | undefined;
  /** Lamport clock (Fig. 5: `sn`), shared with the arbiter, which stamps its messages with it. */
  readonly #clock = { sn: 0 };

  // requester (group-mutex paper Fig. 5: `priority`, `locked_nodes`)
  /** Timestamp (tag) of the current request; −1 when none. */
  #request = NONE;
  /** Tag of this process's latest request (0: none yet, or the initial holder's). */
  #lastTag = 0;
  /** The waiting `entry()` (R1–R2, R6). */
  readonly #call: PendingCall;
  /** Locks held, failed / yielded marks, deferred inquiries (per arbiter of `Q_i`; `maekawa-marks.ts`). */
  readonly #m: RequesterMarks;
  /** Recovered with a waiting request and no caller (a crash cut its `entry()`): `recover()` withdraws it. */
  #orphan = false;
  /** Recovered InCS (the crashed application's CS): `recover()` leaves it by the exit protocol. */
  #recoveredInCS = false;
  /** This process as the sender-role check sees it (`maekawa-route.ts`). */
  readonly #me: Parameters<typeof routeOf>[0];

  /** The arbiter role (group-mutex paper Fig. 6 with one lock; `maekawa-arbiter.ts`). */
  readonly #arbiter: MaekawaArbiter;
  /** Fencing and TTLs (issue 28, F1–F4 of `maekawa-fence.ts`), when on. */
  readonly #fence: MaekawaFence | undefined;

  /**
   * @param more `restored`: a recovered state, checked by `parseMaekawaDurable` (the object resumes
   *   there); `reselect`: quorum reselection (S1–S4 of `maekawa-reselect.ts`, on `ctx.suspicions`);
   *   `fence`: fencing (and a TTL with its drift margin, in the clock's unit), or none.
   */
  constructor(ctx: ProcessContext, coterie: Coterie, rules: MaekawaRules, more: Built = {}) {
    const { restored, reselect = false, fence } = more;
    super(ctx.id, restored?.state ?? ctx.initial[ctx.id]!);
    this.#call = new PendingCall(PendingCall.messages('Maekawa', ctx.id, 'entry'));
    const { id, n } = ctx;
    this.#endpoint = ctx.endpoint;
    this.#n = n;
    this.#quorum = reselect ? everyone(n) : coterie.quorumOf(id);
    this.#qIndex = new IdIndex(this.#quorum);
    this.#me = { id, quorum: this.#quorum, qIndex: this.#qIndex };
    this.#m = new RequesterMarks(this.#quorum.length);
    this.#target = new AskedQuorum(ctx.endpoint, this.#qIndex, coterie.quorumOf(id));
    this.#reselection = Reselection.of(reselect, coterie, ctx, () => this.#reselect());
    // the initial holder owns every lock of its quorum with request tag 0 (requests use ts ≥ 1)
    const holder = ctx.initial.indexOf('InCS');
    if (restored !== undefined) this.#restore(restored);
    else if (holder === id) {
      this.#request = 0;
      this.#m.holdAll(this.#target.indices);
    }
    const arbiter: MaekawaArbiterContext = {
      id,
      n,
      reporters: reselect ? this.#quorum : coterie.reportersOf(id),
      clock: this.#clock,
      send: (to, msg) => this.#endpoint.send(to, msg),
      fence: fence === undefined ? undefined : { ttl: fence.ttl, clock: ctx.clock },
    };
    const [m, enter, asked] = [this.#m, () => this.#enter(), () => this.#target.indices]; // F5: A, not Q_i
    const host = { id, quorum: this.#quorum, asked, clock: ctx.clock, send: arbiter.send };
    this.#fence = MaekawaFence.of(fence, {
      ...host,
      sn: () => this.#clock.sn,
      holds: (x) => m.locks[x] === 1,
      enter,
    });
    if (holder === id && restored === undefined) this.#fence?.begin(0, true); // F1: token 0
    const asks = holder >= 0 && coterie.quorumOf(holder).includes(id); // holder's Q ∋ this arbiter
    this.#arbiter = new MaekawaArbiter(arbiter, rules, asks ? holder : NONE);
    if (restored !== undefined) this.#arbiter.restore(restored.arbiter);
    this.listen(maekawaProtocol, ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
  }

  /** Every protocol variable (for schedule exploration and debugging). */
  inspect(): MaekawaSnapshot {
    const requester = this.#m.snapshot(this.#quorum, this.#request, this.#call.waiting || this.#orphan);
    return { sn: this.#clock.sn, requester, arbiter: this.#arbiter.snapshot() };
  }

  /** Every protocol variable of both roles as JSON (see {@link MaekawaDurableState}). */
  durableState(): MaekawaDurableState {
    const where = { id: this.id, n: this.#n, quorum: this.#target.members, state: this.state };
    const hs = this.#fence === undefined ? undefined : this.#arbiter.highestToken;
    return maekawaDurable(where, this.inspect(), this.#lastTag, this.#arbiter.doneList(), hs);
  }

  /** The current CS's fencing token and deadline (issue 28), while InCS with fencing on; else `undefined`. */
  tenure(): Tenure | undefined {
    return this.state === 'InCS' ? this.#fence?.tenure() : undefined;
  }

  /**
   * Completes a recovery (issue 27): a recovered waiting request is withdrawn as an aborted entry
   * is (R6: RELEASE to every arbiter of `Q_i`, locks held or in flight given back); a recovered CS
   * is left by the exit protocol (R5). Resolves once OutCS; at once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(`Maekawa: recover() called on P${this.id} while ${this.pending}() is in flight`);
    }
    if (this.#orphan) this.#withdraw();
    else if (this.#recoveredInCS && this.state === 'InCS') await this.exit();
  }

  /** Resumes the requester (and the clock) where a recovered state left it. */
  #restore(s: MaekawaDurableState): void {
    const r = s.requester;
    [this.#clock.sn, this.#request, this.#lastTag] = [s.sn, r.request, r.lastTag];
    [this.#orphan, this.#recoveredInCS] = [r.waiting, s.state === 'InCS'];
    this.#m.restore(r, this.#qIndex);
  }

  // ---------------------------------------------------------------- requester

  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    if (this.#orphan) this.#withdraw(); // entry() before recover(): the recovered request goes first
    const [ts, req] = newRequest(this.#clock, this.#lastTag, this.#reselection !== undefined); // A.5
    if (this.#reselection !== undefined) this.#target.ask(this.#reselection.choose()); // S1
    this.#lastTag = req;
    this.#request = req;
    this.#m.reset();
    this.#fence?.begin(req);
    this.#call.begin();
    this.#target.multicast({ type: 'REQUEST', req, ts });
    return this.#call.wait(signal, () => this.#withdraw());
  }

  protected async doExit(): Promise<void> {
    // R5: fire and forget
    const req = this.#request;
    this.#request = NONE;
    this.#recoveredInCS = false;
    this.#m.reset();
    this.#fence?.end();
    this.setState('OutCS');
    this.#target.multicast({ type: 'RELEASE', req, ts: this.#clock.sn });
  }

  protected doClose(): void {
    this.#reselection?.close();
    this.#call.close();
    this.#fence?.end();
    this.#arbiter.close();
  }

  /** S2 (`maekawa-reselect.ts`): a waiting request whose quorum holds a suspect retries on one avoiding them. */
  #reselect(): void {
    const to = this.#call.waiting ? this.#reselection?.retryOn(this.#target.members) : undefined;
    if (to === undefined) return;
    this.#target.multicast({ type: 'RELEASE', req: this.#request, ts: this.#clock.sn }); // R6 for the attempt
    this.#m.reset();
    this.#target.ask(to);
    this.#request = tick(this.#lastTag); // S3: a new tag, the priority kept
    this.#lastTag = this.#request;
    this.#fence?.begin(this.#request); // F6: a fresh confirmation with the new quorum
    this.#target.multicast({ type: 'REQUEST', req: this.#request, ts: this.#clock.sn });
  }

  /** R6: withdraw a waiting request (the call then rejects with `AbortError`). */
  #withdraw(): void {
    const req = this.#request;
    this.#request = NONE;
    this.#orphan = false;
    this.#m.reset();
    this.#fence?.end();
    if (!this.closed) this.#target.multicast({ type: 'RELEASE', req, ts: this.#clock.sn });
  }

  /** `x` (the sender's index in `Q_i`, found by the dispatch) for a message of the current request, or −1 (stale). */
  #current(x: number, msg: MaekawaMessage): number {
    if (msg.req !== this.#request || !(this.#call.waiting || this.#orphan)) {
      if (msg.req === this.#request && msg.type === 'INQUIRE') reach('maekawa:inquire-after-entry');
      else if (msg.req > this.#lastTag && msg.type !== 'FAILED') this.#releaseUnused(x, msg.req);
      else reach('maekawa:stale-ignored');
      return NONE;
    }
    return x;
  }

  /** R7: PROBE(req) from `Q_i[x]`: release `req` unless it is the current request. */
  #onProbe(x: number, req: number): void {
    if (req === this.#request) reach('maekawa:probe-current');
    else this.#releaseUnused(x, req);
  }

  /** R7: `Q_i[x]` holds an entry for tag `req`, which this process is not using: give it back. */
  #releaseUnused(x: number, req: number): void {
    reach('maekawa:unused-tag-released');
    this.#endpoint.send(this.#quorum[x]!, { type: 'RELEASE', req, ts: this.#clock.sn });
  }

  /** LOCKED (or FENCE_LOCKED with the arbiter's `hs`); `at`: the sender's index in `Q_i`. */
  #onLocked(at: number, msg: MaekawaMessage, hs = 0): void {
    const x = this.#current(at, msg);
    if (x === NONE) return;
    if (!this.#m.lock(x)) {
      reach('maekawa:duplicate-locked');
      return;
    }
    this.#fence?.locked(x, hs);
    if (this.#m.lockCount === this.#target.members.length) {
      // R2: every lock held — enter (with fencing: confirm the token first, F2)
      if (this.#fence === undefined) this.#enter();
      else this.#fence.allLocked();
    }
  }

  /** R2's entry: deferred inquiries are answered by the RELEASE at exit. */
  #enter(): void {
    this.#call.resolve(() => {
      this.#m.clearInquiries();
      this.setState('InCS');
    });
  }

  /** F4: EXPIRED(req) from `Q_i[at]`: ask it again (same tag), unless InCS. */
  #onExpired(at: number, msg: MaekawaMessage): void {
    if (msg.req === this.#request && this.state === 'InCS') reach('maekawa:expired-in-cs');
    const x = this.state === 'InCS' ? NONE : this.#current(at, msg);
    if (x === NONE) return;
    reach('maekawa:expired-regained');
    this.#m.forget(x);
    this.#fence?.lost();
    this.#endpoint.send(this.#quorum[x]!, { type: 'REQUEST', req: msg.req, ts: msg.req });
  }

  /** `at`: the sender's index in `Q_i` (looked up by the dispatch). */
  #onFailed(at: number, msg: MaekawaMessage): void {
    const x = this.#current(at, msg);
    if (x === NONE || !this.#m.fail(x)) return;
    if (this.#m.deferredCount > 0) {
      // R3: revisit deferred inquiries
      reach('maekawa:relinquish-after-failed');
      const q = this.#quorum.length;
      for (let y = 0; y < q; y++) if (this.#m.inquiredBy[y] === 1) this.#relinquish(y);
    }
  }

  /** `at`: the sender's index in `Q_i` (looked up by the dispatch). */
  #onInquire(at: number, msg: MaekawaMessage): void {
    const x = this.#current(at, msg);
    if (x === NONE) return;
    if (this.#m.locks[x] === 0) {
      reach('maekawa:stale-ignored');
      return;
    }
    if (this.#m.blocked > 0) this.#relinquish(x);
    else if (this.#m.defer(x)) reach('maekawa:inquire-deferred');
  }

  #relinquish(x: number): void {
    reach('maekawa:relinquish');
    this.#m.relinquish(x);
    this.#endpoint.send(this.#quorum[x]!, { type: 'RELINQUISH', req: this.#request, ts: this.#clock.sn });
  }

  // ---------------------------------------------------------------- dispatch

  #onMessage(from: ProcessId, msg: MaekawaMessage): void {
    const x = routeOf(this.#me, from, msg, this.#arbiter, this.#fence !== undefined);
    if (typeof x === 'string') {
      const why = `Maekawa: P${this.id} got ${msg.type} from P${from}, ${x}`;
      this.reportError(new ProtocolError(why, { from }));
      return;
    }
    // Fig. 5 B.2/C.2: sn := max(sn, t) on every receive from a peer
    this.#clock.sn = witness(this.#clock.sn, msg.ts);
    if (x === NONE) {
      this.#arbiter.receive(from, msg);
      return;
    }
    switch (msg.type) {
      case 'LOCKED':
      case 'FENCE_LOCKED':
        this.#onLocked(x, msg, msg.type === 'FENCE_LOCKED' ? msg.hs : 0);
        break;
      case 'FAILED':
        this.#onFailed(x, msg);
        break;
      case 'INQUIRE':
        this.#onInquire(x, msg);
        break;
      case 'PROBE':
        this.#onProbe(x, msg.req);
        break;
      case 'EXPIRED':
        this.#onExpired(x, msg);
        break;
      case 'CONFIRMED':
        if (msg.req === this.#request) this.#fence?.confirmed(x, msg.round);
    }
  }
}
