/**
 * The permission-granting half of li-LMUTIN and LKCS (Kamei & Kakugawa 2017, Sec. 3, Algorithm 2
 * "On receipt of a Request / Release / Relinquish message"; Sec. 5.2, Algorithms 5 and 7 for one
 * algorithm type `at`). Every process is the arbiter of its closed neighbourhood N_i ∪ {P_i}: it
 * hands out at most `limit` grants at a time (`|N_i| − l_i + 1` exits for LMUTIN, `K_i` entries
 * or `|N_i| − L_i + 1` exits for LKCS), queues the rest in `pendingReq` by timestamp `(ts, P)`,
 * and preempts the latest grant (`Preempt`) when an earlier request waits, one preemption at a
 * time (`preemptingNow`).
 *
 * Every request carries a **tag** (its requester's sequence number) besides its timestamp, so
 * Grant / Preempt / Relinquish / Release name the request they are about (the `'tagged'` rules, the default). `'printed'` keeps the
 * untagged handlers of Algorithm 2 as printed — see the README: a Relinquish that deletes nothing
 * still grants the head of `pendingReq`, one grant too many.
 */
import type { ProcessId } from '@critsec/core';
import { type ArbiterLabel, reach } from './marks.js';

/**
 * `'tagged'`: the default, safe rules. `'printed'`: Algorithm 2's handlers as printed (unsafe).
 * `'release-printed'`: tagged, but a Release always grants the head of `pendingReq`, as
 * Algorithm 5 prints it (unsafe after a sidetrack grant).
 */
export type ArbiterRules = 'tagged' | 'printed' | 'release-printed';

/** The arbiter's side effects: a grant (`Grant`) or a preemption (`Preempt`), with the tag. */
export interface ArbiterSink {
  grant(to: ProcessId, tag: number): void;
  preempt(to: ProcessId, tag: number): void;
}

/** Snapshot of one arbiter (the paper's variables): `[P, ts, tag]` in priority order. */
export interface ArbiterSnapshot {
  /** The grants this arbiter gave and still counts, `[P, ts, tag]` each, in timestamp order (GrantedTo). */
  readonly grantedTo: readonly (readonly [ProcessId, number, number])[];
  /** The requests waiting for its grant, `[P, ts, tag]` each, in timestamp order (PendingReq). */
  readonly pendingReq: readonly (readonly [ProcessId, number, number])[];
  /** `[P, tag]` of the preemption in progress, or `null` (the paper's nil). */
  readonly preemptingNow: readonly [ProcessId, number] | null;
  /**
   * Requests set aside, `[P, ts, tag]` each, in timestamp order: a Request with another tag from a
   * process that still had an entry here (issue 27 §3; never with honest neighbours).
   */
  readonly aside: readonly (readonly [ProcessId, number, number])[];
}

/** A request as an arbiter keeps it: its priority timestamp `ts` and its tag (the requester's sequence number). */
export interface Entry {
  readonly ts: number;
  readonly tag: number;
}

/** The start of the searches for the earliest / latest entry: timestamp 0, tag 0, before every request. */
const SENTINEL: Entry = Object.freeze({ ts: 0, tag: 0 });

/**
 * `(ts_a, a) < (ts_b, b)`: the paper's timestamp order (Sec. 3), with the requests' tags (sequence
 * numbers) between timestamp and id. Honest clocks almost never tie; once clocks saturate at
 * CLOCK_MAX (a forged timestamp), the tag keeps the order starvation-free: a waiting request's
 * key stays put while every other process's next request gets a larger tag.
 */
function earlier(a: Entry, pa: ProcessId, b: Entry, pb: ProcessId): boolean {
  return a.ts < b.ts || (a.ts === b.ts && (a.tag < b.tag || (a.tag === b.tag && pa < pb)));
}

/** The process of the earliest request in `m` (−1 when empty). */
export function minOf(m: ReadonlyMap<ProcessId, Entry>): ProcessId {
  let best = -1;
  let bestE: Entry = SENTINEL;
  for (const [p, e] of m) if (best === -1 || earlier(e, p, bestE, best)) [best, bestE] = [p, e];
  return best;
}

function maxOf(m: ReadonlyMap<ProcessId, Entry>): ProcessId {
  let best = -1;
  let bestE: Entry = SENTINEL;
  for (const [p, e] of m) if (best === -1 || earlier(bestE, best, e, p)) [best, bestE] = [p, e];
  return best;
}

function sorted(m: ReadonlyMap<ProcessId, Entry>): [ProcessId, number, number][] {
  return [...m]
    .sort(([a, ea], [b, eb]) => (earlier(ea, a, eb, b) ? -1 : 1))
    .map(([p, e]) => [p, e.ts, e.tag]);
}

