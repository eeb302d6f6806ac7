/**
 * Fencing tokens and time-bounded grants for Maekawa_M's requester (issue 28 §1–2; not in Joung
 * 2003 — a deviation listed in the package README). Used only when `groupMutex()` is built with
 * `fencing: true` or a `ttl`; the node's side is G5–G6 of `maekawa-m-node.ts`. The rules follow
 * F1–F4 of `@critsec/mutex`'s `maekawa-fence.ts`, with a quorum that depends on the group:
 *
 * G1 Every node keeps `hs`, the highest fencing token it has seen (durable), and gives its lock
 *    with FENCE_LOCKED(req, hs). The requester remembers the `hs` of each lock it holds.
 * G2 Holding every lock of its quorum Q (C.4), the requester does not enter yet: it proposes
 *    `token = max(hs) + 1` with CONFIRM(req, token, round) to the whole of Q. A node accepts
 *    only while p's lock is current (`hs := max(hs, token)`, durably; CONFIRMED(round)). The
 *    token saturates at `CLOCK_MAX`. The entry completes once every node of Q accepted (and,
 *    with a TTL, while the deadline below lies ahead). Meanwhile p is still trying (Fig. 5,
 *    state = trying): an INQUIRE makes it yield (B.4) as in the paper, the lock is lost and the
 *    confirmation starts again with a new token once Q is locked again — so the paper's
 *    liveness argument is unchanged (a confirmation is only a slower LOCKED).
 * G3 With a TTL (in the clock's unit): every `ttl / 3` the requester renews — CONFIRM(req,
 *    token, round) to the whole of Q while confirming or InCS, CONFIRM(req, 0, round) (a
 *    keep-alive, raising no `hs`) to the nodes whose locks it holds while waiting. Its
 *    **deadline** is `sent(m) + ttl − margin`, where `m` is the latest round every node of Q has
 *    confirmed and `sent(m)` the time this process sent it: each node restarted the lock's TTL
 *    when it received round `m` or a later one, after `sent(m)`, so none reclaims before
 *    `sent(m) + ttl` on its own clock; the margin covers the clocks' rates (≥ 2ρ·ttl).
 * G4 EXPIRED(req) from node i (its TTL passed; i dropped the request): while trying, the lock
 *    is forgotten, the confirmation restarts, and REQUEST(req, g) goes again to i alone — same
 *    request number, same priority ⟨p, t⟩. InCS it is ignored: the deadline has passed already
 *    (`tenure().check()` throws).
 *
 * Why tokens of conflicting holders increase (proof in the README): two completed entries of
 * different groups use quorums that intersect (Def. 1 of the paper) at some node `a`, whose locks
 * are never given to two groups at once; the earlier one's token was accepted by `a` while its
 * lock was current, so `a` told the later one `hs ≥` that token.
 */
import { type ProcessId, type ProtocolClock, type Tenure, TenureExpiredError } from '@critsec/core';
import { tick } from '@critsec/transport';
import type { MaekawaMMessage } from './protocol-m.js';

/** What the fence needs of its process. @internal */
export interface FenceHost {
  /** This process. */
  readonly id: ProcessId;
  /** The process's clock (required with a TTL). */
  readonly clock: ProtocolClock | undefined;
  /** Lock TTL in the clock's unit, or `undefined` (fencing only: no deadline). */
  readonly ttl: number | undefined;
  /** Drift margin in the clock's unit (see G3). */
  readonly margin: number;
  /** The Lamport clock, read when a message is stamped. */
  readonly sn: () => number;
  /** Sends one message. */
  readonly send: (to: ProcessId, msg: MaekawaMMessage) => void;
  /** The nodes whose lock is held now (`locked_nodes`). */
  readonly held: () => Iterable<ProcessId>;
  /** Every CONFIRM of the entry accepted, deadline ahead: enter the CS. */
  readonly enter: () => void;
}

/** The fence options: a TTL (or none: fencing only) and its drift margin, in the clock's unit. @internal */
export interface FenceOptions {
  readonly ttl: number | undefined;
  readonly margin: number;
}

const IDLE = 0;
const WAITING = 1;
const CONFIRMING = 2;
const HELD = 3;

