/**
 * Maekawa's quorum mutual exclusion, deadlock-free form.
 *
 * Sources: M. Maekawa, "A √N algorithm for mutual exclusion in decentralized systems", ACM TOCS
 * 3(2), 1985, with the deadlock handling corrected after B. Sanders, "The information structure
 * of distributed mutual exclusion algorithms", ACM TOCS 5(3), 1987; as described in Joung,
 * "Quorum-based algorithms for group mutual exclusion", IEEE TPDS 2003, Sec. 4.1 (the basic
 * framework) — the lock/UNLOCK/INQUIRE vocabulary of its Figs. 5–6 (`Maekawa_M` with one lock
 * per node) — and the "papers" README of this repository. A process plays two roles: requester
 * (Fig. 5, "process p") and arbiter of every quorum it belongs to (Fig. 6, "node i").
 *
 * Files: `maekawa-protocol.ts` (messages, rare paths, snapshot), `maekawa-arbiter.ts` (the
 * arbiter, A1–A6, Fig. 6), `maekawa-process.ts` (the requester, R1–R7, Fig. 5, and dispatch),
 * `maekawa-marks.ts` (the requester's marks), `maekawa-route.ts` (the sender-role check),
 * `maekawa-fence.ts` (fencing tokens and TTLs, F1–F7, issue 28), `maekawa-reselect.ts` (quorum
 * reselection, S1–S5), `maekawa-asked.ts` (the quorum an attempt asks), this file (the factory
 * and why the whole is deadlock-free).
 *
 * ## Why this is deadlock-free
 *
 * The argument uses the arbiter's invariants (I1)–(I3) (`maekawa-arbiter.ts`) and the
 * requester's (I4) (`maekawa-process.ts`).
 *
 * Suppose a quiescent state (nothing in flight) where the waiting requesters W ≠ ∅ can never
 * progress. Take the highest request `R ∈ W`. It lacks the lock of some `k` where, by (I1), it is
 * queued under a holder `H ∈ W` of lower priority (processes InCS leave). `R` is the head, so by
 * (I3) `H` received INQUIRE and, being stuck, deferred it: `H` has no `failed`/`yielded` mark,
 * and never got one later (R3 would have relinquished). `H` lacks the lock of some `k'` where it
 * is queued; if `H` were not the top there, its entry would be flagged (I2) and by (I4) `H` would
 * carry a mark — so `H` is the head at `k'` and beats the holder `H'`, which by the same argument
 * deferred an INQUIRE and is itself the head somewhere… The priorities along `R, H, H', …`
 * strictly decrease in a finite set, a contradiction. Priorities are Lamport stamps, so a
 * waiting request eventually becomes the highest: no starvation either.
 *
 * The commonly paraphrased rule — FAILED decided only against the current holder, and no FAILED
 * to a displaced head — breaks (I2): a displaced head keeps deferring INQUIREs although a higher
 * request sits in front of it, and the chain above can close into a cycle (a deadlock).
 *
 * Message complexity (self-messages counted): 3·|Q_p| per CS without contention (REQUEST, LOCKED,
 * RELEASE); under contention FAILED, INQUIRE, RELINQUISH and a second LOCKED may be added per
 * arbiter (measured: mean ≈ 4·|Q| under full contention). Waiting time with unit delays and no
 * contention: entry 2, exit 0.
 */
import { ConfigurationError, type CSFactory } from '@critsec/core';
import { type Coterie, isCoterie } from '@critsec/coteries';
import { initialHolders } from './initial.js';
import { parseMaekawaDurable } from './maekawa-durable.js';
import { MaekawaMutex } from './maekawa-process.js';
import type { MaekawaRules } from './maekawa-protocol.js';
import { everyone } from './maekawa-reselect.js';

export { MAEKAWA_DURABLE_FORMAT, type MaekawaDurableState } from './maekawa-durable.js';
export {
  type MaekawaMessage,
  type MaekawaRules,
  type MaekawaSnapshot,
  maekawaProtocol,
  maekawaRarePaths,
} from './maekawa-protocol.js';

