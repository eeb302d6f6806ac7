/**
 * The factory of group mutual exclusion over a group quorum system — Joung, "Quorum-based
 * algorithms for group mutual exclusion", IEEE TPDS 14(5), 2003: problem of Sec. 2 (mutual
 * exclusion between groups, lockout freedom, concurrent entering), Maekawa_M (Sec. 4.2,
 * Figs. 5–6) and Maekawa_S (Sec. 4.3, Figs. 7–8). Validation happens before any message is sent.
 */
import { ConfigurationError, type CSFactory, initialConfiguration } from '@critsec/core';
import { checkGroupQuorumSystem, type GroupQuorumSystem, isGroupQuorumSystem } from '@critsec/coteries';
import type { FenceOptions } from './fence.js';
import { MaekawaM } from './maekawa-m.js';
import type { MNodeClass, Rules } from './maekawa-m-node.js';
import { parseMaekawaSDurable } from './durable-s.js';
import { parseMaekawaMDurable } from './durable-m.js';
import { MaekawaS } from './maekawa-s.js';
import type { SNodeClass } from './maekawa-s-node.js';
import { checkMaxLocks, makePlan } from './plan.js';

/** A group id: an integer `0..m-1` (the paper's groups 1..m). */
export type GroupId = number;

/** Options of {@link groupMutex}. */
export interface GroupMutexOptions {
  /**
   * The m-group quorum system (`surficial(n, m)`, `groupFromCoterie(coterie, m)`,
   * `groupQuorumSystem(n, cartels)` of `@critsec/coteries`); `system.n` must be the cluster size.
   */
  readonly system: GroupQuorumSystem;
  /** `'M'`: Maekawa_M (Figs. 5–6). `'S'`: Maekawa_S (Figs. 7–8). */
  readonly variant: 'M' | 'S';
  /**
   * Maekawa_M's `max[g]`, the number of locks a node gives one group at a time: one integer ≥ 1
   * for every group, or one per group. Default: ⌈n / deg(C_g)⌉ with the subgroup assignment
   * (Sec. 4.2.1), n with the system's assignment. Ignored by Maekawa_S (unbounded, Sec. 4.3).
   */
  readonly maxLocks?: number | readonly number[];
  /**
   * Which quorum P_i acquires for group g. `'subgroups'` (default): the assignment of
   * Sec. 4.2.1 — deg(C_g) pairwise disjoint quora, P_i on quorum `i mod deg(C_g)` (see
   * `subgroupAssignment`). `'system'`: `system.quorumOf(i, g)`.
   */
  readonly assignment?: 'subgroups' | 'system';
  /**
   * Fencing tokens (issue 28 §2; Maekawa_M only): every entry yields `tenure().token`, strictly
   * greater than the token of every earlier holder of **another group** (holders of one group
   * may share or interleave tokens), with no central counter — nodes keep a durable
   * highest-token-seen, and the requester confirms `max + 1` with its whole quorum before it
   * enters (README "Fencing tokens and time-bounded grants"). Costs one more round trip and, with
   * crash recovery, one synced write per node per entry. Default false; implied by {@link ttl}.
   */
  readonly fencing?: boolean | undefined;
  /**
   * Time-bounded grants (issue 28 §1; Maekawa_M only): a node reclaims a lock not renewed within
   * `ttl`, in the unit of `ProcessContext.clock` (**ms** on a real member, time units in the
   * simulator); the requester renews every `ttl / 3`. Needs a clock; implies fencing.
   */
  readonly ttl?: number | undefined;
  /**
   * The drift margin (same unit as {@link ttl}, 0 ≤ margin < ttl): the holder's deadline is the
   * send time of the last renewal its whole quorum confirmed + `ttl − driftMargin`; it must cover
   * the clocks' rates (`≥ 2ρ·ttl` for a relative rate error ρ). Default `ttl / 10`.
   */
  readonly driftMargin?: number | undefined;
  /**
   * Quorum reselection (issue 28 §4; Maekawa_M only; README "Quorum reselection"): a waiting
   * request whose quorum holds a process `ctx.suspicions` suspects is withdrawn and made again on
   * another quorum of the group's cartel avoiding every suspect, with the same priority; an entry
   * asks such a quorum from the start. Safety never depends on the suspicions (quorums of
   * different cartels always intersect). Without `ctx.suspicions` nothing changes. Every process
   * of a cluster must use the same setting. Restarting a process from its durable state is not
   * supported with it yet (crash-stop is). Default false.
   */
  readonly reselect?: boolean | undefined;
}

