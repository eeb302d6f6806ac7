/**
 * Fencing tokens and time-bounded grants for the requester role of h-out-of-k (issue 28 §1–2;
 * not in the paper — a deviation listed in the package README; the Maekawa version in
 * `@critsec/mutex` is the model, in names and guarantees). Used only when `hOutOfK()` is built
 * with `fencing: true` or a `ttl`; the arbiter's side is G1–G2 of `arbiter-fence.ts`. Internal
 * to `@critsec/h-out-of-k`.
 *
 * F1 Every arbiter keeps `hs`, the highest fencing token it has seen (durable), and its `OK`
 *    carries it. The requester remembers the `hs` of the latest OK of each arbiter of `Q`.
 * F2 Holding every OK of `Q` (Fig. 1's `K = Q`), the requester does not enter yet (`In` stays
 *    false): it proposes `token = max(hs) + 1` with `confirm(seq, token, round)` to the whole
 *    quorum; an arbiter accepts only while that OK is current (G1). The entry completes once every
 *    arbiter of `Q` accepted (and, with a TTL, while the deadline below lies ahead). Meanwhile a
 *    `cancel` is answered as Fig. 1 answers it for `In = false` — `cancelled`, the OK given back —
 *    and the confirmation starts again once `K = Q` again, with the new OK's `hs`: the requester
 *    waits only while it is a waiter of Fig. 1, so Theorems 5–6 (no deadlock, no starvation) are
 *    unchanged. The token saturates at `CLOCK_MAX` (only a forged `hs` gets there).
 * F3 With a TTL (in the clock's unit): every `ttl / 3` the requester renews — `confirm(seq,
 *    token, round)` to the whole quorum while confirming or InCS, `confirm(seq, 0, round)` (a
 *    keep-alive, raising no `hs`) to the arbiters whose OK it holds while waiting. Its
 *    **deadline** is `sent(m) + ttl − margin`, where `m` is the latest round every arbiter of `Q`
 *    has confirmed and `sent(m)` the time this process sent it: each arbiter restarted the OK's
 *    TTL when it received round `m` or a later one, after `sent(m)`, so none reclaims before
 *    `sent(m) + ttl` on its own clock; the margin covers the rates of the two clocks (margin ≥
 *    2ρ·ttl for a relative rate error ρ).
 * F4 `expired(seq)` from `r ∈ Q` (its TTL passed, G2): while waiting or confirming, r's OK is
 *    forgotten, the confirmation stops, and `request(h, c, seq)` goes again to `r` alone — same
 *    tag, same priority. InCS it is ignored: the deadline has passed already (`tenure().check()`
 *    throws), and the exit's `release` finds no entry.
 *
 * Order (proof in the README): two requests that cannot be InCS together (h + h' > k) have
 * quorums that share an arbiter `a` (Theorem 1: the pair is a critical conflicting pattern), where their units cannot be
 * taken together; the first one's token was accepted by `a` while its units were taken, so `a`
 * told the second `hs ≥` that token: the second token is larger.
 */
import { type ProcessId, type ProtocolClock, type Tenure, TenureExpiredError } from '@critsec/core';
import { tick } from '@critsec/transport';
import type { HOutOfKMessage } from './messages.js';

/** What the fence needs of its process. */
export interface FenceHost {
  /** This process. */
  readonly id: ProcessId;
  /** The process's clock (required with a TTL). */
  readonly clock: ProtocolClock | undefined;
  /** Grant TTL in the clock's unit, or `undefined` (fencing only: no deadline). */
  readonly ttl: number | undefined;
  /** Drift margin in the clock's unit (see F3). */
  readonly margin: number;
  /** The Lamport clock, read when a message is stamped. */
  readonly stamp: () => number;
  /** Sends one message. */
  readonly send: (to: ProcessId, msg: HOutOfKMessage) => void;
  /** True when the OK of `r` is held (`r ∈ K`). */
  readonly holds: (r: ProcessId) => boolean;
  /** Every `confirm` of the entry accepted, deadline ahead: enter the CS. */
  readonly enter: () => void;
}

