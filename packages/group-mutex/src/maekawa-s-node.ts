/**
 * Maekawa_S, the quorum-member role — Joung, "Quorum-based algorithms for group mutual
 * exclusion", IEEE TPDS 14(5), 2003, Sec. 4.3, **Fig. 8 "Algorithm Maekawa_S executed by node
 * i"** (guarded commands D: receive REQUEST, E: receive UNLOCK) with its variables
 * `deferred_req`, `requests` (auxiliary), `early_requests`, `lock_ps`, `lock_group`, `reference`.
 *
 * Locks are taken in increasing node id: a granted REQUEST is forwarded to `next(i, Q)`, the
 * last node sends GRANT (D.6–D.7, E.13–E.14). The entry policy is the paper's `reference`
 * process: while the reference holds i's lock, later requests of `lock_group` are granted too
 * (D.2); when it unlocks, a new reference is chosen only if nobody else waits (E.4–E.7).
 *
 * Additions for abort (named in the README), none changing a run without aborts:
 * - requests carry their sequence number `sn` (Fig. 7 uses it only in the proof) and UNLOCK
 *   names the request by (g, sn) — a node knows a request by (p, g, sn); an UNLOCK for a request that is deferred or early withdraws it; an UNLOCK for a
 *   request that has not reached i yet is remembered (`cancelled[p]`) and that REQUEST is
 *   dropped when it arrives (it travels node to node, so it may come after the UNLOCK).
 */
import type { ProcessId } from '@critsec/core';
import type { MaekawaSDurableState, SRequestTuple } from './durable-s.js';
import { reach } from './rare-paths.js';
import type { Rules } from './maekawa-m-node.js';
import type { QuorumPlan } from './plan.js';
import type { MaekawaSMessage } from './protocol-s.js';

const NONE = -1;

/** Withdrawn-request sns remembered per process (see `cancelled`). */
const CANCELLED_MAX = 64;

/** A request tuple (p, g, Q, sn) of Fig. 8; Q is `plan.quorumOf(p, g)`. */
interface Req {
  readonly p: ProcessId;
  readonly g: number;
  readonly sn: number;
}

/** Node i's variables (Fig. 8), as `inspect()` reports them. */
export interface MaekawaSNodeSnapshot {
  /** `lock_ps` with each holder's `[p, g, sn]`. */
  readonly lock_ps: readonly [ProcessId, number, number][];
  /** Requests node i deferred until the CS is free for their group, `[p, g, sn]`. */
  readonly deferred_req: readonly [ProcessId, number, number][];
  /** Requests that reached node i before it was their turn (D.10–D.11), `[p, g, sn]`. */
  readonly early_requests: readonly [ProcessId, number, number][];
  /** −1 for ⊥. */
  readonly lock_group: number;
  /** −1 for ⊥. */
  readonly reference: number;
  /** Withdrawn requests whose REQUEST has not reached i yet: `[p, g, sn]`. */
  readonly cancelled: readonly [ProcessId, number, number][];
}

const tuple = (r: Req): [ProcessId, number, number] => [r.p, r.g, r.sn];
const key = (r: Req): string => `${r.p}:${r.g}:${r.sn}`;

/** @internal the node's class: {@link MaekawaSNode}, or a test's subclass of it. */
export type SNodeClass = new (...args: ConstructorParameters<typeof MaekawaSNode>) => MaekawaSNode;

/**
 * Node i of Maekawa_S. D.2's group test is the protected {@link MaekawaSNode.sameGroup}, so the
 * tests can show that a subclass breaking it is caught.
 */
