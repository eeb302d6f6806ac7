/**
 * Maekawa_M, the quorum-member role — Joung, "Quorum-based algorithms for group mutual
 * exclusion", IEEE TPDS 14(5), 2003, Sec. 4.2, **Fig. 6 "Algorithm Maekawa_M executed by node i"**
 * (guarded commands E: receive REQUEST, F: receive UNLOCK) with the variables of Fig. 6 (cont.):
 * `requests`, `lock_ps`, `inquired_ps`, `sn`, `lock_group`, `has_priority`, `max[g]`, and the
 * function `rank(k, h, Q, requests)`.
 *
 * Line numbers (E.n, F.n) refer to the figure. Additions, each needed by abort or by bad input
 * and none changing a run of the printed algorithm without them:
 * - UNLOCK names its request (`req`); an UNLOCK for another request than the one `requests`
 *   holds for p is stale and ignored.
 * - F.13–F.17 grant a waiting member of `lock_group` only while `|lock_ps| < max[lock_group]`
 *   (in the paper the guard always holds, since an UNLOCK there always frees a lock; the
 *   UNLOCK(flag = true) of an aborted, never-locked request frees none).
 * - A REQUEST from p while `requests` still holds one of p with another `req`, or naming a `req` of
 *   p at or below one an UNLOCK(true) already ended here (both impossible over
 *   FIFO links, since p's UNLOCK(true) precedes its next REQUEST: a forged message, or p restarted
 *   without its state) — issue 27 §3. In the second case the request is taken (E.1) and p asked
 *   with PROBE(req). In the first, node i cannot tell which of the two is p's live request, and
 *   each guess breaks something: ending the old one (as this file did before) freed the lock of a p
 *   InCS under it, and lost the request of a p waiting on it. So it keeps the old one, sets the new
 *   one **aside** (one per process; a further one is ignored until then) and sends PROBE(old req);
 *   p answers UNLOCK(req, true) when `req` is not its current request and ignores it otherwise
 *   (`maekawa-m.ts`). When the old request ends, the one set aside is taken as if it had just
 *   arrived (E.1) and probed in turn — unless the old one was admitted without doubt and the one set
 *   aside has a larger `req`: p's live request was the old one, so the other was not p's, and taking
 *   it could give the `req` of p's next request a lock for another group; it is dropped. A lock is
 *   freed only by p's own UNLOCK, as before; an honest run never gets here (no PROBE is sent).
 *
 * Fencing tokens and time-bounded grants (issue 28; not in the paper, README deviation 8; the
 * requester's side is G1–G4 of `fence.ts`), only when built with `fencing` or a `ttl`:
 * - G5 node i keeps `hs`, the highest fencing token it has seen (durable), gives its lock with
 *   FENCE_LOCKED(req, hs) instead of LOCKED, and on CONFIRM(req, token, round) from a p whose
 *   lock for `req` is current (p ∈ `lock_ps`) sets `hs := max(hs, token)` and answers
 *   CONFIRMED(round); any other CONFIRM is stale and ignored.
 * - G6 with a TTL, each lock given has a timer of `ttl` (the clock's unit), started when it is
 *   given and restarted by every accepted CONFIRM; when it fires the lock is **reclaimed**:
 *   EXPIRED(req) to p, then p's request is removed as by UNLOCK(p, req, true) (F.3–F.24: the lock
 *   goes to the next request) — except that `done(p)` is not raised, so p's REQUEST with the same
 *   `req` (G4) is taken by E.1. A queued request holds no lock and has no timer (a request of a
 *   dead process is given the lock in its turn and reclaimed one TTL later). A restarted node
 *   restarts the timers of the locks it recovered (never shorter than before).
 */
import type { ProcessId, ProtocolClock } from '@critsec/core';
import type { MaekawaMDurableState, MRequestTuple } from './durable-m.js';
import { reach } from './rare-paths.js';
import { witness } from '@critsec/transport';
import type { QuorumPlan } from './plan.js';
import { ALL, higher, type RequestEntry, rank } from './priority.js';
import type { MaekawaMMessage } from './protocol-m.js';

const NONE = -1;

