import type { HKArbiter } from '@critsec/coteries';
import type { FenceOptions } from './fence.js';
import type { Priority, QueStatus } from './que.js';

/**
 * @internal What every process of one `hOutOfK()` factory is built with: the checked options
 * (`fence` absent: neither fencing nor a ttl; `reselect`: quorum reselection, `reselect.ts`).
 */
export interface HOutOfKSetting {
  readonly k: number;
  readonly arbiter: HKArbiter;
  readonly priority: Priority;
  readonly fence?: FenceOptions | undefined;
  readonly reselect?: boolean | undefined;
}

/** Options of {@link hOutOfK}. */
export interface HOutOfKOptions {
  /** Number of identical units k (an integer ≥ 1); `entry(h)` takes `1 ≤ h ≤ k` of them. */
  readonly k: number;
  /**
   * The (h,k)-arbiter (Sec. 3): `P_i` requesting h units asks `arbiter.quorumOf(i, h)`. Any
   * `HKArbiter` of `@critsec/coteries` — `uniformHKArbiter(n, k)`, `cubeHKArbiter(n, k)`,
   * `fromHKQuorums(…)`, or a k-arbiter through {@link asHKArbiter} — built for the same n and k.
   */
  readonly arbiter: HKArbiter;
  /**
   * Priority of requests (Sec. 4.1: `(c, p)`, the smaller first). `'ceiling-fair'` (default):
   * the paper's order, except that requests whose clocks both sit at the ceiling `CLOCK_MAX`
   * (reachable only through a forged clock) are ordered by the requester's request count `seq`
   * before the id, so no process starves there. `'printed'`: `(c, p)` everywhere — at the ceiling
   * the highest ids can starve (see the README and `test/deviation.test.ts`).
   */
  readonly priority?: Priority;
  /**
   * Fencing tokens (issue 28 §2; F1–F4 of `fence.ts`, a deviation from the paper): every entry
   * yields a token (`tenure()`, `hasTenure` of `@critsec/core`), strictly increasing across
   * successive holders whose requests conflict (h + h' > k); non-conflicting holders may share or
   * interleave tokens. Costs one more round trip (`confirm` / `confirmed`, 2·|q_{h,k}| messages)
   * and, with crash recovery, one synced write per arbiter per entry. Default false; implied by
   * {@link ttl}.
   */
  readonly fencing?: boolean | undefined;
  /**
   * Time-bounded grants (issue 28 §1; G2 of `arbiter-fence.ts`): an arbiter reclaims an OK not
   * renewed within `ttl`, in the unit of `ProcessContext.clock` (**ms** on a real member, **time
   * units** in the simulator); the requester renews every `ttl / 3` while it holds any OK. Needs a
   * clock; implies fencing. Default: none (OKs never expire, exclusion is unconditional).
   */
  readonly ttl?: number | undefined;
  /**
   * The drift margin (same unit as {@link ttl}, 0 ≤ margin < ttl): the holder's deadline is the
   * send time of the last renewal its whole quorum confirmed + `ttl − driftMargin`. It must cover
   * the clocks' rates: `driftMargin ≥ 2ρ·ttl` for a relative rate error ρ. Default `ttl / 10`.
   */
  readonly driftMargin?: number | undefined;
  /**
   * Quorum reselection (issue 28 §4; S1–S5 of `reselect.ts`, a deviation from the paper): a
   * waiting request whose quorum holds a member suspected by `ctx.suspicions` withdraws that
   * attempt (`release` to every arbiter asked: the units granted come back) and asks
   * `quorumAvoiding(arbiter.quorumSet(h), i, suspected)` of `@critsec/coteries` instead, under a
   * new tag and with its priority `(c, p)` kept. Safety never depends on the suspicions: the
   * intersection property of an (h,k)-arbiter (Theorem 1) holds for every choice of quorums of
   * `Q_{h,k}`. Progress needs a quorum of live, unsuspected processes whose units no crashed
   * process holds — with a {@link ttl}, a dead or cut-off holder's units come back within it; with
   * {@link fencing} the token is confirmed with the quorum asked (F5–F7 of `fence.ts`). Every
   * process of a cluster must use the same setting. Without `ctx.suspicions` the requester never
   * reselects (arbiters still accept every asker). The arbiter needs at least two quorums for every
   * h (else `hOutOfK()` throws `ConfigurationError`). Default false: exactly the paper's algorithm.
   */
  readonly reselect?: boolean | undefined;
}

/** Protocol variables of one process (Fig. 1 names), as returned by `inspect()`. */
export interface HOutOfKSnapshot {
  /** Lamport clock `c`. */
  readonly c: number;
  /** Requester role. */
  readonly requester: {
    /** `seq` of the current request, −1 when none. */
    readonly request: number;
    /** `seq` of the next request (requests made so far). */
    readonly seq: number;
    /** `h`: units of the current request (0 when none). */
    readonly h: number;
    /** `In`: true InCS. */
    readonly In: boolean;
    /** True while a request waits for OKs: `entry` in flight, or a recovered request until `recover()`. */
    readonly waiting: boolean;
    /** `K`: arbiters whose OK is held. */
    readonly K: readonly number[];
  };
  /** Arbiter role. */
  readonly arbiter: {
    /** `x`: free units. */
    readonly x: number;
    /** `Que`: `[process, clock, units, status, seq]`, highest priority first (`Quelength` = its length). */
    readonly Que: readonly [number, number, number, QueStatus, number][];
    /**
     * Requests set aside, `[process, seq]` by process — present only while there is one, which
     * never happens on an honest run (a second request, issue 27 §3; see the README).
     */
    readonly aside?: readonly [number, number][];
  };
}