/** The requester's side of fencing and TTLs (G1–G4) for one Maekawa_M process. @internal */
export class GroupFence {
  readonly #h: FenceHost;
  /** `hs` reported by each node of Q with its current lock. */
  readonly #hs = new Map<ProcessId, number>();
  /** Latest round each node of Q confirmed in this confirmation. */
  readonly #acked = new Map<ProcessId, number>();
  /** Send time of each round not yet confirmed by every node. */
  readonly #sent = new Map<number, number>();
  #Q: readonly ProcessId[] = [];
  #phase = IDLE;
  #req = 0;
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

  /** The current CS's tenure, while InCS. */
  tenure(): Tenure | undefined {
    return this.#phase === HELD ? this.#tenure : undefined;
  }

  /** A.7: request `req` to the quorum `Q`. */
  begin(req: number, Q: readonly ProcessId[]): void {
    this.end();
    this.#req = req;
    this.#Q = Q;
    this.#hs.clear();
    this.#phase = WAITING;
    this.#armRenewal();
  }

  /** G1: the lock of node `i` with its `hs`. */
  locked(i: ProcessId, hs: number): void {
    this.#hs.set(i, hs);
  }

  /** G2: every lock of Q is held: propose max(hs) + 1. */
  allLocked(): void {
    let max = 0;
    for (const i of this.#Q) max = Math.max(max, this.#hs.get(i) ?? 0);
    this.#token = tick(max); // saturating: only a forged hs reaches CLOCK_MAX
    this.#phase = CONFIRMING;
    this.#acked.clear();
    this.#from = this.#round + 1;
    this.#confirmRound();
  }

  /** G2/G4: a lock of Q was lost while trying (yielded to an INQUIRE, or EXPIRED). */
  lost(): void {
    if (this.#phase === CONFIRMING) this.#phase = WAITING;
  }

  /** CONFIRMED(round) from node `i` for the current request. */
  confirmed(i: ProcessId, round: number): void {
    if (this.#phase !== CONFIRMING && this.#phase !== HELD) return;
    if (round < this.#from || round <= (this.#acked.get(i) ?? -1)) return;
    this.#acked.set(i, round);
    if (this.#acked.size < this.#Q.length) return;
    let m = Number.POSITIVE_INFINITY;
    for (const a of this.#acked.values()) m = Math.min(m, a);
    const sent = this.#sent.get(m)!;
    for (const r of this.#sent.keys()) if (r <= m) this.#sent.delete(r);
    const ttl = this.#h.ttl;
    const deadline = ttl === undefined ? Number.POSITIVE_INFINITY : sent + ttl - this.#h.margin;
    if (deadline <= this.#deadline) return;
    this.#deadline = deadline;
    if (this.#phase === CONFIRMING) {
      if (ttl !== undefined && deadline <= this.#h.clock!.now()) return; // G3: too late; a later round may do
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
    this.#deadline = Number.NEGATIVE_INFINITY;
    this.#sent.clear();
    this.#acked.clear();
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
          `Maekawa_M: P${id}'s tenure with token ${token} may have expired (${-l} past its deadline, or exited); its nodes may have locked for another group`,
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
        new TenureExpiredError(
          `Maekawa_M: P${this.#h.id}'s tenure with token ${token} reached its deadline`,
          {
            token,
            overdue,
          },
        ),
      );
    });
  }

  /** G3: the renewal loop (with a TTL only). */
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

  /** CONFIRM(req, token, round) to the whole quorum. */
  #confirmRound(): void {
    const round = ++this.#round;
    this.#sent.set(round, this.#h.clock?.now() ?? 0);
    const msg: MaekawaMMessage = {
      type: 'CONFIRM',
      req: this.#req,
      ts: this.#h.sn(),
      token: this.#token,
      round,
    };
    Object.freeze(msg);
    for (const i of this.#Q) this.#h.send(i, msg);
  }

  /** G3: a keep-alive (token 0) to each node whose lock is held while waiting. */
  #keepAlive(): void {
    const round = ++this.#round;
    const msg: MaekawaMMessage = { type: 'CONFIRM', req: this.#req, ts: this.#h.sn(), token: 0, round };
    Object.freeze(msg);
    for (const i of this.#h.held()) this.#h.send(i, msg);
  }
}