/** One arbiter: `grantedTo`, `pendingReq`, `preemptingNow` of Algorithms 1–2 / 3 and 5. */
export class Arbiter {
  /** `grantedTo`: process → its granted request (at most one per process). */
  readonly grantedTo = new Map<ProcessId, Entry>();
  /** `pendingReq`: process → its waiting request. */
  readonly pendingReq = new Map<ProcessId, Entry>();
  /** Requests set aside while their process had another entry here (one per process, see `onRequest`). */
  readonly aside = new Map<ProcessId, Entry>();
  /** `preemptingNow` (with the preempted grant's tag), or null. */
  preemptingNow: { pid: ProcessId; tag: number } | null = null;

  constructor(
    /** Grants handed out at a time when nothing uses the sidetrack (`Cond_i`). */
    readonly limit: number,
    private readonly sink: ArbiterSink,
    private readonly rules: ArbiterRules,
    private readonly label: ArbiterLabel,
  ) {}

  /** `Cond_i` of Algorithm 3 for this `at` (Algorithm 2: `|grantedTo_i| < |N_i| − l_i + 1`). */
  get cond(): boolean {
    return this.grantedTo.size < this.limit;
  }

  /**
   * On receipt of ⟨Request, ts_j, P_j⟩ (Algorithm 2; Algorithm 5 for `at`), tagged `tag`.
   *
   * One request per process (issue 27 §3, README deviation 10): an honest P_j releases its entry
   * here before its next Request (FIFO), so a Request with another tag while P_j has an entry
   * (granted or pending) comes from a P_j restarted without its state, or was forged in its name.
   * The entry is kept — ending it would free a grant P_j may still rely on — and the new request
   * is set **aside** (the latest one per process), to be queued once the entry ends. A granted
   * entry is asked about by sending its Grant again: a requester hands back a Grant for a request
   * it does not hold (LMUTIN's `#onGrant`), which ends the entry and admits the one set aside.
   */
  onRequest(j: ProcessId, ts: number, tag: number): void {
    const granted = this.grantedTo.get(j);
    const had = granted ?? this.pendingReq.get(j);
    if (had !== undefined) {
      // never on a FIFO link (a request ends with its Release); a replayed one is ignored
      if (tag === had.tag || this.aside.get(j)?.tag === tag) return;
      reach(`${this.label}:request-set-aside`);
      this.aside.set(j, { ts, tag });
      if (granted !== undefined) this.sink.grant(j, granted.tag);
      return;
    }
    this.pendingReq.set(j, { ts, tag });
    this.#afterQueued(j, ts);
  }

