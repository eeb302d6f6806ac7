/*
 * MUTIN(l), l-mutual inclusion — Kamei & Kakugawa, "Asynchronous message-passing distributed
 * algorithm for the global critical section problem", IJNC 9(2), 2019, Section 4,
 * Algorithms 1 and 2 (correctness: Lemmas 1–2; costs: Lemmas 3–4, Theorem 2).
 *
 * At least l processes are InCS at any time. A process that wants to leave the CS serializes
 * with the other leavers through an ordinary mutual exclusion object `mx`, asks its quorum Q_i
 * who is InCS (Query/Response1), leaves only once it has seen l+1 processes InCS, and retracts
 * itself from its quorum's bookkeeping (Acquire/Ack) before it releases `mx`. Entering is
 * immediate: a Release to Q_i, which may unblock a waiting leaver with a Response2.
 *
 * Transcription notes:
 * - Messages carry the paper's fields; the sender P_j of the paper's ⟨…, P_j⟩ is the
 *   transport's `from` (authenticated by the channel, not by the payload).
 * - `mx` is any mutual exclusion CSFactory, instantiated on the channel `mx` of this object's
 *   endpoint, with every process initially OutCS of it.
 * - The state flips to OutCS at the end of Exit() (after mx.Exit(), the paper's
 *   "/* state_i = OutCS *\/"), so that P_j ∈ procsInCS_i ⇒ state_j = InCS (Lemma 1) holds at
 *   every instant; it flips to InCS in Entry() right after the Release messages are sent.
 *
 * DEVIATIONS, each listed in the README: the Response2 rule (`Response2Rule`, `settings.ts`: by
 * default responseAgainTo_i is kept until the leaver's Acquire — the paper's clears it after one
 * Response2 and can deadlock); one responseAgainTo_i entry per process, an Acquire with none
 * ignored (issue 27 §3, `response-again.ts`; the answers to what the requester never sent are at
 * `#onResponse` and `#onUnaskedAck`); over a time-bounded `mx` an Exit() commits only while mx's
 * tenure holds, else it is undone (issue 28, `mx-tenure.ts`).
 */
import {
  AbortError,
  CSMICError,
  type CSObject,
  CSObjectBase,
  type DurableCSObject,
  type Endpoint,
  isDurableCSObject,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
} from '@critsec/core';
import { PendingCall, reachOf } from '@critsec/core/kit';
import { type MutinDurableState, type MutinPhase, mutinDurableState, sorted } from './mutin-durable.js';
import { onMemberMessage } from './quorum-member.js';
import { buildMx } from './mx.js';
import { LateAcks, mxTenureLapsed } from './mx-tenure.js';
import { type MutinProtocolMessage, mutinProtocol, senderRoleError } from './protocol.js';
import { ResponseAgain } from './response-again.js';
import type { MutinSettings, Response2Rule } from './settings.js';

/** `reach()` typed against MUTIN's marks (a typo fails `tsc`). */
const reach = reachOf([
  'mutin:recovered-exit-withdrawn',
  'mutin:recovered-exit-completed',
  'mutin:exit-aborted',
  'mutin:response2-unblocks',
  'mutin:stale-response',
  'mutin:unknown-query-withdrawn',
  'mutin:query-renewed',
  'mutin:unasked-ack',
  'mutin:exit-undone',
] as const);

/**
 * One process of MUTIN(l) (Algorithms 1–2). The fields carry the paper's names; message
 * handlers are synchronous and atomic; each "wait until" is a `PendingCall` a handler resolves.
 */