/**
 * Group mutual exclusion (Joung 2003): `entry(group)` enters the CS as a member of `group`;
 * processes of different groups are never InCS together, processes of one group may be
 * (concurrent entering), and every request is eventually served (Theorems 4 and 8).
 *
 * - `variant: 'M'` — **Maekawa_M** (Sec. 4.2, Figs. 5–6): REQUEST multicast to the quorum;
 *   a node gives up to `max[g]` locks to one group; INQUIRE / UNLOCK(false) take locks back
 *   when a higher-priority request of another group (or a higher request of the same group at
 *   `max[g]`) arrives. Messages per entry: 3c without contention, at most 3c + 3c·max[g] as
 *   Theorem 5 counts, at most c·(2 + 6·max[g]) per exit+entry pair under causal attribution;
 *   minimum synchronization delay 2 (Theorem 6).
 * - `variant: 'S'` — **Maekawa_S** (Sec. 4.3, Figs. 7–8): the REQUEST travels along the
 *   quorum in increasing node id, the last node sends GRANT; exactly 2c + 1 messages per
 *   entry–exit and delay c + 1 without contention (Theorem 9), at most 3c with early requests;
 *   unbounded concurrency.
 *
 * `entry(g, { signal })` can be aborted while waiting: every lock held or in flight is given
 * back (UNLOCK to each node of the quorum) and the promise rejects with `AbortError`. `exit`
 * completes at once. Objects expose `inspect()` (every variable of the figures) and `tenure()`
 * (`hasTenure` of `@critsec/core`): with `fencing` or a `ttl` (Maekawa_M), the holder's fencing
 * token, `remaining()`, `check()` (throws `TenureExpiredError` past the deadline) and `signal`
 * while InCS; `undefined` otherwise.
 *
 * @throws ConfigurationError (from `groupMutex`) if `system` is not a group quorum system or its
 *   cartels of different groups do not intersect pairwise, if `variant` is not `'M'`/`'S'`, if
 *   `maxLocks` is not an integer ≥ 1 (or one per group), or `assignment` is unknown, for a `ttl`
 *   that is not a finite number > 0, a `driftMargin` outside [0, ttl) or without a ttl, a ttl with
 *   `fencing: false`, or `fencing`/`ttl`/`reselect` with variant `'S'` (not supported yet), a
 *   `reselect` that is not a boolean; (from the factory) if `system.n` differs from the cluster's
 *   n, any process starts InCS, a ttl is given and `ProcessContext.clock` is not, or `reselect`
 *   with a recovered state (`ctx.recovered`); (from
 *   `entry`, rejected, nothing sent) if the group is not an integer in `0..m-1`.
 */
export function groupMutex(options: GroupMutexOptions): CSFactory<GroupId> {
  return groupMutexWithRules(options, 'default');
}

/**
 * {@link groupMutex} with a choice of rules: `'printed-locked'` counts every LOCKED as C.3 is
 * printed (unsafe with abort), `'printed-early'` re-sends one early request as E.17–E.19 are
 * printed (not live with abort) — the printed figures, kept for the counterexample tests; `nodes`
 * replaces the node role's class (the tests pass deliberately broken subclasses to show they are
 * caught). Not part of the public API.
 * @internal
 */