/** Options of {@link maekawa}. */
export interface MaekawaOptions {
  /**
   * The coterie; process `i` asks the arbiters of `coterie.quorumOf(i)` (`Q_i`, which may or may
   * not contain `i`). Any ordinary coterie of `@critsec/coteries` (majority, grid, projective
   * plane, tree, wall, `fromQuorums`…) with `coterie.n` equal to the cluster size.
   */
  readonly coterie: Coterie;
  /**
   * Fencing tokens (issue 28 §2; F1–F4 of `maekawa-fence.ts`): every entry yields a token,
   * strictly increasing across successive holders (`tenure()`, `hasTenure` of `@critsec/core`),
   * at the cost of one more round trip (CONFIRM / CONFIRMED, 2·|Q| messages) and, with crash
   * recovery, one synced write per arbiter per entry. Default false; implied by {@link ttl}.
   */
  readonly fencing?: boolean | undefined;
  /**
   * Time-bounded grants (issue 28 §1): an arbiter reclaims a grant not renewed within `ttl`, in the
   * unit of `ProcessContext.clock` (**ms** on a real member, time units in the simulator); the
   * holder renews every `ttl / 3`. Needs a clock; implies fencing; no process may start InCS.
   * Default: none (grants never expire, exclusion is unconditional).
   */
  readonly ttl?: number | undefined;
  /**
   * The drift margin (same unit as {@link ttl}, 0 ≤ margin < ttl): the holder's deadline is the
   * send time of the last renewal its whole quorum confirmed + `ttl − driftMargin`. It must cover
   * the clocks' rates: `driftMargin ≥ 2ρ·ttl` for a relative rate error ρ. Default `ttl / 10`.
   */
  readonly driftMargin?: number | undefined;
  /**
   * Quorum reselection (issue 28 §4; S1–S4 of `maekawa-reselect.ts`, a deviation from the papers):
   * a waiting request whose quorum holds a member suspected by `ctx.suspicions` withdraws that
   * attempt (RELEASE to every arbiter asked) and asks `quorumAvoiding(coterie, i, suspected)`
   * instead, its priority kept. Safety never depends on the suspicions (the family's quorums
   * pairwise intersect); progress needs a quorum of live, unsuspected processes whose locks no
   * crashed process holds — with a {@link ttl}, a dead or cut-off holder's locks come back within
   * the ttl (A6), so a quorum of live processes is enough; with {@link fencing} the token is
   * confirmed with the quorum asked (F5–F7 of `maekawa-fence.ts`). Every process of a cluster must
   * use the same setting. Without
   * `ctx.suspicions` the requester never reselects (arbiters still accept every asker). Default
   * false: exactly the papers' algorithm.
   */
  readonly reselect?: boolean;
}

/**
 * Maekawa's quorum mutual exclusion — the (0,1)-CS over a coterie, deadlock-free form (Maekawa
 * 1985 with Sanders 1987's correction; group-mutex paper, Sec. 4.1). Process `i` locks every
 * arbiter of `Q_i = coterie.quorumOf(i)`; arbiters grant one lock at a time by priority
 * `(Lamport timestamp, id)` and resolve conflicts with INQUIRE / FAILED / RELINQUISH (the exact
 * rules are in the file headers of `maekawa-arbiter.ts` and `maekawa-process.ts` and in the
 * package README).
 *
 * Costs, counting messages a process sends to itself: exactly `3·|Q_i|` messages per CS without
 * contention (REQUEST, LOCKED, RELEASE); under full contention about `4·|Q|` on average (FAILED
 * added), single CS measured up to about `6.5·|Q|` (INQUIRE, RELINQUISH and a second LOCKED).
 * Waiting time with unit delays and no contention: entry 2 time units, exit 0 (RELEASE is fire and
 * forget).
 *
 * `entry({ signal })` can be aborted while waiting: the request is withdrawn with RELEASE at
 * every arbiter of `Q_i` (`|Q_i|` messages), locks held or in flight are given back, and the
 * promise rejects with `AbortError`. `exit` completes at once. The objects expose `inspect()`
 * (every protocol variable, see {@link MaekawaSnapshot}).
 *
 * **Crash recovery** (issue 27): the objects are `DurableCSObject`s of `@critsec/core`
 * (`isDurableCSObject` tells). `durableState()` returns every protocol variable of both roles as
 * JSON ({@link MaekawaDurableState}); given it as `ctx.recovered`, the factory builds the object
 * exactly there — its `state` is the recovered one, a waiting request ("Trying") counting as
 * OutCS with the request still standing at the arbiters — and `recover()` then withdraws that
 * request (RELEASE to every arbiter of `Q_i`, as an abort) or, when the state was InCS, runs the
 * exit protocol; it resolves once OutCS (at once on a fresh object).
 *
 * @param options `{ coterie }`.
 * @returns a factory; the coterie's quorums are looked up once per process.
 * @throws ConfigurationError (from the factory) if `coterie` is not a coterie, if `coterie.n`
 *   differs from the cluster's `n`, if the initial configuration does not have `n` states each
 *   `'InCS'` or `'OutCS'`, if more than one process starts InCS, or if `ctx.recovered` is not
 *   a state of this process under this coterie (malformed, another algorithm's, another
 *   process's or cluster's, or one the rules cannot reach).
 */
