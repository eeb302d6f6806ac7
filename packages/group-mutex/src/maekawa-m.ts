/**
 * Maekawa_M — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE TPDS 14(5),
 * 2003, Sec. 4.2, **Fig. 5 "Algorithm Maekawa_M executed by process p"** (guarded commands A:
 * wish to enter CS, B: receive INQUIRE, C: receive LOCKED, D: exit CS) and **Fig. 6 "Algorithm
 * Maekawa_M executed by node i"** (in `maekawa-m-node.ts`). Every process plays both roles.
 *
 * Variables of Fig. 5: `state`, `group`, `sn` (Lamport clock, saturating: `tick`/`witness`),
 * `priority` = ⟨p, t⟩ of the current request, `Q`, `locked_nodes`. The request number `req`
 * tags every message of a request (see `protocol-m.ts`).
 *
 * Additions for abort and bad input (named in the README):
 * - abort of a waiting entry sends UNLOCK(p, t, true) to every node of Q (FIFO puts it behind the
 *   REQUEST, so each node finds the request, frees its lock if granted, and deletes it);
 * - a LOCKED for another request than the one waiting (a lock granted to a withdrawn or forged
 *   request) is handed back at once with UNLOCK(true), so no node stays locked for nobody;
 * - the sender is checked first (`#outOfRole`): a message no honest process could send to this one
 *   is reported and dropped before the clock witnesses it (B.2, C.2, E.2, F.2) and before any
 *   reply, so a forged `ts` from a stranger cannot move `sn` nor make this process answer it.
 * - crash recovery (issue 27): `durableState()`, a restore from `ctx.recovered` (`durable-m.ts`),
 *   `recover()`.
 * - fencing tokens and time-bounded grants (issue 28, opt-in; G1–G4 of `fence.ts`, G5–G6 of
 *   `maekawa-m-node.ts`): FENCE_LOCKED counts as LOCKED; holding Q, the process confirms its token
 *   before C.4 enters; EXPIRED while trying forgets that lock and asks its node again (G4);
 *   `tenure()` while InCS.
 * - quorum reselection (issue 28 §4, opt-in; S1–S5 of `reselect.ts`): entry asks a quorum of the
 *   group's cartel avoiding the suspected; a waiting request whose quorum holds a suspect is
 *   withdrawn (UNLOCK(true)) and made again on another, with a new `req` and the same priority.
 *
 * Costs (Theorems 5, 6): at most 3c + 3c·max[g] messages per entry as the paper counts, at most
 * c·(2 + 6·max[g]) per exit+entry pair under causal attribution (README); 3c without contention
 * (REQUEST, LOCKED, UNLOCK); minimum synchronization delay 2.
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
} from '@critsec/core';
import { PendingCall } from '@critsec/core/kit';
import { type FenceOptions, GroupFence } from './fence.js';
import { MAEKAWA_M_DURABLE_FORMAT, type MaekawaMDurableState } from './durable-m.js';
import { reach } from './rare-paths.js';
import { tick, witness } from '@critsec/transport';
import { MaekawaMNode, type MaekawaMNodeSnapshot, type MNodeClass, type Rules } from './maekawa-m-node.js';
import { checkGroup, type QuorumPlan } from './plan.js';
import type { GroupQuorumSystem } from '@critsec/coteries';
import { type MaekawaMMessage, maekawaMProtocol } from './protocol-m.js';
import { GroupReselection, widen } from './reselect.js';
import { outOfRole } from './roles-m.js';

const NONE = -1;

/** Every variable of one Maekawa_M process (`inspect()`; JSON-serializable). */
export interface MaekawaMSnapshot {
  /** Lamport clock `sn`. */
  readonly sn: number;
  /** Fig. 5. */
  readonly process: {
    /** The group of the current (or last) request. */
    readonly group: number;
    /** Request number of the current request (0: none yet). */
    readonly req: number;
    /** Timestamp t of `priority` = ⟨p, t⟩; −1 for ∞ (no request). */
    readonly priority: number;
    /** Whether an entry is in flight (or a recovered request waits for `recover()`). */
    readonly waiting: boolean;
    /** The quorum nodes whose LOCKED it holds, ascending. */
    readonly locked_nodes: readonly ProcessId[];
  };
  /** Fig. 6. */
  readonly node: MaekawaMNodeSnapshot;
}

