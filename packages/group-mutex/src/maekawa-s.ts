/**
 * Maekawa_S — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE TPDS 14(5),
 * 2003, Sec. 4.3, **Fig. 7 "Algorithm Maekawa_S executed by process p"** (guarded commands A:
 * wish to enter CS, B: receive GRANT, C: exit CS) and **Fig. 8 "Algorithm Maekawa_S executed by
 * node i"** (in `maekawa-s-node.ts`). Every process plays both roles.
 *
 * Variables of Fig. 7: `state`, `sn` (numbers p's requests; here it also tags them), `group`,
 * `Q`, `locked_nodes` (auxiliary); `first(Q)`, `next(k, Q)`, `last(Q)` as in the figure.
 *
 * Additions for abort and bad input (named in the README):
 * - abort of a waiting entry sends UNLOCK(p, g, sn) to every node of Q; each node withdraws the
 *   request wherever it is (held, deferred, early) or, if it has not arrived yet, drops it on
 *   arrival (`maekawa-s-node.ts`);
 * - a GRANT for another request than the one waiting (withdrawn, forged, or a second GRANT of one
 *   that ended) is answered by UNLOCK(g, sn) to every node of that request's quorum, so no node
 *   stays locked for nobody; the UNLOCK names the group, so it never touches the request waiting
 *   under the same `sn` (issue 27 §3, README deviation 7);
 * - crash recovery (issue 27): `durableState()`, a restore from `ctx.recovered`
 *   (`durable-s.ts`), `recover()`;
 * - an UNLOCK is taken only from a process one of whose quorums holds this node (else reported
 *   and dropped: it would withdraw or remember a request of a stranger).
 *
 * Costs (Theorem 9): exactly 2c + 1 messages per entry–exit without contention (c REQUEST hops
 * — the first from p — one GRANT, c UNLOCK); minimum synchronization delay c + 1. Under
 * contention a request also costs one self-addressed REQUEST per node where it arrived early
 * (E.17–E.19), at most 3c in all (`groupMutexBounds`, README). No clocks.
 */
import {
  CSMICError,
  CSObjectBase,
  type DurableCSObject,
  type Endpoint,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
} from '@critsec/core';
import { PendingCall } from '@critsec/core/kit';
import { MAEKAWA_S_DURABLE_FORMAT, type MaekawaSDurableState } from './durable-s.js';
import { reach } from './rare-paths.js';
import type { Rules } from './maekawa-m-node.js';
import { MaekawaSNode, type MaekawaSNodeSnapshot, type SNodeClass } from './maekawa-s-node.js';
import { checkGroup, type QuorumPlan } from './plan.js';
import { type MaekawaSMessage, maekawaSProtocol } from './protocol-s.js';

const NONE = -1;

/** Handed-back future tags remembered (the nodes remember at most 64 withdrawn requests per process). */
const HANDED_BACK_MAX = 64;

/** Every variable of one Maekawa_S process (`inspect()`; JSON-serializable). */
export interface MaekawaSSnapshot {
  /** Fig. 7. */
  readonly process: {
    /** The group of the current (or last) request. */
    readonly group: number;
    /** Sequence number of the current (or last) request; 0 before the first. */
    readonly sn: number;
    /** Whether an entry is in flight (or a recovered request waits for `recover()`). */
    readonly waiting: boolean;
    /** The quorum nodes it has locked (set at GRANT), ascending. */
    readonly locked_nodes: readonly ProcessId[];
  };
  /** Fig. 8. */
  readonly node: MaekawaSNodeSnapshot;
}

/** One process of Maekawa_S (Figs. 7–8). @internal */
export class MaekawaS extends CSObjectBase<number> implements DurableCSObject<number> {
  readonly #endpoint: Endpoint;
  readonly #plan: QuorumPlan;
  readonly #node: MaekawaSNode;

  // Fig. 7
  #group = NONE;
  #Q: readonly ProcessId[] = [];
  #sn = 0;
  #locked_nodes: readonly ProcessId[] = [];
  /** The GRANT of request (group, sn) has not come yet (set at A.5, cleared at B.1 or on its late arrival after an abort). */
  #grantOwed = false;
  /** Requests (g, sn), sn above `sn`, whose GRANT was handed back: a later request skips their tag. */
  #handedBack: { g: number; sn: number }[] = [];
  /** The waiting `entry(g)` (A.3 `state := trying` until the quorum is locked). */
  readonly #call: PendingCall;
  /** Recovered with a waiting request and no caller (a crash cut its `entry()`): `recover()` withdraws it. */
  #orphan = false;
  readonly #n: number;

