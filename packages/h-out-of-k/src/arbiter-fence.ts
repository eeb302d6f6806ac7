/**
 * Fencing tokens and time-bounded grants for the arbiter role of h-out-of-k (issue 28 §1–2; not
 * in the paper — a deviation listed in the package README). Used only when `hOutOfK()` is built
 * with `fencing: true` or a `ttl`; the requester's side is F1–F4 of `fence.ts`. Internal to
 * `@critsec/h-out-of-k`.
 *
 * G1 The arbiter keeps `hs`, the highest fencing token it has seen (durable), and every `OK` it
 *    sends carries it. On `confirm(seq, t, round)` from `p` whose entry in `Que` is request `seq`
 *    and holds units (status ok or cancel: the OK is current), `hs := max(hs, t)` and it answers
 *    `confirmed(seq, round)`; a `confirm` for an entry without units, or another request, is
 *    ignored.
 * G2 With a TTL (the clock's unit), each entry holding units has a timer of `ttl`, started when
 *    its OK is sent and restarted by every accepted `confirm`; stopped when its units come back
 *    (`release`, `cancelled`). When it fires the OK is **reclaimed**: `expired(seq)` to `p`, the
 *    entry leaves `Que`, its units return to `x` and `NewChance` runs, as on a `release` — but
 *    `done(p)` is not raised, so `p`'s same request, sent again (F4), is admitted as new. A
 *    waiter that never answers, a crashed or paused holder, a holder cut off by a partition: all
 *    lose their units after `ttl` without renewal. A restarted arbiter restarts the timer of every
 *    entry holding units it recovered (never shorter than before).
 */
import type { ProcessId, ProtocolClock } from '@critsec/core';

/** The options of {@link ArbiterFence}: a TTL and the clock it runs on, or none (fencing only). */
export interface ArbiterFenceOptions {
  /** Grant TTL in the clock's unit, or `undefined` (fencing only: grants never expire). */
  readonly ttl: number | undefined;
  /** The process's clock (required with a TTL). */
  readonly clock: ProtocolClock | undefined;
}

/** The arbiter's `hs` and the TTL timers of its entries holding units (G1–G2). */
export class ArbiterFence {
  /** G1: the highest fencing token seen (durable). */
  hs = 0;
  readonly #ttl: number | undefined;
  readonly #clock: ProtocolClock | undefined;
  /** G2: what runs when `p`'s OK for `seq` expires. */
  readonly #expire: (p: ProcessId, seq: number) => void;
  /** G2: the cancel function of each entry's timer, by process. */
  readonly #timers = new Map<ProcessId, () => void>();

  constructor(options: ArbiterFenceOptions, expire: (p: ProcessId, seq: number) => void) {
    [this.#ttl, this.#clock] =
      options.ttl === undefined ? [undefined, undefined] : [options.ttl, options.clock];
    this.#expire = expire;
  }

  /** G2: `p`'s entry (request `seq`) holds units from now: (re)start its timer. */
  arm(p: ProcessId, seq: number): void {
    this.stop(p);
    const clock = this.#clock;
    if (clock === undefined) return;
    this.#timers.set(
      p,
      clock.setTimer(this.#ttl!, () => {
        this.#timers.delete(p);
        this.#expire(p, seq);
      }),
    );
  }

  /** G2: `p`'s entry no longer holds units (or left `Que`): stop its timer. */
  stop(p: ProcessId): void {
    this.#timers.get(p)?.();
    this.#timers.delete(p);
  }

  /** G1: a current `confirm` with token `t` raises `hs` (and, G2, restarts the timer). */
  confirm(p: ProcessId, seq: number, t: number): void {
    if (t > this.hs) this.hs = t;
    this.arm(p, seq);
  }

  /** Stops every timer (the process closes). */
  close(): void {
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }
}
