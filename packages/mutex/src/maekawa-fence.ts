/**
 * Fencing tokens and time-bounded grants for Maekawa's requester (issue 28 §1–2; not in the
 * papers — a deviation listed in the package README). Used only when `maekawa()` is built with
 * `fencing: true` or a `ttl`; the arbiter's side is A5–A6 of `maekawa-arbiter.ts`.
 *
 * F1 Every arbiter keeps `hs`, the highest fencing token it has seen (durable), and grants with
 *    FENCE_LOCKED(r, hs). The requester remembers the `hs` of each lock it holds.
 * F2 Holding every lock of `Q_i` (R2), the requester does not enter yet: it proposes
 *    `token = max(hs) + 1` with CONFIRM(r, token, round) to the whole quorum. An arbiter accepts
 *    only while that grant is current (`hs := max(hs, token)`, durably; CONFIRMED(round)). The
 *    token saturates at `CLOCK_MAX` (2^53 − 1, what a message may carry): no honest cluster gets
 *    there (one entry raises it by one), but a forged `hs` = `CLOCK_MAX` must not make this
 *    process send an invalid CONFIRM; past it tokens stop increasing (issue 15's rule). The
 *    entry completes once every arbiter of `Q_i` accepted (and, with a TTL, while the deadline
 *    below lies ahead). Meanwhile an INQUIRE is deferred by R4 (holding every lock, the requester
 *    has no failed / yielded mark): it waits only for arbiters whose locks it holds, so the
 *    deadlock argument of `maekawa.ts` is unchanged, and should a lock be reclaimed (F4) the
 *    deferred INQUIRE is still answered by R3 — ignoring it instead deadlocked the tenure run
 *    (seed 592: the reclaimed requester kept a lock its higher-priority rival waited for).
 * F3 With a TTL (in the clock's unit): every `ttl / 3` the requester renews — CONFIRM(r, token,
 *    round) to the whole quorum while confirming or InCS, CONFIRM(r, 0, round) (a keep-alive,
 *    raising no `hs`) to the arbiters whose locks it holds while waiting. Its **deadline** is
 *    `sent(m) + ttl − margin`, where `m` is the latest round every arbiter of `Q_i` has
 *    confirmed (the smallest of their latest confirmed rounds) and `sent(m)` the time this
 *    process sent it: each arbiter restarted the grant's TTL when it received round `m` or a
 *    later one, after `sent(m)`, so none reclaims before `sent(m) + ttl` on its own clock; the
 *    margin covers the rates of the two clocks (margin ≥ 2ρ·ttl for a relative rate error ρ).
 * F4 EXPIRED(r) from `Q_i[x]` (its TTL passed): while waiting or confirming, the lock (or its
 *    failed / yielded mark) is forgotten, the confirmation restarts, and REQUEST(r) goes again
 *    to `Q_i[x]` alone — same tag, same priority. InCS it is ignored: the deadline has passed
 *    already (`tenure().check()` throws).
 *
 * With quorum reselection (S1–S4 of `maekawa-reselect.ts`; issue 28 §4) the quorum is the one
 * the current attempt asks, `A` (`Q_i` while nobody is suspected), and these rules add to F1–F4:
 *
 * F5 Every step of F2–F3 runs over `A`, never over `Q_i`: the token is `max(hs) + 1` over the
 *    FENCE_LOCKED of `A`'s arbiters, CONFIRM goes to `A`, and the deadline's round `m` is the
 *    smallest latest round confirmed by `A`'s arbiters. The marks and rounds are indexed over
 *    every process (any quorum of the family, ≤ n members: `everyone` of S4).
 * F6 A retry (S2, while waiting or confirming) starts a fresh confirmation under its new tag (the
 *    `hs` told, the rounds acknowledged and the renewals of the old attempt are dropped, as at a
 *    new request, R1): a CONFIRMED or EXPIRED of the old attempt names the old tag and is stale
 *    (R7's `#current`), so it never counts for the retry — and an arbiter of the old attempt that
 *    accepted its CONFIRM only raised its `hs`, which is harmless.
 * F7 A holder never reselects (S2 runs only while waiting): InCS its renewals go to `A`, the quorum
 *    it entered with, until its exit. An arbiter of `A` that dies or is cut off stops confirming,
 *    so the holder's deadline stops moving and its tenure ends at most `ttl − margin` after its
 *    last renewal that whole `A` confirmed: exactly when that arbiter may have reclaimed the grant
 *    (A6) and granted another quorum.
 *
 * Monotonicity (proof in the README): two completed entries whose quorums share an arbiter `a`
 * were granted by `a` one after the other; the first one's token was accepted by `a` while its
 * grant was current, so `a` told the second `hs ≥` that token: the second token is larger. Under
 * reselection the two quorums may be any two `quorumAvoiding` can return; they intersect (S4's
 * family), so the argument is the same (F5: each entry confirmed with the whole quorum it asked).
 */