export function maekawa(options: MaekawaOptions): CSFactory {
  return maekawaWithRules(options, 'sanders');
}

/**
 * {@link maekawa} with a choice of conflict rules. `'paraphrased'` deadlocks; it exists so the
 * deadlock hunt can show that it would notice. Not part of the public API.
 * @internal
 */
export function maekawaWithRules(options: MaekawaOptions, rules: MaekawaRules): CSFactory {
  const coterie = options?.coterie;
  const fence = fenceOptions(options);
  if (!isCoterie(coterie)) {
    throw new ConfigurationError(
      'maekawa({ coterie }): coterie must be a Coterie from @critsec/coteries (majority(n), grid(n), projectivePlane(q), tree(n), wall(widths), fromQuorums(n, assignment), …)',
    );
  }
  return (ctx) => {
    if (coterie.n !== ctx.n) {
      throw new ConfigurationError(
        `maekawa: the coterie (${coterie.kind}) has n = ${coterie.n} processes but the cluster has n = ${ctx.n}; build the coterie for n = ${ctx.n}`,
      );
    }
    const holders = initialHolders('maekawa', ctx);
    if (holders.length > 1) {
      throw new ConfigurationError(
        `maekawa: mutual exclusion allows at most one process InCS initially, got ${holders.map((h) => `P${h}`).join(', ')}`,
      );
    }
    // issue 27: a restarted process resumes from its recovered state, checked first
    const recovered =
      ctx.recovered === undefined
        ? undefined
        : parseMaekawaDurable(ctx.recovered, ctx, coterie.quorumOf(ctx.id), {
            // under reselection any process may have asked this arbiter (S4)
            reporters: options.reselect === true ? everyone(ctx.n) : coterie.reportersOf(ctx.id),
            reselect: options.reselect === true,
          });
    if (fence?.ttl !== undefined && ctx.clock === undefined)
      throw new ConfigurationError('maekawa: a ttl needs a clock (ProcessContext.clock), and none was given');
    if (fence?.ttl !== undefined && holders.length > 0)
      throw new ConfigurationError(
        `maekawa: with a ttl no process may start InCS (the age of P${holders[0]}'s grants is unknown); start all OutCS`,
      );
    return new MaekawaMutex(ctx, coterie, rules, {
      restored: recovered,
      reselect: options.reselect === true,
      fence,
    });
  };
}

/** The fence options (`undefined`: fencing off). @throws ConfigurationError for a bad ttl or margin. */
function fenceOptions(o: MaekawaOptions): { ttl: number | undefined; margin: number } | undefined {
  const { ttl, driftMargin } = o ?? {};
  if (ttl === undefined) {
    if (driftMargin !== undefined) throw new ConfigurationError('maekawa: driftMargin needs a ttl');
    return o?.fencing === true ? { ttl: undefined, margin: 0 } : undefined;
  }
  if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0))
    throw new ConfigurationError(
      `maekawa: ttl must be a finite number > 0 (the clock's unit), got ${String(ttl)}`,
    );
  if (o.fencing === false)
    throw new ConfigurationError('maekawa: a ttl needs fencing (leave fencing unset or true)');
  const margin = driftMargin ?? ttl / 10;
  if (!(typeof margin === 'number' && margin >= 0 && margin < ttl))
    throw new ConfigurationError(
      `maekawa: driftMargin must be in [0, ttl), got ${String(margin)} with ttl ${ttl}`,
    );
  return { ttl, margin };
}