/** Node i's variables (Fig. 6 cont.), as `inspect()` reports them. */
export interface MaekawaMNodeSnapshot {
  /** `requests` by priority: `[p, t, g, req]`. */
  readonly requests: readonly [ProcessId, number, number, number][];
  /**
   * Requests set aside, `[p, t, g, req]` by process — present only while there is one, never on
   * an honest run (a second REQUEST of p, issue 27 §3; README deviation 6).
   */
  readonly aside?: readonly [ProcessId, number, number, number][];
  /** The processes node i's lock is given to, ascending. */
  readonly lock_ps: readonly ProcessId[];
  /** The lock holders node i sent an INQUIRE to and has not heard back from. */
  readonly inquired_ps: readonly ProcessId[];
  /** −1 for ⊥. */
  readonly lock_group: number;
  /** Whether `lock_group` holds the priority (F.7–F.8). */
  readonly has_priority: boolean;
}

/**
 * Rule set: `'default'` (Figs. 5–8 with the additions named in the file headers),
 * `'printed-locked'` (Maekawa_M counts every LOCKED while trying, as C.3 is printed — unsafe
 * with abort, kept for the counterexample test), `'printed-early'` (Maekawa_S re-sends one early
 * request per UNLOCK, as E.17–E.19 are printed — not live with abort, kept for the
 * counterexample test). @internal
 */
export type Rules = 'default' | 'printed-locked' | 'printed-early';

/** Fencing (G5) and, with `ttl` and `clock`, time-bounded locks (G6) of a node. @internal */
export interface NodeFence {
  /** The lock TTL in the clock's unit, or `undefined` (fencing only). */
  readonly ttl: number | undefined;
  /** The process's clock (required with a TTL). */
  readonly clock: ProtocolClock | undefined;
}

/** @internal the node's class: {@link MaekawaMNode}, or a test's subclass of it. */
export type MNodeClass = new (...args: ConstructorParameters<typeof MaekawaMNode>) => MaekawaMNode;

/**
 * Node i of Maekawa_M. The owner feeds it REQUEST/UNLOCK and gives it `send` and the clock. E.4's
 * test is the protected {@link MaekawaMNode.grantable}, so the tests can show that a subclass
 * breaking it is caught.
 */
export class MaekawaMNode {
  readonly requests = new Map<ProcessId, RequestEntry>();
  readonly lock_ps = new Set<ProcessId>();
  readonly inquired_ps = new Set<ProcessId>();
  lock_group = NONE;
  has_priority = false;
  /** Requests set aside (issue 27 §3), by process. */
  readonly #aside = new Map<ProcessId, RequestEntry>();
  /** Processes whose entry in `requests` was taken in doubt (from aside, or at or below `done`). */
  readonly #suspect = new Set<ProcessId>();
  /** `done(p)`: the largest `req` of p that an UNLOCK(true) ended here. */
  readonly #done = new Map<ProcessId, number>();
  /** G5: the highest fencing token seen (durable). */
  #hs = 0;
  /** G6: per lock holder, the cancel function of its lock's timer. */
  readonly #timers = new Map<ProcessId, () => void>();

  constructor(
    protected readonly i: ProcessId,
    protected readonly plan: QuorumPlan,
    private readonly clock: { sn: number },
    private readonly send: (to: ProcessId, msg: MaekawaMMessage) => void,
    private readonly fence?: NodeFence,
  ) {}

  /** G5: the highest fencing token seen. */
  get highestToken(): number {
    return this.#hs;
  }