export function groupMutexWithRules(
  options: GroupMutexOptions,
  rule: Rules,
  nodes: { readonly M?: MNodeClass; readonly S?: SNodeClass } = {},
): CSFactory<GroupId> {
  const system = options?.system;
  if (!isGroupQuorumSystem(system)) {
    throw new ConfigurationError(
      'groupMutex({ system }): system must be a GroupQuorumSystem from @critsec/coteries (surficial(n, m), groupFromCoterie(coterie, m), groupQuorumSystem(n, cartels))',
    );
  }
  const check = checkGroupQuorumSystem(system);
  if (!check.ok) throw new ConfigurationError(`groupMutex: system: ${check.message}`);
  const variant: unknown = options.variant;
  if (variant !== 'M' && variant !== 'S') {
    throw new ConfigurationError(`groupMutex: variant must be 'M' or 'S', got ${JSON.stringify(variant)}`);
  }
  checkMaxLocks(options.maxLocks, system.m);
  const assignment: unknown = options.assignment ?? 'subgroups';
  if (assignment !== 'subgroups' && assignment !== 'system') {
    throw new ConfigurationError(
      `groupMutex: assignment must be 'subgroups' or 'system', got ${JSON.stringify(assignment)}`,
    );
  }
  const plan = makePlan(system, assignment, options.maxLocks);
  const fence = fenceOptions(options);
  const reselect: unknown = options.reselect ?? false;
  if (typeof reselect !== 'boolean')
    throw new ConfigurationError(`groupMutex: reselect must be true or false, got ${String(reselect)}`);
  if (reselect && variant === 'S')
    throw new ConfigurationError(
      "groupMutex: reselect is implemented for variant 'M' (Maekawa_M) only so far; use variant 'M' or leave it unset",
    );
  if (fence !== undefined && variant === 'S') {
    throw new ConfigurationError(
      "groupMutex: fencing and ttl are implemented for variant 'M' (Maekawa_M) only so far; use variant 'M' or leave them unset",
    );
  }
  return (ctx) => {
    if (ctx.n !== system.n) {
      throw new ConfigurationError(
        `groupMutex: the group quorum system has n = ${system.n} processes but the cluster has n = ${ctx.n}`,
      );
    }
    try {
      initialConfiguration(ctx.n, ctx.initial); // n states, each 'InCS' or 'OutCS' (issue 15)
    } catch (err) {
      throw err instanceof ConfigurationError ? new ConfigurationError(`groupMutex: ${err.message}`) : err;
    }
    const inCS = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [`P${i}`] : []));
    if (inCS.length > 0) {
      throw new ConfigurationError(
        `groupMutex: initial must have every process OutCS (a process InCS has no group and no locks), got ${inCS.join(', ')} InCS`,
      );
    }
    if (fence?.ttl !== undefined && ctx.clock === undefined)
      throw new ConfigurationError(
        'groupMutex: a ttl needs a clock (ProcessContext.clock), and none was given',
      );
    if (variant === 'M') {
      if (reselect && ctx.recovered !== undefined)
        throw new ConfigurationError(
          'groupMutex: restarting a process from its durable state is not supported with reselect yet (crash-stop is): the quorum its request asked is not recorded',
        );
      const restored =
        ctx.recovered === undefined ? undefined : parseMaekawaMDurable(ctx.recovered, ctx, plan);
      return new MaekawaM(ctx, plan, rule, nodes.M, restored, fence, reselect ? system : undefined);
    }
    const restored = ctx.recovered === undefined ? undefined : parseMaekawaSDurable(ctx.recovered, ctx, plan);
    return new MaekawaS(ctx, plan, rule, nodes.S, restored);
  };
}

/** The fence options (`undefined`: fencing off). @throws ConfigurationError for a bad ttl or margin. */
function fenceOptions(o: GroupMutexOptions): FenceOptions | undefined {
  const { ttl, driftMargin, fencing } = o;
  if (fencing !== undefined && typeof fencing !== 'boolean')
    throw new ConfigurationError(`groupMutex: fencing must be true or false, got ${String(fencing)}`);
  if (ttl === undefined) {
    if (driftMargin !== undefined) throw new ConfigurationError('groupMutex: driftMargin needs a ttl');
    return fencing === true ? { ttl: undefined, margin: 0 } : undefined;
  }
  if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0))
    throw new ConfigurationError(
      `groupMutex: ttl must be a finite number > 0 (the clock's unit), got ${String(ttl)}`,
    );
  if (fencing === false)
    throw new ConfigurationError('groupMutex: a ttl needs fencing (leave fencing unset or true)');
  const margin = driftMargin ?? ttl / 10;
  if (!(typeof margin === 'number' && margin >= 0 && margin < ttl))
    throw new ConfigurationError(
      `groupMutex: driftMargin must be in [0, ttl), got ${String(margin)} with ttl ${ttl}`,
    );
  return { ttl, margin };
}