  /** @param restored a recovered state, checked by `parseMaekawaSDurable`: the object resumes there. */
  constructor(
    ctx: ProcessContext,
    plan: QuorumPlan,
    rule: Rules,
    Node: SNodeClass = MaekawaSNode,
    restored?: MaekawaSDurableState,
  ) {
    super(ctx.id, restored?.state ?? 'OutCS', { takesRequest: true });
    this.#call = new PendingCall(PendingCall.messages('Maekawa_S', ctx.id, 'entry'));
    this.#endpoint = ctx.endpoint;
    this.#plan = plan;
    this.#n = ctx.n;
    this.#node = new Node(ctx.id, plan, (to, msg) => ctx.endpoint.send(to, msg), rule);
    if (restored !== undefined) this.#restore(restored);
    this.listen(maekawaSProtocol, ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
  }

  /** Every protocol variable of both roles as JSON (issue 27; see {@link MaekawaSDurableState}). */
  durableState(): MaekawaSDurableState {
    return {
      format: MAEKAWA_S_DURABLE_FORMAT,
      id: this.id,
      n: this.#n,
      m: this.#plan.m,
      state: this.state,
      process: {
        group: this.#group,
        sn: this.#sn,
        waiting: this.#call.waiting || this.#orphan,
        locked_nodes: [...this.#locked_nodes],
        grantOwed: this.#grantOwed,
        handedBack: this.#handedBack.map((r): [number, number] => [r.g, r.sn]),
      },
      node: this.#node.durable(),
    };
  }

  /**
   * Completes a recovery (issue 27): a recovered waiting request is withdrawn as an aborted entry
   * is (UNLOCK(g, sn) to every node of Q; its late GRANT is then ignored once); a recovered CS is
   * left by C.1–C.6. Resolves once OutCS; at once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(`Maekawa_S: recover() called on P${this.id} while ${this.pending}() is in flight`);
    }
    if (this.#orphan) this.#withdraw();
    else if (this.state === 'InCS') await this.exit();
  }

  #restore(s: MaekawaSDurableState): void {
    const r = s.process;
    [this.#group, this.#sn, this.#orphan, this.#grantOwed] = [r.group, r.sn, r.waiting, r.grantOwed];
    this.#Q = r.group === NONE ? [] : this.#plan.quorumOf(this.id, r.group);
    this.#locked_nodes = [...r.locked_nodes];
    this.#handedBack = r.handedBack.map(([g, sn]) => ({ g, sn }));
    this.#node.restore(s.node);
  }

  inspect(): MaekawaSSnapshot {
    return {
      process: {
        group: this.#group,
        sn: this.#sn,
        waiting: this.#call.waiting || this.#orphan,
        locked_nodes: this.#locked_nodes,
      },
      node: this.#node.snapshot(),
    };
  }

  /** A.1–A.5: wish to enter CS as a member of group g. */
  protected doEntry(g: number, signal: AbortSignal | undefined): Promise<void> {
    checkGroup(g, this.#plan.m);
    if (this.#orphan) this.#withdraw(); // entry() before recover(): the recovered request goes first
    this.#group = g; // A.3
    this.#Q = this.#plan.quorumOf(this.id, g); // A.4
    this.#sn = this.#nextSn(g); // C.2 of the previous request, done here so sn tags the new one
    this.#grantOwed = true;
    this.#call.begin(); // A.2: state := trying
    this.#endpoint.send(this.#Q[0]!, { type: 'REQUEST', p: this.id, g, sn: this.#sn }); // A.5
    return this.#call.wait(signal, () => this.#withdraw());
  }

  /** C.1–C.6: exit CS. */
  protected async doExit(): Promise<void> {
    this.setState('OutCS'); // C.3
    this.#unlock(this.#Q, this.#sn); // C.4
    this.#locked_nodes = []; // C.5
  }

  protected doClose(): void {
    this.#call.close();
  }

  /** Abort of a waiting entry: UNLOCK(p, sn) to every node of Q. */
  #withdraw(): void {
    reach('group-mutex-s:abort');
    this.#orphan = false;
    if (!this.closed) this.#unlock(this.#Q, this.#sn);
  }

  #unlock(Q: readonly ProcessId[], sn: number, g = this.#group): void {
    const msg: MaekawaSMessage = { type: 'UNLOCK', g, sn };
    for (const i of Q) this.#endpoint.send(i, msg);
  }

  /**
   * C.2: the next request's tag, `sn + 1` — past any (g, sn) whose GRANT this process handed back
   * unasked (its UNLOCK may be remembered at a node as withdrawn, which would drop the REQUEST).
   */
  #nextSn(g: number): number {
    let sn = this.#sn + 1;
    while (this.#handedBack.some((r) => r.g === g && r.sn === sn)) sn++;
    this.#handedBack = this.#handedBack.filter((r) => r.sn > sn);
    return sn;
  }

  /** B.1–B.3: receive GRANT(i) — quorum Q acquired. */
  #onGrant(i: ProcessId, g: number, sn: number): void {
    const Q = this.#plan.quorumOf(this.id, g);
    if (i !== Q[Q.length - 1]) {
      this.reportError(
        new ProtocolError(`Maekawa_S: P${this.id} got GRANT(group ${g}) from P${i}, which is not last(Q)`, {
          from: i,
        }),
      );
      return;
    }
    if (sn === this.#sn && g === this.#group) {
      if (this.#call.waiting) {
        this.#grantOwed = false;
        this.#locked_nodes = this.#Q; // B.2
        this.#call.resolve(() => this.setState('InCS')); // B.3
        return;
      }
      // InCS: a copy (forged) — the locks are this request's, C.4 frees them; after an abort: the
      // withdrawn request's own GRANT, once (its nodes already have the UNLOCK)
      if (this.state === 'InCS' || this.#grantOwed) {
        this.#grantOwed = false;
        return;
      }
    }
    this.#handBack(Q, g, sn);
  }

  /**
   * A GRANT for a request (g, sn) that is not the one waiting — an earlier one, another group
   * under this `sn`, one never made, or a second GRANT of the one that ended: every node of its
   * quorum holds a lock for it (forged or duplicated REQUESTs), so UNLOCK(g, sn) goes to each.
   * The UNLOCK names the group, so it never touches this process's real request (README
   * deviation 7).
   */
  #handBack(Q: readonly ProcessId[], g: number, sn: number): void {
    reach('group-mutex-s:stale-grant-returned');
    if (sn > this.#sn && this.#handedBack.length < HANDED_BACK_MAX) this.#handedBack.push({ g, sn });
    this.#unlock(Q, sn, g);
  }

  #onMessage(from: ProcessId, msg: MaekawaSMessage): void {
    if (msg.g >= this.#plan.m) {
      this.reportError(
        new ProtocolError(`Maekawa_S: P${this.id} got ${msg.type} for unknown group ${msg.g}`, { from }),
      );
      return;
    }
    if (msg.type === 'UNLOCK' && !this.#plan.inSomeQuorum(this.id, from)) {
      // E.1: UNLOCK comes from p to the nodes of p's quorum (C.4, an abort, a GRANT handed back)
      this.reportError(
        new ProtocolError(
          `Maekawa_S: P${this.id} got UNLOCK from P${from}, but P${this.id} is in none of the quorums P${from} uses`,
          { from },
        ),
      );
      return;
    }
    switch (msg.type) {
      case 'REQUEST':
        if (msg.p >= this.#plan.n || !this.#node.acceptsFrom(from, msg.p, msg.g)) {
          this.reportError(
            new ProtocolError(
              `Maekawa_S: P${this.id} got REQUEST(P${msg.p}, group ${msg.g}) from P${from}, which is not the previous node of that quorum`,
              { from },
            ),
          );
          return;
        }
        this.#node.onRequest({ p: msg.p, g: msg.g, sn: msg.sn });
        return;
      case 'UNLOCK':
        this.#node.onUnlock(from, msg.g, msg.sn);
        return;
      case 'GRANT':
        this.#onGrant(from, msg.g, msg.sn);
        return;
    }
  }
}
