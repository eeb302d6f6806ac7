/**
 * Distributed h-out-of-k mutual exclusion with an (h,k)-arbiter.
 *
 * Source: Y. Manabe and N. Tajima, "(h,k)-arbiters for h-out of-k mutual exclusion problem",
 * Sec. 2.2 (the problem), Sec. 3.1 (a process requesting h units uses a quorum of `Q_{h,k}`),
 * Sec. 4.1 and **Fig. 1** (the algorithm; "Program MutualExclusion; /* Program for process p. *\/"),
 * Sec. 4.2 (Theorems 5–6: no deadlock, no starvation), Sec. 4.3 (3·|q_{h,k}| messages per request
 * without conflict, (3h+3)·|q_{h,k}| in the worst case). A process plays both roles of Fig. 1:
 * requester (`Q`, `K`, `In`, `h`) and arbiter (`x`, `Que`, `Quelength`); `c` is its Lamport clock.
 *
 * ## The rules implemented (Fig. 1, names as printed)
 *
 * Requester p:
 * - "When p wants to use h units": `Q := quorumOf(p, h)`; `K := φ`; send `request(h, p, c)` to
 *   every `r ∈ Q` — after `c := c + 1`, which Fig. 1 does not have (see the precisions below).
 * - "When OK is arrived from p'": `K := K ∪ {p'}`; if `K = Q`: `In := true` (InCS).
 * - Exit: `In := false`; send `release` to every `r ∈ Q`.
 * - "When cancel is arrived from p'": if `In = false` and `p' ∈ K`: send `cancelled`, `K := K − {p'}`.
 * - Not in the paper (issue 27 §3, the deviation of `arbiter.ts`): `probe(s)` from an arbiter is
 *   answered with `release(s)` when `s` is not the current request, and ignored when it is; an
 *   `OK(s)` or `cancel(s)` naming a request never made (`s ≥ seq`) is answered with `release(s)`
 *   too. Safe — the units of a request this process is not using are given back — and never on an
 *   honest run without aborts (no `probe` is sent there, and every answer names a request that was
 *   made). A `probe(s)` for the request it still waits on, from an arbiter whose OK it does not
 *   hold, is answered with the same `request(h, c, s)` again: the arbiter asks after a `release`
 *   that came before its OK (an abort's, or a forged one), and an abort answers `release(s)`.
 *
 * Arbiter r: the rules of Fig. 1 and the arbiter's invariant are in the header of `arbiter.ts`.
 *
 * Priorities (Sec. 4.1): `(h, p, c)` beats `(h', p', c')` iff `c < c'` or `c = c' ∧ p < p'`. Clocks
 * (Sec. 4.1): every message piggybacks `c`; on receipt `c := max(c, c_m) + 1` — here with the
 * saturating `witness`/`tick` of `@critsec/transport` (no accepted clock can overflow).
 *
 * **The deviation in priorities** (ties at the clock ceiling `CLOCK_MAX`): `que.ts`.
 *
 * ## Precisions beyond the figure
 *
 * - **The request clock ticks** (`c := c + 1` before the `request`; Fig. 1 sends the current `c`):
 *   Lamport's rule (Sec. 4.1's ref. [10]); Theorems 5–6 unaffected (README; `test/request-clock.test.ts`).
 * - **Tags.** Every message names its request by `seq`, the requester's own request count (a
 *   Lamport clock is no tag: it saturates at `CLOCK_MAX`, so two requests could share one `c`);
 *   anything about another request is ignored (`h-out-of-k:stale-ignored`). The requester answers
 *   `cancel` only while it waits in `entry()` (Fig. 1 never resets `K` at exit), and an arbiter
 *   takes `cancelled` only for an entry in status cancel — a forged or stale one can never raise `x`.
 * - **Abort** (an extension; the paper has no abort): the requester sends `release` to every
 *   `r ∈ Q` (FIFO puts it behind the `request`) and forgets the request; an arbiter deleting an
 *   entry gives its units back to `x` only if they were taken (status ok or cancel), then runs
 *   `NewChance`. Every unit granted or in flight returns.
 * - **Validation, before the clock**: the sender's role first (`roles.ts`).
 * - **Quorum reselection** (issue 28 §4, opt-in): a waiting request moves off suspected arbiters
 *   under a new `seq` with the same `c` (S1–S5 of `reselect.ts`).
 */