/** One process of Maekawa_M (Figs. 5–6). @internal */
export class MaekawaM extends CSObjectBase<number> implements DurableCSObject<number> {
  readonly #endpoint: Endpoint;
  readonly #plan: QuorumPlan;
  readonly #clock = { sn: 0 };
  readonly #node: MaekawaMNode;
  /** C.3 as printed: any LOCKED counts while trying (unsafe with abort; tests only). */
  readonly #printedLocked: boolean;

  // Fig. 5
  #group = NONE;
  #Q: readonly ProcessId[] = [];
  #req = 0;
  /** t of `priority`; NONE for ⟨p, ∞⟩. */
  #priority = NONE;
  readonly #locked_nodes = new Set<ProcessId>();
  /** The waiting `entry(g)` (A.3 `state := trying` until the quorum is locked). */
  readonly #call: PendingCall;
  /** Recovered with a waiting request and no caller (a crash cut its `entry()`): `recover()` withdraws it. */
  #orphan = false;
  readonly #n: number;
  /** Fencing and TTLs (issue 28, G1–G4 of `fence.ts`), when on. */
  readonly #fence: GroupFence | undefined;
  /** Quorum reselection (issue 28 §4, S1–S5 of `reselect.ts`), when on and a failure detector is given. */
  readonly #reselection: GroupReselection | undefined;