/** The fence options of a factory: a TTL (or none: fencing only) and the drift margin. */
export interface FenceOptions {
  /** Grant TTL in the clock's unit, or `undefined` (fencing only). */
  readonly ttl: number | undefined;
  /** Drift margin in the clock's unit (F3). */
  readonly margin: number;
}

const IDLE = 0;
const WAITING = 1;
const CONFIRMING = 2;
const HELD = 3;

/** The requester's side of fencing and TTLs (F1–F4) for one process. */
export class Fence {
  readonly #h: FenceHost;
  /** `Q` of the current request. */
  #Q: readonly ProcessId[] = [];
  /** `hs` reported by the latest OK of each arbiter of `Q` (by position in `Q`). */
  #hs: number[] = [];
  /** Latest round each arbiter of `Q` confirmed in this confirmation (−1: none yet). */
  #acked: number[] = [];
  /** Send time of each round not yet confirmed by every arbiter. */
  readonly #sent = new Map<number, number>();
  #phase = IDLE;
  #seq = -1;
  #token = 0;
  #round = 0;
  /** First round of the current confirmation: earlier rounds' acknowledgements do not count. */
  #from = 0;
  #deadline = Number.NEGATIVE_INFINITY;
  #renewTimer: (() => void) | undefined;
  #expiryTimer: (() => void) | undefined;
  #control = new AbortController();
  #tenure: Tenure | undefined;

  constructor(host: FenceHost) {
    this.#h = host;
  }

  /** A fence for `options` (none when `undefined`: fencing is off). */
  static of(
    options: (FenceOptions & { readonly clock: ProtocolClock | undefined }) | undefined,
    host: Omit<FenceHost, 'ttl' | 'margin' | 'clock'>,
  ): Fence | undefined {
    return options === undefined ? undefined : new Fence({ ...host, ...options });
  }

  /** The current CS's tenure, while InCS. */
  tenure(): Tenure | undefined {
    return this.#phase === HELD ? this.#tenure : undefined;
  }

  /** True while confirming (F2): every OK held, the entry not complete. */
  get confirming(): boolean {
    return this.#phase === CONFIRMING;
  }