export class MaekawaSNode {
  /**
   * `lock_ps`, keyed by request (`p:g:sn`): with abort, a withdrawn request of p may still be
   * granted here (its UNLOCK is behind it) while p's next request is too; each is released by
   * its own UNLOCK, which names p, g and sn (a request under p's `sn` for another group — forged —
   * is another request: README deviation 7).
   */
  readonly lock_ps = new Map<string, Req>();
  deferred_req: Req[] = [];
  early_requests: Req[] = [];
  lock_group = NONE;
  /** The reference request (the paper's reference process p, with its sn); `null` for ⊥. */
  reference: Req | null = null;
  /**
   * `cancelled[p]`: p's requests (`g:sn`) withdrawn before their REQUEST reached i. Each is
   * consumed when that REQUEST arrives; at most {@link CANCELLED_MAX} are kept per process (the
   * smallest sn is forgotten first — a REQUEST that never comes, because a node before i withdrew
   * it, or a GRANT p handed back for a request it never made).
   */
  readonly #cancelled = new Map<ProcessId, Map<string, Req>>();

  constructor(
    private readonly i: ProcessId,
    private readonly plan: QuorumPlan,
    private readonly send: (to: ProcessId, msg: MaekawaSMessage) => void,
    private readonly rule: Rules = 'default',
  ) {}

  snapshot(): MaekawaSNodeSnapshot {
    return {
      lock_ps: [...this.lock_ps.values()].map(tuple).sort((a, b) => a[0] - b[0]),
      deferred_req: this.deferred_req.map(tuple),
      early_requests: this.early_requests.map(tuple),
      lock_group: this.lock_group,
      reference: this.reference === null ? NONE : this.reference.p,
      cancelled: [...this.#cancelled.values()].flatMap((set) => [...set.values()].map(tuple)),
    };
  }

  /** Every variable, in the order kept (issue 27: the durable state's `node`). */
  durable(): MaekawaSDurableState['node'] {
    return {
      lock_ps: [...this.lock_ps.values()].map(tuple),
      deferred_req: this.deferred_req.map(tuple),
      early_requests: this.early_requests.map(tuple),
      lock_group: this.lock_group,
      reference: this.reference === null ? null : tuple(this.reference),
      cancelled: [...this.#cancelled.values()].flatMap((set) => [...set.values()].map(tuple)),
    };
  }

  /** Resumes from a recovered state (checked by `parseMaekawaSDurable`). */
  restore(d: MaekawaSDurableState['node']): void {
    const req = ([p, g, sn]: SRequestTuple): Req => ({ p, g, sn });
    for (const t of d.lock_ps) this.lock_ps.set(key(req(t)), req(t));
    this.deferred_req = d.deferred_req.map(req);
    this.early_requests = d.early_requests.map(req);
    this.lock_group = d.lock_group;
    this.reference = d.reference === null ? null : this.lock_ps.get(key(req(d.reference)))!;
    for (const t of d.cancelled) {
      const r = req(t);
      const set = this.#cancelled.get(r.p) ?? new Map<string, Req>();
      this.#cancelled.set(r.p, set.set(key(r), r));
    }
  }

  /** The sender a REQUEST(p, g, ·, ·) may come from: p for first(Q), else the previous node (or i itself, E.18). */
  acceptsFrom(from: ProcessId, p: ProcessId, g: number): boolean {
    if (!this.plan.contains(this.i, p, g)) return false;
    if (from === this.i) return true;
    const Q = this.plan.quorumOf(p, g);
    const at = Q.indexOf(this.i);
    return at === 0 ? from === p : from === Q[at - 1];
  }

  /** D.6–D.7 / E.13–E.14: GRANT if i = last(Q), else forward to next(i, Q). */
  #pass(r: Req): void {
    const Q = this.plan.quorumOf(r.p, r.g);
    const at = Q.indexOf(this.i);
    if (at === Q.length - 1) this.send(r.p, { type: 'GRANT', g: r.g, sn: r.sn });
    else this.send(Q[at + 1]!, { type: 'REQUEST', p: r.p, g: r.g, sn: r.sn });
  }

  /** p ∈ lock_ps. */
  #holds(p: ProcessId): boolean {
    for (const r of this.lock_ps.values()) if (r.p === p) return true;
    return false;
  }

  /** D.2's group test: a request of group `g` may join the locks held now. */
  protected sameGroup(g: number): boolean {
    return this.lock_group === g;
  }

