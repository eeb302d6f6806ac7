/**
 * LKCS — the generalized local (l_i, k_i)-CS for arbitrary 0 ≤ l_i < k_i ≤ |N_i| + 1, a partial
 * solution (the paper's words; see the README for exactly what it guarantees).
 *
 * Source: Kamei & Kakugawa 2017, Section 5, Algorithms 3 (variables, macros L_i, K_i, Grant_LDR,
 * Waiting_LDR, Cond_i), 4 (exit- and entry-sequence), 5 (handlers (1)), 6 (TriggerNomination) and
 * 7 (handlers (2): Trigger, RequestByTrigger); Lemmas 4–6.
 *
 * The composition of li-LMUTIN (`at = MUTIN`, grants to leave the CS) and ki-LMUTEX (`at = MUTEX`,
 * grants to enter it): Exit-Sequence = LMUTIN's exit then LMUTEX's exit (Release MUTEX),
 * Entry-Sequence = LMUTEX's entry then LMUTIN's entry (Release MUTIN). Processes within two hops of
 * the leader P_LDR keep (L_i, K_i) = (l_i + 1, k_i − 1) in normal operation; when P_LDR and all its
 * neighbours wait (Waiting_LDR = |N_LDR| + 1), the leader nominates one of them as a trigger, which
 * re-requests with RequestByTrigger and is granted by everyone through the "sidetrack" (ts 0).
 *
 * Deviations (README "Deviations"): grants on Release only while Cond_i holds (the printed handler
 * grants one regardless, which reuses the sidetrack's slack); TriggerNomination tests the full
 * grant lists (|N_LDR| − L_LDR + 1 and K_LDR, the proof's values) and classifies candidates by the
 * type of their last Request (not by ts arithmetic, which the Lamport clock breaks) and sends a
 * candidate's own request tag; RequestByTrigger ends a preemption of the same process;
 * Preempt is ignored unless it names the request the process waits on (tags, as in LMUTIN);
 * Release and the sidetrack's Grant name their request, and a Grant or Trigger for a request the
 * process does not know is given back (deviations 6 and 11, `lkcs-requester.ts`).
 */
import {
  type CSFactory,
  CSMICError,
  CSObjectBase,
  ConfigurationError,
  type DurableCSObject,
  type Endpoint,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
} from '@critsec/core';
import { closedNeighborhood, PendingCall } from '@critsec/core/kit';
import { tick, witness } from '@critsec/transport';
import { Arbiter } from './arbiter.js';
import { arbiterDurable, restoreArbiter } from './arbiter-durable.js';
import { LKCS_DURABLE_FORMAT, type LkcsDurableState, parseLkcsDurable } from './lkcs-durable.js';
import { assertSafeInitial } from './config.js';
import { LkcsLeader } from './lkcs-leader.js';
import { LkcsRequester } from './lkcs-requester.js';
import { type LkcsPlan, lkcsPlan } from './lkcs-plan.js';
import {
  type At,
  type LkcsMessage,
  type LkcsNomination,
  type LkcsOptions,
  type LkcsSnapshot,
  lkcsProtocol,
} from './lkcs-protocol.js';
import { assertGraph, notNeighbour } from './validate.js';

/** One LKCS process (Algorithms 3–7). */
export class LkcsCS extends CSObjectBase implements DurableCSObject {
  /** N_i: this process and its neighbours, ascending. */
  readonly neighborhood: readonly ProcessId[];
  /** Whether this process is P_LDR, the leader that nominates triggers. */
  readonly isLeader: boolean;
  /** L_i and K_i (Algorithm 3's macros). */
  readonly L: number;
  /** K_i (see `L`). */
  readonly K: number;
  readonly #endpoint: Endpoint;
  readonly #leader: ProcessId;
  readonly #member: Uint8Array;
  readonly #arb: Record<At, Arbiter>;
  #ts = 1;
  /** Request sequence number: the tag of each request (0: the initial grants and the sidetrack). */
  #seq = 0;
  /** The requester's variables: request tags, NGrants, triggered flags, the type waited for. */
  readonly #rq: LkcsRequester;
  /** The waiting call (Algorithm 4's `wait until`). */
  readonly #call: PendingCall;
  /** The leader's nomination (Algorithms 4 and 6); acts only at P_LDR. */
  readonly #ldr: LkcsLeader;