import {
  CSMICError,
  CSObjectBase,
  ConfigurationError,
  type DurableCSObject,
  type Endpoint,
  type ProcessContext,
  type ProcessId,
  ProtocolError,
  type Tenure,
} from '@critsec/core';
import { PendingCall } from '@critsec/core/kit';
import { reach } from './rare-paths.js';
import type { HKArbiter } from '@critsec/coteries';
import { tick, witness } from '@critsec/transport';
import { type ArbiterClass, HOutOfKArbiter } from './arbiter.js';
import { H_OUT_OF_K_DURABLE_FORMAT, type HOutOfKDurableState } from './durable.js';
import { Fence } from './fence.js';
import { type HOutOfKMessage, hOutOfKProtocol } from './messages.js';
import { QuorumOKs } from './quorum-oks.js';
import { Reselection } from './reselect.js';
import type { SenderRoles } from './roles.js';
import type { HOutOfKSetting, HOutOfKSnapshot } from './types.js';

/** An answer (OK, cancel) to a request. */
type Answer = Extract<HOutOfKMessage, { type: 'OK' | 'cancel' }>;

const NONE = -1;

/**
 * One process of the h-out-of-k algorithm (Fig. 1, "Program for process p"); durable (issue 27:
 * `durableState()`, `recover()`, the format in `durable.ts`).
 */
export class HOutOfKCS extends CSObjectBase<number> implements DurableCSObject<number> {
  /** Number of units k. */
  readonly k: number;
  readonly #n: number;
  readonly #endpoint: Endpoint;
  readonly #arbiter: HKArbiter;
  /** Who may send what here (checked before anything else, `roles.ts`). */
  readonly #roles: SenderRoles;

  /** Fig. 1 `c`: the Lamport clock. */
  #c = 0;

  // requester (Fig. 1: h, In, Q, K)
  /** Fig. 1 `h`: units of the current request (0 when none). */
  #h = 0;
  /** Fig. 1 `In`. */
  #In = false;
  /** Fig. 1 `Q` and `K` of the current request (`quorum-oks.ts`). */
  readonly #QK: QuorumOKs;
  /** `seq` of the current request (−1: none). */
  #request = NONE;
  /** `c` the current request was sent with (its priority; sent again on a `probe`). */
  #requestC = 0;
  /** Requests made so far: the next request's `seq` (never raised by a received value). */
  #seq = 0;
  /** The waiting `entry(h)`. */
  readonly #call: PendingCall;
  /** Recovered with a waiting request and no caller (a crash cut its `entry()`): `recover()` withdraws it. */
  #orphan = false;
  /** Recovered InCS (the crashed application's CS): `recover()` leaves it by the exit. */
  #recoveredInCS = false;

  /** The arbiter role (Fig. 1: `x`, `Que`, `Quelength`; `arbiter.ts`). */
  readonly #arb: HOutOfKArbiter;
  /** Fencing tokens and time-bounded grants, requester side (issue 28, `fence.ts`); absent: neither. */
  readonly #fence: Fence | undefined;
  /** Quorum reselection (issue 28 §4, `reselect.ts`), when on and a failure detector is given. */
  readonly #reselection: Reselection | undefined;