  /** A new request `seq` to the arbiters of `Q`. */
  begin(seq: number, Q: readonly ProcessId[]): void {
    this.end();
    [this.#seq, this.#Q, this.#phase] = [seq, Q, WAITING];
    this.#hs = Q.map(() => 0);
    this.#acked = Q.map(() => -1);
    this.#armRenewal();
  }

  /** F1: the OK of `r` with its `hs`. */
  ok(r: ProcessId, hs: number): void {
    const x = this.#Q.indexOf(r);
    if (x >= 0) this.#hs[x] = hs;
  }

  /** F2: every OK of `Q` is held: propose max(hs) + 1. */
  allOK(): void {
    if (this.#phase !== WAITING) return;
    this.#token = tick(Math.max(0, ...this.#hs)); // saturating: only a forged hs reaches CLOCK_MAX
    this.#phase = CONFIRMING;
    this.#acked.fill(-1);
    this.#from = this.#round + 1;
    this.#confirmRound();
  }

  /** F2, F4: an OK was given back (`cancelled`) or reclaimed (`expired`) while waiting or confirming. */
  lost(): void {
    if (this.#phase === CONFIRMING) this.#phase = WAITING;
  }

  /** `confirmed(seq, round)` from `r` for the current request. */
  confirmed(r: ProcessId, round: number): void {
    const x = this.#Q.indexOf(r);
    if ((this.#phase !== CONFIRMING && this.#phase !== HELD) || x < 0) return;
    if (round < this.#from || round <= this.#acked[x]!) return;
    this.#acked[x] = round;
    const m = Math.min(...this.#acked);
    if (m < this.#from) return;
    const sent = this.#sent.get(m)!;
    for (const k of this.#sent.keys()) if (k <= m) this.#sent.delete(k);
    const ttl = this.#h.ttl;
    const deadline = ttl === undefined ? Number.POSITIVE_INFINITY : sent + ttl - this.#h.margin;
    if (deadline <= this.#deadline) return;
    this.#deadline = deadline;
    if (this.#phase === CONFIRMING) {
      if (ttl !== undefined && deadline <= this.#h.clock!.now()) return; // F3: too late; the next round may do
      this.#phase = HELD;
      this.#newTenure();
      this.#h.enter();
    } else this.#armExpiry();
  }

  /** Exit, abort, withdrawal or close: stop every timer; the tenure ends. */
  end(): void {
    this.#renewTimer?.();
    this.#expiryTimer?.();
    this.#renewTimer = this.#expiryTimer = undefined;
    [this.#phase, this.#seq, this.#deadline] = [IDLE, -1, Number.NEGATIVE_INFINITY];
    this.#sent.clear();
  }

  #newTenure(): void {
    this.#control = new AbortController();
    const [control, token, id] = [this.#control, this.#token, this.#h.id];
    const left = (t: Tenure): number =>
      this.#tenure !== t || this.#phase !== HELD ? 0 : this.#deadline - (this.#h.clock?.now() ?? 0);
    const tenure: Tenure = {
      token,
      signal: control.signal,
      remaining: () => left(tenure),
      check: () => {
        const l = left(tenure);
        if (l > 0) return;
        throw new TenureExpiredError(
          `hOutOfK: P${id}'s tenure with token ${token} may have expired (${-l} past its deadline, or exited); its arbiters may have granted its units to another holder`,
          { token, overdue: -l },
        );
      },
    };
    this.#tenure = tenure;
    this.#armExpiry();
  }

  /** Arms the signal at the deadline (again when a renewal moved it). */
  #armExpiry(): void {
    this.#expiryTimer?.();
    this.#expiryTimer = undefined;
    const clock = this.#h.clock;
    if (clock === undefined || !Number.isFinite(this.#deadline)) return;
    const [control, token] = [this.#control, this.#token];
    this.#expiryTimer = clock.setTimer(this.#deadline - clock.now(), () => {
      this.#expiryTimer = undefined;
      if (this.#phase !== HELD || control.signal.aborted) return;
      if (clock.now() < this.#deadline) {
        this.#armExpiry(); // moved by a renewal meanwhile
        return;
      }
      const overdue = clock.now() - this.#deadline;
      const reason = `hOutOfK: P${this.#h.id}'s tenure with token ${token} reached its deadline`;
      control.abort(new TenureExpiredError(reason, { token, overdue }));
    });
  }

  /** F3: the renewal loop (with a TTL only). */
  #armRenewal(): void {
    const { clock, ttl } = this.#h;
    if (clock === undefined || ttl === undefined) return;
    this.#renewTimer = clock.setTimer(ttl / 3, () => {
      this.#renewTimer = undefined;
      if (this.#phase === IDLE) return;
      if (this.#phase === WAITING) this.#keepAlive();
      else this.#confirmRound();
      this.#armRenewal();
    });
  }

  /** `confirm(seq, token, round)` to the whole quorum. */
  #confirmRound(): void {
    const round = ++this.#round;
    this.#sent.set(round, this.#h.clock?.now() ?? 0);
    const msg = { type: 'confirm', seq: this.#seq, ts: this.#h.stamp(), token: this.#token, round } as const;
    for (const r of this.#Q) this.#h.send(r, msg);
  }

  /** F3: a keep-alive (token 0) to each arbiter whose OK is held while waiting. */
  #keepAlive(): void {
    const round = ++this.#round;
    const msg = { type: 'confirm', seq: this.#seq, ts: this.#h.stamp(), token: 0, round } as const;
    for (const r of this.#Q) if (this.#h.holds(r)) this.#h.send(r, msg);
  }
}