import { type ProcessId, type ProtocolClock, type Tenure, TenureExpiredError } from '@critsec/core';
import { tick } from '@critsec/transport';
import type { MaekawaMessage } from './maekawa-protocol.js';

/** What the fence needs of its process. */
export interface FenceHost {
  /** This process. */
  readonly id: ProcessId;
  /** `Q_i`, or every process under reselection (S4): the index space of the marks. */
  readonly quorum: readonly ProcessId[];
  /** F5: the indices in {@link quorum} of the quorum the current attempt asks. */
  readonly asked: () => readonly number[];
  /** The process's clock (required with a TTL). */
  readonly clock: ProtocolClock | undefined;
  /** Grant TTL in the clock's unit, or `undefined` (fencing only: no deadline). */
  readonly ttl: number | undefined;
  /** Drift margin in the clock's unit (see F3). */
  readonly margin: number;
  /** The Lamport clock, read when a message is stamped. */
  readonly sn: () => number;
  /** Sends one message. */
  readonly send: (to: ProcessId, msg: MaekawaMessage) => void;
  /** True when the lock of `Q_i[x]` is held. */
  readonly holds: (x: number) => boolean;
  /** Every CONFIRM of the entry accepted, deadline ahead: enter the CS. */
  readonly enter: () => void;
}

const IDLE = 0;
const WAITING = 1;
const CONFIRMING = 2;
const HELD = 3;

/** The requester's side of fencing and TTLs (F1–F4) for one process. */
export class MaekawaFence {
  readonly #h: FenceHost;
  /** `hs` reported by each arbiter of `Q_i` with its current lock. */
  readonly #hs: Float64Array;
  /** Latest round each arbiter of `Q_i` confirmed in this confirmation (−1: none yet). */
  readonly #acked: Float64Array;
  /** Send time of each round not yet confirmed by every arbiter. */
  readonly #sent = new Map<number, number>();
  #phase = IDLE;
  #req = -1;
  #token = 0;
  #round = 0;
  /** First round of the current confirmation: earlier rounds' acknowledgements do not count. */
  #from = 0;
  #deadline = Number.NEGATIVE_INFINITY;
  #renewTimer: (() => void) | undefined;
  #expiryTimer: (() => void) | undefined;
  #control = new AbortController();
  #tenure: Tenure | undefined;

  /** A fence for `options` (none when `undefined`: fencing is off). */
  static of(
    options: { readonly ttl: number | undefined; readonly margin: number } | undefined,
    host: Omit<FenceHost, 'ttl' | 'margin'>,
  ): MaekawaFence | undefined {
    return options === undefined ? undefined : new MaekawaFence({ ...host, ...options });
  }

  constructor(host: FenceHost) {
    this.#h = host;
    this.#hs = new Float64Array(host.quorum.length);
    this.#acked = new Float64Array(host.quorum.length).fill(-1);
  }

  /** The current CS's tenure, while InCS. */
  tenure(): Tenure | undefined {
    return this.#phase === HELD ? this.#tenure : undefined;
  }