  /** @param restored a recovered state, checked by `parseHOutOfKDurable`: the object resumes there. */
  constructor(
    ctx: ProcessContext,
    setting: HOutOfKSetting,
    roles: SenderRoles,
    Arbiter: ArbiterClass = HOutOfKArbiter,
    restored?: HOutOfKDurableState,
  ) {
    super(ctx.id, restored?.state ?? 'OutCS', { takesRequest: true });
    this.#call = new PendingCall(PendingCall.messages('hOutOfK', ctx.id, 'entry'));
    this.#QK = new QuorumOKs(ctx.n);
    this.k = setting.k;
    this.#n = ctx.n;
    this.#arbiter = setting.arbiter;
    this.#endpoint = ctx.endpoint;
    this.#roles = roles;
    const send = (to: ProcessId, msg: HOutOfKMessage) => this.#endpoint.send(to, msg);
    const stamp = () => this.#c;
    const fence = setting.fence && { ...setting.fence, clock: ctx.clock };
    this.#arb = new Arbiter(ctx.n, setting.k, setting.priority, send, stamp, fence);
    const [holds, enter] = [(r: ProcessId) => this.#QK.has(r), () => this.#enter()];
    this.#fence = Fence.of(fence, { id: ctx.id, stamp, send, holds, enter });
    this.#reselection = Reselection.of(setting.reselect === true, setting.arbiter, ctx, () =>
      this.#reselect(),
    );
    if (restored !== undefined) this.#restore(restored);
    this.listen(hOutOfKProtocol(setting.k), ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
  }

  /** Units this process holds: `h` while InCS, else 0. */
  get units(): number {
    return this.state === 'InCS' ? this.#h : 0;
  }

  /**
   * The current CS's fencing token and deadline while InCS (issue 28, `fence.ts`; `hasTenure` of
   * `@critsec/core`), when built with `fencing` or a `ttl`; `undefined` otherwise.
   */
  tenure(): Tenure | undefined {
    return this.#fence?.tenure();
  }

  /** Every protocol variable of Fig. 1 (JSON-serializable; for exploration and debugging). */
  inspect(): HOutOfKSnapshot {
    const [request, seq, h, In] = [this.#request, this.#seq, this.#h, this.#In];
    const [waiting, K] = [this.#waiting, this.#QK.K];
    return { c: this.#c, requester: { request, seq, h, In, waiting, K }, arbiter: this.#arb.snapshot() };
  }

  /** Every protocol variable of both roles as JSON (see {@link HOutOfKDurableState}). */
  durableState(): HOutOfKDurableState {
    const { request, seq, h, waiting, K } = this.inspect().requester;
    const [Q, gaveBack] = [[...this.#QK.Q], this.#QK.givenBack];
    const requester = { request, seq, h, c: this.#requestC, Q, waiting, K: [...K], gaveBack };
    const head = { format: H_OUT_OF_K_DURABLE_FORMAT, id: this.id, n: this.#n, k: this.k } as const;
    return { ...head, state: this.state, c: this.#c, requester, arbiter: this.#arb.durable() };
  }

  /**
   * Completes a recovery (issue 27): a recovered waiting request is withdrawn as an aborted entry
   * is (`release` to every `r ∈ Q`: every unit granted or in flight comes back); a recovered CS is
   * left by the exit (`release` to every `r ∈ Q`). Resolves once OutCS; at once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  async recover(): Promise<void> {
    if (this.pending !== null) {
      throw new CSMICError(`hOutOfK: recover() called on P${this.id} while ${this.pending}() is in flight`);
    }
    if (this.#orphan) this.#withdraw();
    else if (this.#recoveredInCS && this.state === 'InCS') await this.exit();
  }

  /** True while a request waits for OKs: `entry` in flight, or a recovered request until `recover()`. */
  get #waiting(): boolean {
    return this.#call.waiting || this.#orphan;
  }

  /** Resumes the clock and the requester where a recovered state left it (the arbiter: `restore`). */
  #restore(s: HOutOfKDurableState): void {
    const r = s.requester;
    [this.#c, this.#request, this.#seq, this.#h, this.#requestC] = [s.c, r.request, r.seq, r.h, r.c];
    this.#In = this.#recoveredInCS = s.state === 'InCS';
    this.#orphan = r.waiting;
    this.#QK.restore(r.Q, r.K, r.gaveBack);
    this.#arb.restore(s.arbiter);
  }

  // ---------------------------------------------------------------- requester

  protected doEntry(h: number, signal: AbortSignal | undefined): Promise<void> {
    if (!Number.isSafeInteger(h) || h < 1 || h > this.k) {
      throw new ConfigurationError(
        `hOutOfK: entry(h) needs an integer h with 1 ≤ h ≤ k = ${this.k}, got h = ${String(h)}`,
      );
    }
    if (this.#orphan) this.#withdraw(); // entry() before recover(): the recovered request goes first
    this.#c = tick(this.#c);
    [this.#h, this.#requestC] = [h, this.#c];
    this.#call.begin();
    this.#ask(this.#reselection?.choose(h) ?? this.#arbiter.quorumOf(this.id, h)); // S1 of reselect.ts
    return this.#call.wait(signal, () => this.#withdraw());
  }

  /** "send request(h, p, c) to every r ∈ Q" under a new tag (`seq`): an entry, or S2's retry. */
  #ask(Q: readonly ProcessId[]): void {
    this.#QK.set(Q);
    const [h, c, seq] = [this.#h, this.#requestC, this.#seq++];
    this.#request = seq;
    for (const r of Q) this.#endpoint.send(r, { type: 'request', h, c, seq });
    this.#fence?.begin(seq, Q); // F5–F6: a fresh confirmation with the quorum asked
  }

  /** S2 (`reselect.ts`): a waiting request whose quorum holds a suspect retries on one avoiding them. */
  #reselect(): void {
    const to = this.#call.waiting ? this.#reselection?.retryOn(this.#QK.Q, this.#h) : undefined;
    if (to === undefined) return;
    const [seq, Q] = [this.#request, this.#QK.Q];
    for (const r of Q) this.#endpoint.send(r, { type: 'release', seq, ts: this.#c }); // the attempt withdrawn
    this.#ask(to); // S3: the same h and c, so the same priority
  }

  protected async doExit(): Promise<void> {
    const seq = this.#request;
    const Q = this.#QK.Q;
    [this.#In, this.#recoveredInCS] = [false, false];
    this.#fence?.end();
    this.#forget();
    this.setState('OutCS');
    for (const r of Q) this.#endpoint.send(r, { type: 'release', seq, ts: this.#c });
  }

  protected doClose(): void {
    this.#reselection?.close();
    this.#call.close();
    this.#fence?.end();
    this.#arb.close();
  }

  /** Abort of a waiting entry: `release` to every `r ∈ Q` gives back every unit granted or in flight. */
  #withdraw(): void {
    const seq = this.#request;
    const Q = this.#QK.Q;
    this.#orphan = false;
    this.#fence?.end();
    this.#forget();
    if (!this.closed) for (const r of Q) this.#endpoint.send(r, { type: 'release', seq, ts: this.#c });
  }

  #forget(): void {
    this.#QK.set([]);
    [this.#request, this.#h, this.#requestC] = [NONE, 0, 0];
  }

  /** True when `msg` from `r` belongs to the request this process waits for (`r ∈ Q`: checked by the dispatch). */
  #current(r: ProcessId, msg: Answer): boolean {
    if (!this.#waiting || msg.seq !== this.#request) {
      if (msg.seq >= this.#seq) this.#releaseUnused(r, msg.seq);
      else reach('h-out-of-k:stale-ignored');
      return false;
    }
    return true;
  }

  /**
   * `probe(seq)` from arbiter `r` (issue 27 §3): `release` it unless it is the current request;
   * for the current one, while waiting without r's OK, the request again (r may have ended it on a
   * `release` p never sent — `arbiter.ts`, "a release before the OK").
   */
  #onProbe(r: ProcessId, seq: number): void {
    if (seq !== this.#request) {
      this.#releaseUnused(r, seq);
      return;
    }
    if (!this.#waiting || this.#QK.has(r)) {
      reach('h-out-of-k:probe-current');
      return;
    }
    reach('h-out-of-k:request-again');
    this.#endpoint.send(r, { type: 'request', h: this.#h, c: this.#requestC, seq });
  }

  /** Arbiter `r` holds an entry for request `seq`, which this process is not using: end it. */
  #releaseUnused(r: ProcessId, seq: number): void {
    reach('h-out-of-k:unused-released');
    this.#endpoint.send(r, { type: 'release', seq, ts: this.#c });
  }

  /** Fig. 1 "When OK is arrived from p'". */
  #onOK(r: ProcessId, msg: Extract<Answer, { type: 'OK' }>): void {
    if (!this.#current(r, msg) || this.#QK.has(r)) return;
    if (this.#QK.gaveBack(r)) reach('h-out-of-k:ok-after-cancelled');
    this.#fence?.ok(r, msg.hs ?? 0);
    if (!this.#QK.add(r) || this.#orphan) return; // wait for another OK (or recover())
    if (this.#fence === undefined) this.#enter();
    else this.#fence.allOK(); // F2: confirm the token first
  }

  /** `In := true` (Fig. 1, `K = Q`; with fencing, once the token is confirmed: F2). */
  #enter(): void {
    this.#In = true;
    this.#call.resolve(() => this.setState('InCS'));
  }

  /** F4 (`fence.ts`): `expired(seq)` from `r ∈ Q` — InCS ignored; waiting, the request goes to r again. */
  #onExpired(r: ProcessId, seq: number): void {
    if (seq !== this.#request || !this.#waiting) {
      reach(seq === this.#request && this.#In ? 'h-out-of-k:expired-in-cs' : 'h-out-of-k:stale-ignored');
      return;
    }
    reach('h-out-of-k:expired-request-again');
    this.#QK.remove(r, false);
    this.#fence?.lost();
    this.#endpoint.send(r, { type: 'request', h: this.#h, c: this.#requestC, seq });
  }

  /** Fig. 1 "When cancel is arrived from p'": answered only while waiting (In = false, p' ∈ K). */
  #onCancel(r: ProcessId, msg: Answer): void {
    if (msg.seq === this.#request && this.#In) {
      reach('h-out-of-k:cancel-after-entry');
      return;
    }
    if (!this.#current(r, msg) || !this.#QK.has(r)) return;
    reach('h-out-of-k:cancelled');
    this.#QK.remove(r, true);
    this.#fence?.lost(); // F2: while confirming, a cancel is answered as while waiting
    this.#endpoint.send(r, { type: 'cancelled', seq: msg.seq, ts: this.#c });
  }

  // ---------------------------------------------------------------- dispatch

  #onMessage(from: ProcessId, msg: HOutOfKMessage): void {
    // The sender first: a message no honest process sends here is reported and dropped before it
    // touches anything, the clock included — a forged c/ts must not move c.
    const refusal = this.#roles.refusal(from, msg, {
      request: this.#request,
      inQ: this.#QK.inQ,
      Q: this.#QK.Q,
    });
    if (refusal !== undefined) {
      this.reportError(new ProtocolError(`hOutOfK: P${this.id} got ${refusal}`, { from }));
      return;
    }
    // Sec. 4.1: c_p := max(c_p, c_m) + 1 on every receipt from a legitimate sender (saturating)
    this.#c = tick(witness(this.#c, msg.type === 'request' ? msg.c : msg.ts));
    switch (msg.type) {
      case 'request':
        this.#arb.onRequest(from, msg.h, msg.c, msg.seq);
        return;
      case 'release':
        this.#arb.onRelease(from, msg.seq, msg.ts);
        return;
      case 'cancelled':
        this.#arb.onCancelled(from, msg.seq);
        return;
      case 'OK':
        this.#onOK(from, msg);
        return;
      case 'cancel':
        this.#onCancel(from, msg);
        return;
      case 'probe':
        this.#onProbe(from, msg.seq);
        return;
      case 'confirm':
        this.#arb.onConfirm(from, msg.seq, msg.token, msg.round);
        return;
      case 'confirmed':
        if (msg.seq === this.#request) this.#fence?.confirmed(from, msg.round);
        return;
      case 'expired':
        this.#onExpired(from, msg.seq);
    }
  }
}