export class MutinCS extends CSObjectBase {
  /** l: at least this many processes are InCS at any time. */
  readonly l: number;
  /** Q_i (constant). */
  readonly Q: readonly ProcessId[];
  /** R_i = { P_k ∈ V : P_i ∈ Q_k } (constant). */
  readonly R: readonly ProcessId[];
  /** mx: the CS object for ordinary mutual exclusion that serializes Exit() calls. */
  readonly mx: CSObject;
  /**
   * `inspect()` for the schedule explorer: every protocol variable, plus `mx.inspect()`. Present
   * only when `mx` has an `inspect()` itself (otherwise the state could not be told apart).
   */
  readonly inspect?: () => unknown;
  /**
   * Crash recovery (issue 27): every protocol variable as JSON ({@link MutinDurableState}, `mx`'s
   * own state nested). Present only when `mx` is a `DurableCSObject` itself: over a mutual
   * exclusion that cannot resume, MUTIN cannot either, and says so by not having it.
   */
  readonly durableState?: () => MutinDurableState;
  /**
   * Completes a recovery (issue 27; present with {@link durableState}): the crashed Exit() is
   * withdrawn while it waited for `mx` or for l+1 processes InCS (stays InCS), completed once its
   * Acquires were out (OutCS); with no Exit() running the state stays — the next call is the
   * application's (see `mutin` and the README). Resolves then; at once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  readonly recover?: () => Promise<void>;

  /** reqCnt_i: the request counter, matches Response1/Response2 to their Query. */
  reqCnt = 0;
  /** procsInCS_i: the processes of R_i known (by their Release/Acquire) to be InCS. */
  readonly procsInCS: Set<ProcessId>;
  /** currentInCS_i: ∪ of the procsInCS_j received from Q_i for the current request. */
  currentInCS = new Set<ProcessId>();
  /** ackFrom_i: the processes of Q_i that acknowledged the current Acquire. */
  ackFrom = new Set<ProcessId>();
  /**
   * responseAgainTo_i, one entry per process (issue 27 §3, `response-again.ts`): the leavers that
   * get a Response2 at a Release, each with the reqCnt of its latest Query here.
   */
  readonly responseAgain = new ResponseAgain();
  /** responseAgainTo_i as the paper has it: the newest leaver owed a Response2 (nil = null). */
  get responseAgainTo(): ProcessId | null {
    return this.responseAgain.newest()?.to ?? null;
  }
  /** respAgainReqCnt_i: the reqCnt of responseAgainTo_i's Query (0 when nil). */
  get respAgainReqCnt(): number {
    return this.responseAgain.newest()?.reqCnt ?? 0;
  }

  /** See {@link Response2Rule}. */
  readonly response2: Response2Rule;
  /** Over a time-bounded mx (issue 28, `mx-tenure.ts`): Exit() commits only while mx's tenure holds. */
  readonly mxTenure: boolean;
  /** T3 of `mx-tenure.ts`: Acks owed to an undone Acquire. */
  readonly lateAcks = new LateAcks();