  /** R1: a new request `req`, or a retry's (F6); or the initial holder's CS (`held`: token 0, no deadline). */
  begin(req: number, held = false): void {
    this.end();
    this.#req = req;
    this.#hs.fill(0);
    this.#phase = held ? HELD : WAITING;
    if (held) {
      this.#token = 0;
      this.#deadline = Number.POSITIVE_INFINITY;
      this.#newTenure();
    } else this.#armRenewal();
  }

  /** F1: the lock of `Q_i[x]` with its `hs`. */
  locked(x: number, hs: number): void {
    this.#hs[x] = hs;
  }

  /** F2: every lock of `Q_i` is held: propose max(hs) + 1. */
  allLocked(): void {
    let max = 0;
    for (const x of this.#h.asked()) if (this.#hs[x]! > max) max = this.#hs[x]!;
    this.#token = tick(max); // saturating: only a forged hs reaches CLOCK_MAX (see F2)
    this.#phase = CONFIRMING;
    this.#acked.fill(-1);
    this.#from = this.#round + 1;
    this.#confirmRound();
  }

  /** F4: the lock of `Q_i[x]` was lost (EXPIRED while waiting or confirming). */
  lost(): void {
    if (this.#phase === CONFIRMING) this.#phase = WAITING;
  }

  /** CONFIRMED(round) from `Q_i[x]` for the current request. */
  confirmed(x: number, round: number): void {
    if (this.#phase !== CONFIRMING && this.#phase !== HELD) return;
    if (round < this.#from || round <= this.#acked[x]!) return;
    this.#acked[x] = round;
    let m = Number.POSITIVE_INFINITY;
    for (const a of this.#h.asked()) if (this.#acked[a]! < m) m = this.#acked[a]!;
    if (m < this.#from) return;
    const sent = this.#sent.get(m);
    if (sent === undefined) return; // round m's deadline was taken already: an ack that moved no minimum
    for (const r of this.#sent.keys()) if (r <= m) this.#sent.delete(r);
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
    this.#phase = IDLE;
    this.#req = -1;
    this.#deadline = Number.NEGATIVE_INFINITY;
    this.#sent.clear();
  }

  #newTenure(): void {
    this.#control = new AbortController();
    const control = this.#control;
    const token = this.#token;
    const id = this.#h.id;
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
          `Maekawa: P${id}'s tenure with token ${token} may have expired (${-l} past its deadline, or exited); its arbiters may have granted another holder`,
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
    const control = this.#control;
    const token = this.#token;
    this.#expiryTimer = clock.setTimer(this.#deadline - clock.now(), () => {
      this.#expiryTimer = undefined;
      if (this.#phase !== HELD || control.signal.aborted) return;
      if (clock.now() < this.#deadline) {
        this.#armExpiry(); // moved by a renewal meanwhile
        return;
      }
      const overdue = clock.now() - this.#deadline;
      control.abort(
        new TenureExpiredError(`Maekawa: P${this.#h.id}'s tenure with token ${token} reached its deadline`, {
          token,
          overdue,
        }),
      );
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

  /** CONFIRM(req, token, round) to the whole quorum asked (F5). */
  #confirmRound(): void {
    const round = ++this.#round;
    this.#sent.set(round, this.#h.clock?.now() ?? 0);
    const msg: MaekawaMessage = {
      type: 'CONFIRM',
      req: this.#req,
      ts: this.#h.sn(),
      token: this.#token,
      round,
    };
    Object.freeze(msg);
    const q = this.#h.quorum;
    for (const x of this.#h.asked()) this.#h.send(q[x]!, msg);
  }

  /** F3: a keep-alive (token 0) to each arbiter whose lock is held while waiting. */
  #keepAlive(): void {
    const round = ++this.#round;
    const msg: MaekawaMessage = { type: 'CONFIRM', req: this.#req, ts: this.#h.sn(), token: 0, round };
    Object.freeze(msg);
    const q = this.#h.quorum;
    for (let x = 0; x < q.length; x++) if (this.#h.holds(x)) this.#h.send(q[x]!, msg);
  }
}