  /** A request of P_j was queued: grant if Cond_i holds, else try a preemption. */
  #afterQueued(j: ProcessId, ts: number): void {
    if (this.cond) this.#grantMin();
    else if (this.rules === 'printed') this.#preemptFor(j, ts);
    else this.#preemptIfEarlier();
  }

  /** P_j's entry here ended: its request set aside (if any) is queued now; returns it. */
  #admitAside(j: ProcessId): Entry | undefined {
    const e = this.aside.get(j);
    if (e === undefined) return undefined;
    reach(`${this.label}:aside-admitted`);
    this.aside.delete(j);
    this.pendingReq.set(j, e);
    return e;
  }

  /** Algorithm 2 as printed: preempt the latest grant if the new request (ts, P_j) beats it. */
  #preemptFor(j: ProcessId, ts: number): void {
    if (this.preemptingNow !== null) return;
    const h = maxOf(this.grantedTo);
    const eh = this.grantedTo.get(h)!;
    if (earlier({ ts, tag: this.pendingReq.get(j)!.tag }, j, eh, h)) {
      this.preemptingNow = { pid: h, tag: eh.tag };
      this.sink.preempt(h, eh.tag);
    }
  }

  /**
   * Algorithm 2's preemption: if no preemption is in progress and the earliest pending request
   * beats the latest grant, send Preempt to its holder. Run on Request (as printed) and, in the
   * `'tagged'` rules, after a Release or RequestByTrigger that freed `preemptingNow` without a
   * grant — otherwise a request that arrived during a preemption would never cause one.
   */
  #preemptIfEarlier(): void {
    if (this.preemptingNow !== null || this.pendingReq.size === 0 || this.grantedTo.size === 0) return;
    const j = minOf(this.pendingReq);
    const h = maxOf(this.grantedTo);
    const eh = this.grantedTo.get(h)!;
    if (earlier(this.pendingReq.get(j)!, j, eh, h)) {
      reach(`${this.label}:preempt`);
      this.preemptingNow = { pid: h, tag: eh.tag };
      this.sink.preempt(h, eh.tag);
    }
  }

  /**
   * On receipt of ⟨Release, P_j⟩: `tag` names the released request (`null`: any, as printed in
   * Algorithm 5). A Release of a request still pending withdraws it (an aborted exit/entry).
   * @returns whether it ended a grant of P_j's (LKCS's leader counts only those, `lkcs-leader.ts`).
   */
  onRelease(j: ProcessId, tag: number | null): boolean {
    if (this.rules === 'printed') {
      if (this.preemptingNow?.pid === j) this.preemptingNow = null;
      const had = this.grantedTo.delete(j);
      this.#admitAside(j);
      if (this.pendingReq.size > 0) this.#grantMin();
      return had;
    }
    const held = this.grantedTo.get(j);
    if (held !== undefined && (tag === null || held.tag === tag)) {
      this.#endGrant(j);
      return true;
    }
    const queued = this.pendingReq.get(j);
    if (queued !== undefined && (tag === null || queued.tag === tag)) {
      reach(`${this.label}:cancel-pending`);
      this.pendingReq.delete(j);
      const next = this.#admitAside(j);
      if (next !== undefined) this.#afterQueued(j, next.ts);
      return false;
    }
    // the withdrawal of a request set aside (its process had another entry here)
    if (tag !== null && this.aside.get(j)?.tag === tag) this.aside.delete(j);
    return false;
  }

  /** P_j's grant is released: its request set aside is queued, and the freed grant handed on. */
  #endGrant(j: ProcessId): void {
    if (this.preemptingNow?.pid === j) this.preemptingNow = null;
    this.grantedTo.delete(j);
    this.#admitAside(j);
    if (this.rules === 'release-printed') {
      if (this.pendingReq.size > 0) this.#grantMin();
      return;
    }
    // grant only within the bound: after a sidetrack grant the size can exceed it (Algorithm 7)
    let granted = false;
    while (this.cond && this.pendingReq.size > 0) {
      this.#grantMin();
      granted = true;
    }
    // nothing granted (over the bound after a sidetrack grant): a waiting request may preempt
    if (!granted) this.#preemptIfEarlier();
  }

  /** On receipt of ⟨Relinquish, P_j⟩ for the grant tagged `tag`. */
  onRelinquish(j: ProcessId, tag: number): void {
    if (this.rules === 'printed') {
      this.preemptingNow = null;
      const was = this.grantedTo.get(j);
      if (was !== undefined) {
        this.grantedTo.delete(j);
        this.pendingReq.set(j, was);
      }
      if (this.pendingReq.size > 0) this.#grantMin();
      return;
    }
    const held = this.grantedTo.get(j);
    if (held?.tag !== tag) return;
    reach(`${this.label}:relinquished`);
    this.preemptingNow = null;
    this.grantedTo.delete(j);
    this.pendingReq.set(j, held);
    const h = this.#grantMin();
    if (h === j) reach(`${this.label}:regrant-relinquisher`);
  }

  /**
   * On receipt of ⟨RequestByTrigger, at, P_j⟩ (Algorithm 7) for P_j's request tagged `tag`: cancel
   * P_j's request here and grant it through the sidetrack with timestamp 0 (never preempted: every
   * request has ts ≥ 1). The grant keeps the request's tag (Algorithm 7's is untagged; README
   * deviation 11), so that the Release of the completed request names it.
   */
  onRequestByTrigger(j: ProcessId, tag: number): void {
    reach(`${this.label}:sidetrack-grant`);
    this.pendingReq.delete(j);
    this.grantedTo.delete(j);
    // the preemption of P_j's old grant can never be answered now (see the README)
    if (this.preemptingNow?.pid === j) this.preemptingNow = null;
    this.grantedTo.set(j, { ts: 0, tag });
    this.sink.grant(j, tag);
    this.#preemptIfEarlier();
  }

  /**
   * deleteMin(pendingReq) for LKCS's leader (Algorithm 6): the earliest waiting request leaves the
   * queue — its process is nominated to come back by RequestByTrigger — and a request of that
   * process set aside is queued in its place (as when a pending request is withdrawn), so that it
   * never stays aside without an entry (never with honest neighbours). Returns the process and the tag of the request taken.
   */
  takeMin(): { pid: ProcessId; tag: number } {
    const h = minOf(this.pendingReq);
    const tag = this.pendingReq.get(h)!.tag;
    this.pendingReq.delete(h);
    const next = this.#admitAside(h);
    if (next !== undefined) this.#afterQueued(h, next.ts);
    return { pid: h, tag };
  }

  /** deleteMin(pendingReq), add it to grantedTo, send Grant. Returns the process granted. */
  #grantMin(): ProcessId {
    const h = minOf(this.pendingReq);
    const e = this.pendingReq.get(h)!;
    this.pendingReq.delete(h);
    this.grantedTo.set(h, e);
    this.sink.grant(h, e.tag);
    return h;
  }

  snapshot(): ArbiterSnapshot {
    return {
      grantedTo: sorted(this.grantedTo),
      pendingReq: sorted(this.pendingReq),
      preemptingNow: this.preemptingNow && [this.preemptingNow.pid, this.preemptingNow.tag],
      aside: sorted(this.aside),
    };
  }
}