  readonly #endpoint: Endpoint;
  readonly #inQ: ReadonlySet<ProcessId>;
  readonly #inR: ReadonlySet<ProcessId>;
  readonly #n: number;
  /** The members of Q_i whose Response1 to the current Query has arrived. */
  #answered = new Set<ProcessId>();
  /** Whether the Exit() of the current reqCnt was aborted (its Query is withdrawn at responses). */
  #queryAborted = false;
  /** wait until (|currentInCS_i| ≥ l + 1) — abortable. */
  readonly #enough = new PendingCall({
    aborted: 'MUTIN Exit() was aborted',
    closed: 'MUTIN closed while waiting for l+1 processes InCS',
  });
  /** wait until (ackFrom_i = Q_i) — not abortable (the exit is committed). */
  readonly #acked = new PendingCall({
    aborted: 'MUTIN Exit() was aborted',
    closed: 'MUTIN closed while waiting for Ack messages',
  });
  /** Where the Exit() is (`inspect()` tells the explorer; recovery resumes it). */
  #phase: MutinPhase = 'idle';
  /** The recovery owed by an object built from a recovered state (issue 27; memoized). */
  #recovery: (() => Promise<void>) | null = null;

  /**
   * Process `ctx.id` of MUTIN(l) (use `mutin`, which validates the settings and `restored`, a
   * recovered state to resume from). @throws ConfigurationError for an unfit `mx` (see `mx.ts`).
   */
  constructor(ctx: ProcessContext, settings: MutinSettings, restored?: MutinDurableState) {
    super(ctx.id, restored?.state ?? ctx.initial[ctx.id]!);
    this.l = settings.l;
    this.response2 = settings.response2 ?? 'per-release';
    this.mxTenure = settings.mxTenure === true;
    this.Q = settings.quorums.Q;
    this.R = settings.quorums.R;
    this.#inQ = new Set(this.Q);
    this.#inR = new Set(this.R);
    this.#n = ctx.n;
    this.#endpoint = ctx.endpoint;
    // procsInCS_i, initially { P_j ∈ R_i | state_j = InCS } in the (safe) initial configuration
    this.procsInCS = new Set(restored?.procsInCS ?? this.R.filter((j) => ctx.initial[j] === 'InCS'));
    const mx = buildMx(ctx, settings.mx, restored);
    this.mx = mx;
    if (isDurableCSObject(mx)) {
      const where = () => ({ n: this.#n, phase: this.#phase, queryAborted: this.#queryAborted });
      const more = () => ({ answered: this.#answered, mx: mx.durableState() });
      this.durableState = () => mutinDurableState(this, where(), more());
      this.recover = async () => {
        if (this.pending !== null)
          throw new CSMICError(`MUTIN: recover() on P${this.id} while ${this.pending}() is in flight`);
        await this.#recovery?.();
      };
      if (restored !== undefined) this.#restore(restored, mx);
    }
    this.forwardErrors(mx);
    this.listen(mutinProtocol, ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
    const mxInspect = (mx as { inspect?: unknown }).inspect;
    if (typeof mxInspect === 'function') {
      this.inspect = () => ({
        ...{ state: this.state, pending: this.pending, phase: this.#phase, reqCnt: this.reqCnt },
        ...{ procsInCS: sorted(this.procsInCS), currentInCS: sorted(this.currentInCS) },
        ...{ ackFrom: sorted(this.ackFrom), responseAgainTo: this.responseAgainTo },
        ...{ respAgainReqCnt: this.respAgainReqCnt, responseAgain: this.responseAgain.snapshot() },
        mx: (mxInspect as () => unknown).call(mx),
      });
    }
  }

  /**
   * Exit() (Algorithm 1): mx.Entry(); Query Q_i; wait until |currentInCS_i| ≥ l+1; Acquire Q_i;
   * wait until ackFrom_i = Q_i; mx.Exit(); state_i := OutCS.
   *
   * Abortable while waiting for mx and for l+1 processes InCS (mx is released, the state stays
   * InCS); once the Acquires are out it completes — with `mxTenure`, or is undone (`mx-tenure.ts`).
   */
  protected async doExit(signal: AbortSignal | undefined): Promise<void> {
    // exit() before recover(): the crashed Exit() ends first (and may have left already)
    if (this.#recovery !== null && (await this.#endedIn('OutCS'))) return;
    // mx.Entry();
    this.#phase = 'mx.Entry';
    try {
      await this.mx.entry({ signal });
    } catch (err) {
      this.#phase = 'idle';
      throw err;
    }
    this.#throwIfClosed();
    // reqCnt_i := reqCnt_i + 1; currentInCS_i := ∅; for-each P_j ∈ Q_i send ⟨Query, reqCnt_i, P_i⟩
    this.#phase = 'query';
    this.reqCnt++;
    this.currentInCS = new Set();
    this.#answered = new Set();
    this.#queryAborted = false;
    this.#enough.begin();
    for (const j of this.Q) this.#send(j, { type: 'Query', reqCnt: this.reqCnt });
    // wait until (|currentInCS_i| ≥ l + 1);
    try {
      await this.#enough.wait(signal);
    } catch (err) {
      if (!this.closed) {
        // give back the serialization lock: nothing was retracted, we are still InCS
        reach('mutin:exit-aborted');
        this.#queryAborted = true;
        this.#phase = 'mx.Exit';
        await this.mx.exit();
        this.#phase = 'idle';
      }
      throw err;
    }
    this.#throwIfClosed();
    // ackFrom_i := ∅; for-each P_j ∈ Q_i send ⟨Acquire, P_i⟩; wait until (ackFrom_i = Q_i);
    this.#phase = 'acquire';
    this.ackFrom = new Set();
    this.#acked.begin();
    for (const j of this.Q) this.#send(j, { type: 'Acquire' });
    // issue 28 (mx-tenure.ts): over a time-bounded mx, commit only while its tenure holds (T1), else undo (T2)
    try {
      await this.#acked.wait(this.mxTenure ? signal : undefined);
      this.#throwIfClosed();
      const lapsed = this.mxTenure ? mxTenureLapsed(this.mx, this.id) : null;
      if (lapsed !== null) throw lapsed;
    } catch (err) {
      if (this.mxTenure && !this.closed) await this.#undoExit(() => this.mx.exit());
      throw err;
    }
    // mx.Exit();  /* state_i = OutCS */
    this.#phase = 'mx.Exit';
    await this.mx.exit();
    this.#phase = 'idle';
    this.setState('OutCS');
  }

  /**
   * Entry() (Algorithm 1): for-each P_j ∈ Q_i send ⟨Release, P_i⟩; state_i := InCS. Never
   * blocks (an abort signal has nothing to withdraw).
   */
  protected async doEntry(): Promise<void> {
    // entry() before recover(): the crashed Exit() ends first (a withdrawn one leaves it InCS)
    if (this.#recovery !== null && (await this.#endedIn('InCS'))) return;
    for (const j of this.Q) this.#send(j, { type: 'Release' });
    this.setState('InCS');
  }

  protected async doClose(): Promise<void> {
    this.#enough.close();
    this.#acked.close();
    await this.mx.close();
  }

  /** T2 of `mx-tenure.ts`: a Release takes the Acquire back, `mxBack` gives mx back; the state stays InCS. */
  async #undoExit(mxBack: () => Promise<void>): Promise<void> {
    reach('mutin:exit-undone');
    this.lateAcks.undo(this.Q, this.ackFrom);
    [this.#queryAborted, this.#phase] = [true, 'mx.Exit'];
    for (const j of this.Q) this.#send(j, { type: 'Release' });
    await mxBack();
    this.#phase = 'idle';
  }

  /** Resumes every variable where a recovered state left it; a retraction resumes its wait for Acks. */
  #restore(s: MutinDurableState, mx: DurableCSObject): void {
    [this.#phase, this.reqCnt, this.#queryAborted] = [s.phase, s.reqCnt, s.queryAborted];
    [this.currentInCS, this.#answered] = [new Set(s.currentInCS), new Set(s.answered)];
    this.ackFrom = new Set(s.ackFrom);
    this.responseAgain.restore(s.responseAgain);
    this.lateAcks.restore(s.lateAcks);
    if (s.phase === 'acquire' && !this.mxTenure) {
      this.#acked.begin();
      this.#acked.wait(undefined).catch(() => {}); // recover() awaits it; a close before is no error
      if (this.ackFrom.size === this.Q.length) this.#acked.resolve();
    }
    let run: Promise<void> | undefined;
    this.#recovery = () => (run ??= this.#endCrashedExit(mx));
  }

  /** Ends a crashed Exit() still owed (no recover() yet): whether that left the state `to`. */
  async #endedIn(to: 'InCS' | 'OutCS'): Promise<boolean> {
    await this.#recovery?.();
    return this.state === to;
  }

  /** Ends the Exit() a crash cut: withdrawn while it waited, completed once its Acquires were out. */
  async #endCrashedExit(mx: DurableCSObject): Promise<void> {
    if (this.#phase === 'query') {
      reach('mutin:recovered-exit-withdrawn');
      this.#queryAborted = true; // as an aborted Exit(): later responses to it no longer count
      this.#phase = 'mx.Exit';
    } else if (this.#phase === 'acquire' && this.mxTenure) {
      return this.#undoExit(() => mx.recover()); // T2: the grant's age is unknown after a crash
    } else if (this.#phase === 'acquire') {
      reach('mutin:recovered-exit-completed');
      await this.#acked.wait(undefined);
      this.#phase = 'mx.Exit';
    }
    const committed = this.#phase === 'mx.Exit' && !this.#queryAborted;
    await mx.recover(); // withdraws a waiting mx.Entry(), leaves a held mx
    this.#phase = 'idle';
    if (committed) this.setState('OutCS');
  }

  #throwIfClosed(): void {
    if (this.closed) throw new AbortError(`MUTIN P${this.id} was closed during Exit()`);
  }

  #send(to: ProcessId, msg: MutinProtocolMessage): void {
    if (!this.closed) this.#endpoint.send(to, msg);
  }

  /** wait until (|currentInCS_i| ≥ l + 1) — re-checked whenever currentInCS_i grows. */
  #checkEnough(by: 'Response1' | 'Response2'): void {
    if (this.#enough.waiting && this.currentInCS.size >= this.l + 1) {
      if (by === 'Response2') reach('mutin:response2-unblocks');
      this.#enough.resolve();
    }
  }

  /** Algorithm 2: the message handlers (atomic). */
  #onMessage(from: ProcessId, msg: MutinProtocolMessage): void {
    const invalid = senderRoleError(this.id, this.#n, { inQ: this.#inQ, inR: this.#inR }, from, msg);
    if (invalid !== null) {
      this.reportError(new ProtocolError(`mutin: dropped ${invalid}`, { from }));
      return;
    }
    switch (msg.type) {
      case 'Response1':
      case 'Response2':
        this.#onResponse(from, msg.type, msg.procsInCS, msg.reqCnt);
        return;
      case 'Ack':
        if (this.lateAcks.take(from)) return; // T3: owed to an undone Acquire
        if (!this.#acked.waiting) this.#onUnaskedAck(from);
        else if (this.ackFrom.add(from).size === this.Q.length) this.#acked.resolve();
        return;
      default:
        onMemberMessage(this, from, msg, (to, m) => this.#send(to, m));
    }
  }

  /**
   * Response1/Response2: currentInCS_i := currentInCS_i ∪ procsInCS, for the current Query only.
   * A response naming another Query (issue 27 §3): one above reqCnt_i was never made here and is
   * withdrawn; one from a member that already answered the current Query, while it is awaited,
   * means that member's entry was replaced, and the current Query is sent to it again.
   */
  #onResponse(from: ProcessId, type: 'Response1' | 'Response2', procsInCS: number[], reqCnt: number): void {
    if (this.reqCnt === reqCnt) {
      if (type === 'Response1') this.#answered.add(from);
      for (const p of procsInCS) this.currentInCS.add(p);
      this.#checkEnough(type);
      return;
    }
    reach('mutin:stale-response');
    if (this.#enough.waiting && this.#answered.has(from)) {
      reach('mutin:query-renewed');
      this.#answered.delete(from);
      this.#send(from, { type: 'Query', reqCnt: this.reqCnt });
    } else if (reqCnt > this.reqCnt || (reqCnt === this.reqCnt && this.#queryAborted)) {
      reach('mutin:unknown-query-withdrawn');
      this.#send(from, { type: 'Withdraw', reqCnt });
    }
  }

  /**
   * An Ack outside the wait for Acks (issue 27 §3): `from` took an Acquire this process never sent.
   * While InCS and not retracting, tell it again (Release) and, if waiting, re-send the current
   * Query (that Acquire ended its entry there). Honest runs never get such an Ack.
   */
  #onUnaskedAck(from: ProcessId): void {
    reach('mutin:unasked-ack');
    if (this.state !== 'InCS' || this.#phase === 'acquire' || this.#phase === 'mx.Exit') return;
    this.#send(from, { type: 'Release' });
    if (!this.#enough.waiting) return;
    this.#answered.delete(from);
    this.#send(from, { type: 'Query', reqCnt: this.reqCnt });
  }
}