  snapshot(): MaekawaMNodeSnapshot {
    const all = [...this.requests.values()].sort((a, b) => (higher(a, b) ? -1 : 1));
    const snap = {
      requests: all.map((e): [ProcessId, number, number, number] => [e.p, e.t, e.g, e.req]),
      lock_ps: [...this.lock_ps].sort((a, b) => a - b),
      inquired_ps: [...this.inquired_ps].sort((a, b) => a - b),
      lock_group: this.lock_group,
      has_priority: this.has_priority,
    };
    if (this.#aside.size === 0) return snap;
    const aside = [...this.#aside.values()].sort((a, b) => a.p - b.p);
    return { ...snap, aside: aside.map((e): [ProcessId, number, number, number] => [e.p, e.t, e.g, e.req]) };
  }

  /** Every variable, in the order kept (issue 27: the durable state's `node`). */
  durable(): MaekawaMDurableState['node'] {
    const tuple = (e: RequestEntry): MRequestTuple => [e.p, e.t, e.g, e.req];
    return {
      requests: [...this.requests.values()].map(tuple),
      lock_ps: [...this.lock_ps],
      inquired_ps: [...this.inquired_ps],
      lock_group: this.lock_group,
      has_priority: this.has_priority,
      aside: [...this.#aside.values()].map(tuple),
      suspect: [...this.#suspect],
      done: [...this.#done],
      ...(this.fence === undefined ? {} : { hs: this.#hs }),
    };
  }

  /** Resumes from a recovered state (checked by `parseMaekawaMDurable`). */
  restore(d: MaekawaMDurableState['node']): void {
    for (const [p, t, g, req] of d.requests) this.requests.set(p, { p, t, g, req });
    for (const p of d.lock_ps) this.lock_ps.add(p);
    for (const p of d.inquired_ps) this.inquired_ps.add(p);
    [this.lock_group, this.has_priority] = [d.lock_group, d.has_priority];
    for (const [p, t, g, req] of d.aside) this.#aside.set(p, { p, t, g, req });
    for (const p of d.suspect) this.#suspect.add(p);
    for (const [p, req] of d.done) this.#done.set(p, req);
    this.#hs = d.hs ?? 0;
    for (const p of this.lock_ps) this.#armTimer(p);
  }

  /** G5: CONFIRM(req, token, round) from p: accepted only while p's lock for `req` is current. */
  onConfirm(p: ProcessId, req: number, token: number, round: number): void {
    if (this.fence === undefined || !this.lock_ps.has(p) || this.requests.get(p)?.req !== req) {
      reach('group-mutex-m:confirm-stale');
      return;
    }
    if (token > this.#hs) this.#hs = token;
    this.#armTimer(p);
    this.send(p, { type: 'CONFIRMED', req, ts: this.clock.sn, round });
  }

  /** G6: (re)starts the timer of p's lock. */
  #armTimer(p: ProcessId): void {
    this.#timers.get(p)?.();
    const clock = this.fence?.clock;
    const ttl = this.fence?.ttl;
    if (clock === undefined || ttl === undefined) return;
    const req = this.requests.get(p)!.req;
    this.#timers.set(
      p,
      clock.setTimer(ttl, () => {
        this.#timers.delete(p);
        if (this.lock_ps.has(p) && this.requests.get(p)?.req === req) this.#reclaim(p, req);
      }),
    );
  }

  /** G6: p's lock was not renewed within the TTL. */
  #reclaim(p: ProcessId, req: number): void {
    reach('group-mutex-m:lock-expired');
    this.send(p, { type: 'EXPIRED', req, ts: this.clock.sn });
    this.#free(p, req, true, false);
  }

  /** Stops every lock timer (the process closes). */
  close(): void {
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }

  /** E.4: a request of group `g` may be granted now (no lock held, or `g` locked with priority). */
  protected grantable(g: number): boolean {
    return this.lock_ps.size === 0 || (this.lock_group === g && this.has_priority);
  }

  #max(g: number): number {
    return this.plan.maxLocks[g]!;
  }

  #sendLocked(q: RequestEntry): void {
    if (this.fence === undefined) this.send(q.p, { type: 'LOCKED', req: q.req, ts: this.clock.sn });
    else this.send(q.p, { type: 'FENCE_LOCKED', req: q.req, ts: this.clock.sn, hs: this.#hs });
    this.lock_ps.add(q.p);
    if (this.fence !== undefined) this.#armTimer(q.p);
  }

  #inquire(q: RequestEntry): void {
    reach('group-mutex-m:inquire');
    this.inquired_ps.add(q.p);
    this.send(q.p, { type: 'INQUIRE', req: q.req, ts: this.clock.sn });
  }

  /** E.21–E.23 / F.10–F.12: retrieve every lock not yet inquired. */
  #retrieveLocks(): void {
    for (const q of this.lock_ps) {
      if (!this.inquired_ps.has(q)) this.#inquire(this.requests.get(q)!);
    }
  }

  /** E.1: receive REQUEST(⟨p, t⟩, g). */
  onRequest(p: ProcessId, t: number, g: number, req: number): void {
    const old = this.requests.get(p);
    if (old !== undefined) {
      // issue 27 §3 (file header): keep the old request, set the new one aside, ask p
      this.clock.sn = witness(this.clock.sn, t);
      if (req === old.req || this.#aside.has(p)) return;
      reach('group-mutex-m:request-set-aside');
      this.#aside.set(p, { p, t, g, req });
      this.#probe(p, old.req);
      return;
    }
    this.clock.sn = witness(this.clock.sn, t); // E.2
    const entry: RequestEntry = { p, t, g, req };
    this.requests.set(p, entry); // E.3
    if (req <= (this.#done.get(p) ?? 0)) {
      // issue 27 §3: a req p already gave up here (its reqs only grow): taken, and p asked
      this.#suspect.add(p);
      this.#probe(p, req);
    }
    if (this.grantable(g)) {
      // E.4
      if (this.lock_ps.size < this.#max(g)) {
        // E.5–E.10
        this.#sendLocked(entry);
        if (this.lock_ps.size === 1) {
          this.lock_group = g;
          this.has_priority = true;
        }
        return;
      }
      // E.11–E.16: a maximum number of locks have been given to group g
      reach('group-mutex-m:max-locks');
      const q1 = rank(this.#max(g), g, ALL, this.requests)!;
      const q2 = rank(-1, g, (q) => this.lock_ps.has(q) && !this.inquired_ps.has(q), this.requests);
      if (q2 !== undefined && higher(q1, q2)) {
        reach('group-mutex-m:inquire-same-group');
        this.#inquire(q2);
      }
      return;
    }
    if (g !== this.lock_group && this.has_priority) {
      // E.17–E.23: check if lock_group still has the priority
      const q1 = rank(1, this.lock_group, ALL, this.requests);
      if (q1 === undefined || higher(entry, q1)) {
        reach('group-mutex-m:priority-lost-on-request');
        this.has_priority = false;
        this.#retrieveLocks();
      }
    }
    // E.24: else the request is queued
  }

  #probe(p: ProcessId, req: number): void {
    reach('group-mutex-m:probe');
    this.send(p, { type: 'PROBE', req, ts: this.clock.sn });
  }

  /**
   * Issue 27 §3: p's request `req` ended; take the request set aside, or drop it (file header).
   * `done(p)` is raised unless the end was a reclaim (G6).
   */
  #ended(p: ProcessId, req: number, raiseDone: boolean): void {
    if (raiseDone && req > (this.#done.get(p) ?? 0)) this.#done.set(p, req);
    const wasSuspect = this.#suspect.delete(p);
    const aside = this.#aside.get(p);
    if (aside === undefined) return;
    this.#aside.delete(p);
    if (!wasSuspect && aside.req > req) {
      reach('group-mutex-m:aside-dropped');
      return;
    }
    reach('group-mutex-m:aside-taken');
    this.onRequest(p, aside.t, aside.g, aside.req);
    if (this.#suspect.has(p)) return; // probed by onRequest already
    this.#suspect.add(p);
    this.#probe(p, aside.req);
  }

  /** F.1: receive UNLOCK(p, t, flag) for request `req` of p. */
  onUnlock(p: ProcessId, req: number, flag: boolean): void {
    const entry = this.requests.get(p);
    if (entry === undefined || entry.req !== req) {
      if (this.#aside.get(p)?.req === req)
        this.#aside.delete(p); // the request set aside, withdrawn
      else reach('group-mutex-m:stale-unlock');
      return;
    }
    // F.2 (sn := max(sn, t)) is done by the owner on every receive from a legitimate sender
    this.#free(p, req, flag, true);
  }

  /** F.3–F.24 for p's request `req` (current here): UNLOCK(p, req, flag), or a reclaim (G6). */
  #free(p: ProcessId, req: number, flag: boolean, raiseDone: boolean): void {
    const freed = this.lock_ps.delete(p); // F.3
    this.#timers.get(p)?.();
    this.#timers.delete(p);
    this.inquired_ps.delete(p); // F.4
    if (flag)
      this.requests.delete(p); // F.5–F.6
    else reach('group-mutex-m:yield');
    const top = rank(1, undefined, ALL, this.requests); // F.7
    const h1 = top === undefined ? NONE : top.g;
    if (this.has_priority && this.lock_ps.size > 0 && this.lock_group !== h1) {
      // F.8–F.12: lock_group loses the priority
      reach('group-mutex-m:priority-lost-on-unlock');
      this.has_priority = false;
      this.#retrieveLocks();
    } else if (this.has_priority && this.lock_group === h1) {
      // F.13–F.17: another group member is waiting for i's lock
      if (this.lock_ps.size < this.#max(this.lock_group)) {
        const q = rank(1, this.lock_group, (x) => !this.lock_ps.has(x), this.requests);
        if (q !== undefined) this.#sendLocked(q);
      } else if (!freed) reach('group-mutex-m:full-after-withdrawal');
    } else if (this.lock_ps.size === 0 && top !== undefined) {
      // F.18–F.24: grant the highest group, up to max[h1] of its requests
      reach('group-mutex-m:switch-group');
      this.has_priority = true;
      this.lock_group = h1;
      for (let k = 1; k <= this.#max(h1); k++) {
        const q = rank(k, h1, ALL, this.requests);
        if (q === undefined) break;
        this.#sendLocked(q);
      }
    }
    if (flag) this.#ended(p, req, raiseDone);
  }
}