  /** Recovered with a move waiting for grants and no caller (a crash cut it): `recover()` completes it. */
  #orphan = false;
  /** The type whose Release a completed move owes (sent a step after the flip; durable for that). */
  #releaseDue: At | null = null;

  /** Process `ctx.id` under `plan` (use {@link lkcs}); `nomination`: tests only; `restored`: a checked recovered state. */
  constructor(
    ctx: ProcessContext,
    plan: LkcsPlan,
    nomination: LkcsNomination = 'one-per-type',
    restored?: LkcsDurableState,
  ) {
    super(ctx.id, restored?.state ?? ctx.initial[ctx.id]!);
    const closed = `LKCS: P${ctx.id} was closed while waiting`;
    this.#call = new PendingCall({ aborted: closed, closed });
    const i = ctx.id;
    this.#endpoint = ctx.endpoint;
    this.#leader = plan.leader;
    this.isLeader = i === plan.leader;
    this.neighborhood = closedNeighborhood(plan.spec.graph, i);
    this.#member = new Uint8Array(ctx.n);
    for (const j of this.neighborhood) this.#member[j] = 1;
    this.L = plan.tightened.l[i]!;
    this.K = plan.tightened.k[i]!;
    const size = this.neighborhood.length;
    const rules = nomination === 'release-printed' ? 'release-printed' : 'tagged';
    const sink = (at: At) => ({
      grant: (to: ProcessId, tag: number) => this.#send(to, 'Grant', at, tag),
      preempt: (to: ProcessId, tag: number) => this.#send(to, 'Preempt', at, tag),
    });
    // Cond_i: |grantedTo[MUTIN]| < |N_i| − L_i + 1, |grantedTo[MUTEX]| < K_i
    this.#arb = {
      MUTIN: new Arbiter(size - this.L, sink('MUTIN'), rules, 'lkcs-MUTIN'),
      MUTEX: new Arbiter(this.K, sink('MUTEX'), rules, 'lkcs-MUTEX'),
    };
    // Algorithm 3: grantedTo[MUTIN] = {(1, P_j) OutCS}, grantedTo[MUTEX] = {(1, P_j) InCS}
    for (const j of this.neighborhood) {
      this.#arb[ctx.initial[j] === 'OutCS' ? 'MUTIN' : 'MUTEX'].grantedTo.set(j, { ts: 1, tag: 0 });
    }
    this.#rq = new LkcsRequester(size, {
      send: (to, type, at, tag) => this.#send(to, type, at, tag),
      multicastByTrigger: (at, tag) => this.#multicast('RequestByTrigger', at, tag),
      complete: () => this.#complete(),
    });
    this.#ldr = new LkcsLeader(this.isLeader, this.#arb, size, nomination, (to, at, tag) =>
      this.#send(to, 'Trigger', at, tag),
    );
    const held: At = this.state === 'OutCS' ? 'MUTIN' : 'MUTEX';
    for (const j of this.neighborhood) this.#rq.nGrants[held].add(j);
    if (restored !== undefined) this.#restore(restored);
    this.listen(lkcsProtocol, ctx.endpoint, (from, m) => this.#onMessage(from, m));
  }

  /** A copy of this process's protocol variables (for tests and the explorer). */
  inspect(): LkcsSnapshot {
    const ids = (s: Set<ProcessId>) => [...s].sort((a, b) => a - b);
    return {
      ts: this.#ts,
      waiting: this.#rq.waitingAt,
      request: { ...this.#rq.request },
      triggered: { ...this.#rq.triggered },
      nGrants: { MUTIN: ids(this.#rq.nGrants.MUTIN), MUTEX: ids(this.#rq.nGrants.MUTEX) },
      arbiter: { MUTIN: this.#arb.MUTIN.snapshot(), MUTEX: this.#arb.MUTEX.snapshot() },
      outstanding: this.#ldr.snapshot(),
    };
  }

  /** Every variable of Algorithm 3 as JSON (issue 27; see {@link LkcsDurableState}). */
  durableState(): LkcsDurableState {
    const ids = (set: Set<ProcessId>) => [...set].sort((a, b) => a - b);
    return {
      format: LKCS_DURABLE_FORMAT,
      id: this.id,
      n: this.#member.length,
      neighborhood: [...this.neighborhood],
      plan: { leader: this.#leader, L: this.L, K: this.K },
      state: this.state,
      ts: this.#ts,
      seq: this.#seq,
      request: { ...this.#rq.request },
      waiting: this.#rq.waitingAt,
      nGrants: { MUTIN: ids(this.#rq.nGrants.MUTIN), MUTEX: ids(this.#rq.nGrants.MUTEX) },
      triggered: { ...this.#rq.triggered },
      arbiter: { MUTIN: arbiterDurable(this.#arb.MUTIN), MUTEX: arbiterDurable(this.#arb.MUTEX) },
      leader: this.#ldr.durable(),
      releaseDue: this.#releaseDue,
    };
  }

  /**
   * Completes a recovery (issue 27). LKCS cannot withdraw a request (the sidetrack cannot give a
   * grant back), so a move the crash cut is completed (its grants, the flip, the other type's
   * Release); resolves in the state reached (both are bounded, l_i and k_i); at once otherwise.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(`LKCS: recover() called on P${this.id} while ${this.pending}() is in flight`);
    }
    if (!this.#orphan) {
      if (this.#releaseDue !== null) this.#releaseOther(this.#releaseDue === 'MUTIN' ? 'MUTEX' : 'MUTIN');
      return;
    }
    this.#orphan = false;
    const at = this.#rq.waitingAt!;
    // the leader may already see Waiting_LDR = |N_LDR| + 1: nominate now, not at the next message
    this.#ldr.loop(true);
    await this.#call.wait(undefined);
    this.#releaseOther(at);
  }

  #restore(s: LkcsDurableState): void {
    [this.#ts, this.#seq, this.#rq.waitingAt, this.#releaseDue] = [s.ts, s.seq, s.waiting, s.releaseDue];
    for (const at of ['MUTIN', 'MUTEX'] as const) {
      this.#rq.request[at] = s.request[at];
      this.#rq.triggered[at] = s.triggered[at];
      this.#rq.nGrants[at].clear();
      for (const j of s.nGrants[at]) this.#rq.nGrants[at].add(j);
      restoreArbiter(this.#arb[at], s.arbiter[at]);
    }
    this.#ldr.restore(s.leader);
    if (s.waiting !== null) {
      this.#orphan = true;
      this.#call.begin();
      // recover() awaits it; closed before that, its rejection has nobody to reach
      this.#call.wait(undefined).catch(() => {});
    }
  }

  /** Algorithm 4, Exit-Sequence: LMUTIN's exit (wait for every MUTIN grant), then Release MUTEX. */
  protected doExit(): Promise<void> {
    this.#ts = tick(this.#ts);
    return this.#request_('MUTIN');
  }

  /** Algorithm 4, Entry-Sequence: LMUTEX's entry (wait for every MUTEX grant), then Release MUTIN. */
  protected doEntry(): Promise<void> {
    return this.#request_('MUTEX');
  }

  async #request_(at: At): Promise<void> {
    if (this.#orphan)
      throw new CSMICError(`LKCS: P${this.id}'s recovered move is not complete; call recover() first`);
    this.#seq = tick(this.#seq);
    this.#rq.request[at] = this.#seq;
    this.#rq.nGrants[at].clear();
    this.#rq.triggered[at] = false;
    this.#call.begin();
    this.#rq.waitingAt = at;
    // ⟨Request, at, ts_i, P_i⟩: ts carries ts_i (the priority), req the tag
    this.#multicast('Request', at, this.#seq);
    this.#ldr.loop(this.#rq.waitingAt !== null);
    // no signal: LKCS cannot withdraw a request (the sidetrack has no way to give a grant back)
    await this.#call.wait(undefined);
    this.#releaseOther(at);
  }

  /**
   * Algorithm 4: once the grants of type `at` are all here, release the other type's — in the
   * caller's continuation, so these messages belong to this call, not to the Grant that completed it.
   */
  #releaseOther(at: At): void {
    const other: At = at === 'MUTIN' ? 'MUTEX' : 'MUTIN';
    this.#releaseDue = null;
    if (!this.closed) this.#multicast('Release', other, this.#rq.request[other]);
  }

  protected doClose(): void {
    this.#rq.waitingAt = null;
    this.#call.close();
  }

  #complete(): void {
    const at = this.#rq.waitingAt!;
    this.#rq.waitingAt = null;
    const other: At = at === 'MUTIN' ? 'MUTEX' : 'MUTIN';
    this.#releaseDue = other;
    this.#call.resolve(() => {
      this.setState(at === 'MUTIN' ? 'OutCS' : 'InCS');
      this.#rq.nGrants[other].clear();
    });
  }

  #onMessage(from: ProcessId, m: LkcsMessage): void {
    if (this.#member[from] !== 1) {
      this.reportError(notNeighbour('LKCS', this.id, from, m.type));
      return;
    }
    this.#ts = witness(this.#ts, m.ts);
    const arb = this.#arb[m.at];
    switch (m.type) {
      case 'Request':
        this.#ldr.lastAt.set(from, m.at);
        arb.onRequest(from, m.ts, m.req);
        break;
      case 'Release': {
        const ended = arb.onRelease(from, m.req);
        if (this.isLeader) this.#ldr.trackRelease(from, m.at, m.req, ended);
        break;
      }
      case 'Relinquish':
        arb.onRelinquish(from, m.req);
        break;
      case 'RequestByTrigger':
        this.#ldr.onRequestByTrigger(from, m.at);
        arb.onRequestByTrigger(from, m.req);
        break;
      case 'Grant':
        this.#rq.onGrant(from, m.at, m.req);
        break;
      case 'Preempt':
        this.#rq.onPreempt(from, m.at, m.req);
        break;
      case 'Trigger':
        if (from === this.#leader) this.#rq.onTrigger(from, m.at, m.req);
        else {
          const why = `LKCS: P${this.id} got Trigger from P${from}, not the leader P${this.#leader}`;
          this.reportError(new ProtocolError(why, { from }));
        }
        break;
    }
    this.#ldr.loop(this.#rq.waitingAt !== null);
  }

  #send(to: ProcessId, type: LkcsMessage['type'], at: At, req: number): void {
    this.#endpoint.send(to, { type, at, req, ts: this.#ts });
  }

  #multicast(type: LkcsMessage['type'], at: At, req: number): void {
    const m = { type, at, req, ts: this.#ts };
    for (const j of this.neighborhood) this.#endpoint.send(j, m);
  }
}

/**
 * LKCS (Sec. 5, Algorithms 3–7): the generalized local (l_i, k_i)-CS on `graph`, a partial
 * solution — processes within two hops of the leader keep (l_i + 1, k_i − 1) except while one
 * process uses the sidetrack. Preconditions (Sec. 5.1): a leader with |N_LDR| ≥ 4 and
 * k_q − l_q ≥ 3 for every P_q within two hops of it; the initial configuration must satisfy the
 * tightened bounds (build one with `safeInitial(lkcsPlan(…).tightened)`).
 *
 * Messages per pair (Lemma 6): 6(|N_i|+1) uncontended, 12(|N_i|+1) at most as the lemma counts
 * (Trigger / RequestByTrigger and their grants come on top; see {@link localCsBounds}).
 * `entry()` and `exit()` both wait for grants; neither can be aborted (a signal is ignored once
 * the call started: the sidetrack has no way to give a grant back).
 *
 * @throws ConfigurationError (at once) for bad bounds or no valid leader (see {@link lkcsPlan});
 *   (from the factory) for an n mismatch or an initial configuration that breaks (L_i, K_i).
 */
export function lkcs(options: LkcsOptions): CSFactory {
  return lkcsWith(options, 'one-per-type');
}

/** {@link lkcs} with the printed nomination rule (tests only). @internal */
export function lkcsWith(options: LkcsOptions, nomination: LkcsNomination): CSFactory {
  const graph = assertGraph(options?.graph, 'lkcs');
  const plan = lkcsPlan(graph, options.l, options.k, options.leader);
  return (ctx) => {
    if (ctx.n !== graph.n) {
      throw new ConfigurationError(
        `lkcs: the graph has n = ${graph.n} processes but the cluster has n = ${ctx.n}`,
      );
    }
    assertSafeInitial(plan.tightened, ctx.initial, 'lkcs (L_i, K_i)');
    // issue 27: a restarted process resumes from its recovered state, checked first
    const i = ctx.id;
    const restored =
      ctx.recovered === undefined
        ? undefined
        : parseLkcsDurable(ctx.recovered, ctx, closedNeighborhood(graph, i), {
            leader: plan.leader,
            L: plan.tightened.l[i]!,
            K: plan.tightened.k[i]!,
          });
    return new LkcsCS(ctx, plan, nomination, restored);
  };
}