  /** D.1: receive REQUEST(p, g, Q, sn). */
  onRequest(r: Req): void {
    const cancelled = this.#cancelled.get(r.p);
    if (cancelled?.delete(key(r))) {
      reach('group-mutex-s:cancelled-request-dropped');
      if (cancelled.size === 0) this.#cancelled.delete(r.p);
      return;
    }
    const sameGroup = this.sameGroup(r.g);
    const holds = this.#holds(r.p);
    if (this.lock_ps.size === 0 || (sameGroup && this.reference !== null && !holds)) {
      // D.2–D.9: grant the request
      if (this.lock_ps.size === 0) {
        this.lock_group = r.g; // D.4
        this.reference = r; // D.5
      } else reach('group-mutex-s:joined-reference');
      this.#pass(r);
      this.lock_ps.set(key(r), r); // D.8
    } else if (holds) {
      // D.10–D.11: p's request arrives before its previous unlock message
      reach('group-mutex-s:early-request');
      this.early_requests.push(r);
    } else {
      // D.12–D.13
      reach('group-mutex-s:deferred');
      this.deferred_req.push(r);
    }
  }

  /** E.1: receive UNLOCK(p) for p's request (g, sn). */
  onUnlock(p: ProcessId, g: number, sn: number): void {
    const held = this.lock_ps.get(key({ p, g, sn }));
    if (held === undefined) {
      this.#withdraw({ p, g, sn });
      return;
    }
    this.lock_ps.delete(key(held)); // E.2
    if (this.reference === held) {
      // E.4–E.7
      if (this.lock_ps.size > 0 && this.deferred_req.length === 0) {
        reach('group-mutex-s:new-reference');
        this.reference = this.lock_ps.values().next().value!;
      } else this.reference = null;
    }
    this.#grantDeferred();
    // E.17–E.19: process p's early requests once p holds no lock here — all of them, in order
    // (with abort, p may have several: the first may be withdrawn and dropped)
    if (this.#holds(p)) return;
    let early = this.early_requests.filter((e) => e.p === p);
    if (this.rule === 'printed-early') early = early.slice(0, 1);
    if (early.length === 0) return;
    if (early.length > 1) reach('group-mutex-s:early-several');
    this.early_requests = this.early_requests.filter((e) => !early.includes(e));
    for (const e of early) this.send(this.i, { type: 'REQUEST', p: e.p, g: e.g, sn: e.sn });
  }

  /** E.8–E.16: lock_ps = ∅ ∧ deferred_req ≠ ∅ — grant requests from the earliest group. */
  #grantDeferred(): void {
    if (this.lock_ps.size > 0 || this.deferred_req.length === 0) return;
    const first = this.deferred_req[0]!;
    this.reference = first;
    this.lock_group = first.g;
    const rest: Req[] = [];
    for (const r of this.deferred_req) {
      if (r.g !== first.g) {
        rest.push(r);
        continue;
      }
      this.#pass(r);
      this.lock_ps.set(key(r), r);
    }
    this.deferred_req = rest;
  }

  /** An UNLOCK for a request i does not hold: withdraw it if deferred or early, else remember it. */
  #withdraw(u: Req): void {
    const same = (r: Req): boolean => r.p === u.p && r.g === u.g && r.sn === u.sn;
    const d = this.deferred_req.findIndex(same);
    if (d >= 0) {
      reach('group-mutex-s:deferred-withdrawn');
      this.deferred_req.splice(d, 1);
      return;
    }
    const e = this.early_requests.findIndex(same);
    if (e >= 0) {
      reach('group-mutex-s:early-withdrawn');
      this.early_requests.splice(e, 1);
      return;
    }
    reach('group-mutex-s:unlock-before-request');
    const set = this.#cancelled.get(u.p) ?? new Map<string, Req>();
    this.#cancelled.set(u.p, set);
    set.set(key(u), u);
    if (set.size > CANCELLED_MAX) {
      let oldest = u;
      for (const r of set.values()) if (r.sn < oldest.sn) oldest = r;
      set.delete(key(oldest));
    }
  }
}