  /**
   * @param restored a recovered state, checked by `parseMaekawaMDurable`: the object resumes there.
   * @param fence fencing (and a TTL with its drift margin, in the clock's unit), or none.
   * @param reselect the system whose cartels a waiting request may move within (S1–S5), or none.
   */
  constructor(
    ctx: ProcessContext,
    plan: QuorumPlan,
    rule: Rules,
    Node: MNodeClass = MaekawaMNode,
    restored?: MaekawaMDurableState,
    fence?: FenceOptions,
    reselect?: GroupQuorumSystem,
  ) {
    super(ctx.id, restored?.state ?? 'OutCS', { takesRequest: true });
    this.#call = new PendingCall(PendingCall.messages('Maekawa_M', ctx.id, 'entry'));
    this.#printedLocked = rule === 'printed-locked';
    this.#endpoint = ctx.endpoint;
    if (reselect !== undefined) plan = widen(plan, reselect); // S4
    this.#plan = plan;
    this.#n = ctx.n;
    this.#reselection = GroupReselection.of(reselect, plan, ctx, () => this.#reselect());
    const send = (to: ProcessId, msg: MaekawaMMessage) => ctx.endpoint.send(to, msg);
    const nodeFence = fence === undefined ? undefined : { ttl: fence.ttl, clock: ctx.clock };
    this.#node = new Node(ctx.id, plan, this.#clock, send, nodeFence);
    this.#fence =
      fence === undefined
        ? undefined
        : new GroupFence({
            ...fence,
            id: ctx.id,
            clock: ctx.clock,
            sn: () => this.#clock.sn,
            send,
            held: () => this.#locked_nodes,
            enter: () => this.#call.resolve(() => this.setState('InCS')),
          });
    if (restored !== undefined) this.#restore(restored);
    this.listen(maekawaMProtocol, ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
  }

  /** Every protocol variable of both roles as JSON (issue 27; see {@link MaekawaMDurableState}). */
  durableState(): MaekawaMDurableState {
    return {
      format: MAEKAWA_M_DURABLE_FORMAT,
      id: this.id,
      n: this.#n,
      m: this.#plan.m,
      state: this.state,
      sn: this.#clock.sn,
      process: {
        group: this.#group,
        req: this.#req,
        priority: this.#priority,
        waiting: this.#call.waiting || this.#orphan,
        locked_nodes: [...this.#locked_nodes].sort((a, b) => a - b),
      },
      node: this.#node.durable(),
    };
  }

  /**
   * Completes a recovery (issue 27): a recovered waiting request is withdrawn as an aborted entry
   * is (UNLOCK(true) to every node of Q; a LOCKED still in flight is then handed back); a recovered
   * CS is left by D.1–D.5. Resolves once OutCS; at once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(`Maekawa_M: recover() called on P${this.id} while ${this.pending}() is in flight`);
    }
    if (this.#orphan) this.#withdraw();
    else if (this.state === 'InCS') await this.exit();
  }

  #restore(s: MaekawaMDurableState): void {
    const r = s.process;
    this.#clock.sn = s.sn;
    [this.#group, this.#req, this.#priority, this.#orphan] = [r.group, r.req, r.priority, r.waiting];
    this.#Q = r.group === NONE ? [] : this.#plan.quorumOf(this.id, r.group);
    for (const x of r.locked_nodes) this.#locked_nodes.add(x);
    this.#node.restore(s.node);
  }

  /** The current CS's fencing token and deadline while InCS (with `fencing` or a `ttl`), else `undefined`. */
  tenure(): Tenure | undefined {
    return this.state === 'InCS' ? this.#fence?.tenure() : undefined;
  }

  inspect(): MaekawaMSnapshot {
    return {
      sn: this.#clock.sn,
      process: {
        group: this.#group,
        req: this.#req,
        priority: this.#priority,
        waiting: this.#call.waiting || this.#orphan,
        locked_nodes: [...this.#locked_nodes].sort((a, b) => a - b),
      },
      node: this.#node.snapshot(),
    };
  }

  // ------------------------------------------------------------ Fig. 5, process p

  /** A.1–A.7: wish to enter CS as a member of group g. */
  protected doEntry(g: number, signal: AbortSignal | undefined): Promise<void> {
    checkGroup(g, this.#plan.m);
    if (this.#orphan) this.#withdraw(); // entry() before recover(): the recovered request goes first
    this.#group = g; // A.2
    this.#Q = this.#reselection?.choose(g) ?? this.#plan.quorumOf(this.id, g); // A.4 (S1)
    this.#clock.sn = tick(this.#clock.sn); // A.5
    this.#priority = this.#clock.sn; // A.6
    this.#req++;
    this.#locked_nodes.clear();
    this.#call.begin(); // A.3: state := trying
    this.#fence?.begin(this.#req, this.#Q);
    const msg: MaekawaMMessage = { type: 'REQUEST', req: this.#req, ts: this.#priority, g };
    for (const i of this.#Q) this.#endpoint.send(i, msg); // A.7
    return this.#call.wait(signal, () => this.#withdraw());
  }

  /** D.1–D.5: exit CS. */
  protected async doExit(): Promise<void> {
    this.setState('OutCS'); // D.2
    this.#fence?.end();
    this.#unlockAll(this.#locked_nodes); // D.3
    this.#locked_nodes.clear(); // D.4
    this.#priority = NONE; // D.5
  }

  protected doClose(): void {
    this.#call.close();
    this.#reselection?.close();
    this.#fence?.end();
    this.#node.close();
  }

  /** Abort of a waiting entry: UNLOCK(true) to every node of Q (held, granted in flight, or queued). */
  #withdraw(): void {
    reach('group-mutex-m:abort');
    this.#orphan = false;
    this.#fence?.end();
    if (!this.closed) this.#unlockAll(this.#Q);
    this.#locked_nodes.clear();
    this.#priority = NONE;
  }

  /** S2 (`reselect.ts`): a waiting request whose quorum holds a suspect retries on one avoiding them. */
  #reselect(): void {
    const to = this.#call.waiting ? this.#reselection?.retryOn(this.#Q, this.#group) : undefined;
    if (to === undefined) return;
    this.#unlockAll(this.#Q); // the attempt withdrawn, as an abort withdraws it
    this.#locked_nodes.clear();
    this.#req++; // a new request number: every message of the old attempt is stale
    this.#Q = to;
    this.#fence?.begin(this.#req, to); // S5
    const msg: MaekawaMMessage = { type: 'REQUEST', req: this.#req, ts: this.#priority, g: this.#group };
    for (const i of to) this.#endpoint.send(i, msg); // S3: the same priority ⟨p, t⟩
  }

  #unlockAll(nodes: Iterable<ProcessId>): void {
    const msg: MaekawaMMessage = { type: 'UNLOCK', req: this.#req, ts: this.#clock.sn, flag: true };
    for (const j of nodes) this.#endpoint.send(j, msg);
  }

  /** B.1–B.5: receive INQUIRE(i, v, t). */
  #onInquire(i: ProcessId, req: number): void {
    if (req !== this.#req || this.#priority === NONE || !this.#locked_nodes.has(i)) {
      reach('group-mutex-m:stale-inquire');
      return;
    }
    if (!this.#call.waiting) {
      reach('group-mutex-m:inquire-in-cs'); // state = CS: keep the lock
      return;
    }
    this.#endpoint.send(i, { type: 'UNLOCK', req, ts: this.#clock.sn, flag: false }); // B.4
    this.#locked_nodes.delete(i); // B.5
    this.#fence?.lost(); // G2: a confirmation under way starts again once Q is locked again
  }

  /** G4: EXPIRED(req) from node i: while trying, forget its lock and ask it again (same req, same priority). */
  #onExpired(i: ProcessId, req: number): void {
    if (req !== this.#req || !this.#call.waiting) {
      reach('group-mutex-m:expired-ignored'); // InCS: the deadline has passed already; else stale
      return;
    }
    reach('group-mutex-m:expired-rerequest');
    this.#locked_nodes.delete(i);
    this.#fence?.lost();
    this.#endpoint.send(i, { type: 'REQUEST', req, ts: this.#priority, g: this.#group });
  }

  /**
   * C.1–C.4: receive LOCKED(i, t) (or FENCE_LOCKED with node i's `hs`, G1); i is in Q when `req`
   * is the current request (`#outOfRole`).
   */
  #onLocked(i: ProcessId, req: number, hs: number): void {
    // C.3 as printed: any LOCKED from a node of Q counts while trying, whatever request it is for
    if (this.#printedLocked && this.#call.waiting && this.#Q.includes(i)) req = this.#req;
    if (req !== this.#req || !this.#call.waiting) {
      if (req !== this.#req || this.#priority === NONE) {
        // a lock for a withdrawn (or forged) request: hand it back
        reach('group-mutex-m:stale-locked-returned');
        this.#endpoint.send(i, { type: 'UNLOCK', req, ts: this.#clock.sn, flag: true });
      }
      return;
    }
    this.#locked_nodes.add(i); // C.3
    this.#fence?.locked(i, hs);
    if (this.#locked_nodes.size === this.#Q.length) {
      if (this.#fence !== undefined)
        this.#fence.allLocked(); // G2: confirm the token first
      else this.#call.resolve(() => this.setState('InCS')); // C.4: enter CS
    }
  }

  /** Issue 27 §3: node i asks whether `req` is the current request; UNLOCK(req, true) if not. */
  #onProbe(i: ProcessId, req: number): void {
    if (req === this.#req && this.#priority !== NONE) {
      reach('group-mutex-m:probe-current');
      return;
    }
    reach('group-mutex-m:probe-released');
    this.#endpoint.send(i, { type: 'UNLOCK', req, ts: this.#clock.sn, flag: true });
  }

  // ------------------------------------------------------------ dispatch

  #onMessage(from: ProcessId, msg: MaekawaMMessage): void {
    // The sender first: reported and dropped before it touches anything, the clock included.
    const why = outOfRole(this.id, this.#plan, this.#fence !== undefined, this.#req, this.#Q, from, msg);
    if (why !== undefined) {
      this.reportError(new ProtocolError(`Maekawa_M: P${this.id} got ${why}`, { from }));
      return;
    }
    this.#clock.sn = witness(this.#clock.sn, msg.ts); // B.2, C.2, E.2, F.2: every receive from a peer
    switch (msg.type) {
      case 'REQUEST':
        this.#node.onRequest(from, msg.ts, msg.g, msg.req);
        return;
      case 'UNLOCK':
        this.#node.onUnlock(from, msg.req, msg.flag);
        return;
      case 'LOCKED':
        this.#onLocked(from, msg.req, 0);
        return;
      case 'FENCE_LOCKED':
        this.#onLocked(from, msg.req, msg.hs);
        return;
      case 'CONFIRM':
        this.#node.onConfirm(from, msg.req, msg.token, msg.round);
        return;
      case 'CONFIRMED':
        if (msg.req === this.#req) this.#fence?.confirmed(from, msg.round);
        return;
      case 'EXPIRED':
        this.#onExpired(from, msg.req);
        return;
      case 'INQUIRE':
        this.#onInquire(from, msg.req);
        return;
      case 'PROBE':
        this.#onProbe(from, msg.req);
        return;
    }
  }
}
