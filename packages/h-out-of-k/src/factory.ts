/**
 * The public factory of the h-out-of-k algorithm (h-out-of-k paper, Sec. 4, Fig. 1) and its
 * settings checks; the protocol itself is in `h-out-of-k.ts`.
 */
import { ConfigurationError, type CSFactory, initialConfiguration, type ProcessId } from '@critsec/core';
import {
  type Coterie,
  type HKArbiter,
  type HKArbiterJSON,
  isHKArbiter,
  type KArbiter,
} from '@critsec/coteries';
import { parseHOutOfKDurable } from './durable.js';
import type { FenceOptions } from './fence.js';
import { HOutOfKCS } from './h-out-of-k.js';
import type { ArbiterClass } from './arbiter.js';
import { SenderRoles } from './roles.js';
import { checkReselectable } from './reselect.js';
import type { HOutOfKOptions, HOutOfKSetting } from './types.js';

/** @internal the factory; `Arbiter` is the arbiter role's class (a test's subclass, or the default). */
function makeFactory(setting: HOutOfKSetting, Arbiter: ArbiterClass | undefined): CSFactory<number> {
  const { k, arbiter, fence } = setting;
  return (ctx) => {
    try {
      initialConfiguration(ctx.n, ctx.initial); // n states, each 'InCS' or 'OutCS' (issue 15)
    } catch (err) {
      throw err instanceof ConfigurationError ? new ConfigurationError(`hOutOfK: ${err.message}`) : err;
    }
    if (arbiter.n !== ctx.n) {
      throw new ConfigurationError(
        `hOutOfK: the arbiter (${arbiter.kind}) is built for n = ${arbiter.n} processes but the cluster has n = ${ctx.n}; build it for n = ${ctx.n}`,
      );
    }
    const inCS = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
    if (inCS.length > 0) {
      throw new ConfigurationError(
        `hOutOfK: every process starts OutCS (Fig. 1: In = false, x = k), got InCS initially: ${inCS.map((i) => `P${i}`).join(', ')}`,
      );
    }
    if (fence?.ttl !== undefined && ctx.clock === undefined)
      throw new ConfigurationError('hOutOfK: a ttl needs a clock (ProcessContext.clock), and none was given');
    const roles = new SenderRoles(ctx.id, ctx.n, k, arbiter, setting.reselect);
    // issue 27: a restarted process resumes from its recovered state, checked first
    const restored =
      ctx.recovered === undefined ? undefined : parseHOutOfKDurable(ctx.recovered, ctx, setting, roles);
    return new HOutOfKCS(ctx, setting, roles, Arbiter, restored);
  };
}

/**
 * h-out-of-k mutual exclusion (h-out-of-k paper, Sec. 4, Fig. 1): k identical units shared by
 * the n processes with no central server; `entry(h)` takes h units **at once** (1 ≤ h ≤ k),
 * `exit()` gives them all back; at every instant the units held InCS sum to at most k. Process
 * `P_i` asks the arbiters of `arbiter.quorumOf(i, h)` (`|q_{h,k}|` of them, itself included when
 * it is in that quorum); conflicts are settled by `(Lamport clock, id)` priority with
 * `OK` / `cancel` / `cancelled` (Theorems 5–6: no deadlock, no starvation).
 *
 * Costs, counting messages a process sends to itself (Sec. 4.3): exactly `3·|q_{h,k}|` messages
 * per request without contention (request, OK, release); under contention at most
 * `(3h+3)·|q_{h,k}|`. Waiting time with unit delays and no contention: entry 2 time units, exit 0
 * (release is fire and forget). See {@link hOutOfKBounds}.
 *
 * `entry(h, { signal })` can be aborted while waiting: `release` goes to every arbiter of the
 * quorum, which gives back every unit granted or in flight; the promise rejects with
 * `AbortError`. Objects expose `units` (held now) and `inspect()` (every variable of Fig. 1).
 *
 * **Crash recovery** (issue 27): the objects are `DurableCSObject`s of `@critsec/core`
 * (`isDurableCSObject` tells). `durableState()` returns every protocol variable of both roles as
 * JSON ({@link HOutOfKDurableState}); given it as `ctx.recovered`, the factory builds the object
 * exactly there — a waiting request counting as OutCS with the request still standing at the
 * arbiters — and `recover()` then withdraws that request (`release` to its quorum, as an abort)
 * or leaves a recovered CS (the exit's `release`).
 *
 * **Fencing tokens and time-bounded grants** (issue 28, opt-in; a deviation from the paper, see
 * the README): with `fencing: true` or a `ttl`, `tenure()` of an object InCS gives its fencing
 * token (strictly increasing across holders whose requests conflict, h + h' > k) and, with a
 * `ttl`, its deadline (`remaining()`, `check()`, `signal`); arbiters reclaim OKs not renewed
 * within the ttl. Without these options every message is the paper's.
 *
 * **Quorum reselection** (issue 28 §4, opt-in `reselect: true`; a deviation from the paper, S1–S5
 * of `reselect.ts`): a waiting request whose quorum holds a member suspected by `ctx.suspicions`
 * withdraws that attempt and asks another quorum of `Q_{h,k}` avoiding the suspects, with the same
 * priority; safety never depends on the suspicions (Theorem 1 holds for every quorum assignment).
 *
 * @param options `{ k, arbiter, priority?, fencing?, ttl?, driftMargin?, reselect? }` (ttl and driftMargin in
 *   the unit of `ProcessContext.clock`: ms on a real member, time units in the simulator).
 * @returns a `CSFactory<number>` (the request is h).
 * @throws ConfigurationError (at once) if `k` is not an integer ≥ 1, `arbiter` is not an
 *   (h,k)-arbiter, or it is built for another k; (from the factory) if it is built for another n
 *   or a process starts InCS (Fig. 1 starts every process OutCS), or if `ctx.recovered` is not a
 *   state this process, k and arbiter can reach, or if a ttl is given and `ctx.clock` is not;
 *   (at once) for a ttl that is not a finite number > 0, `fencing: false` with a ttl, or a
 *   driftMargin outside [0, ttl) or without a ttl; with `reselect: true`, for an arbiter with a
 *   single quorum for some h (nothing to move to) or a `reselect` that is not a boolean. `entry(h)` rejects with
 *   `ConfigurationError` for h that is not an integer in 1..k, sending nothing.
 */
export function hOutOfK(options: HOutOfKOptions): CSFactory<number> {
  return hOutOfKWithArbiter(options);
}

/**
 * {@link hOutOfK} whose processes play the arbiter role with `Arbiter` (default
 * {@link HOutOfKArbiter}): the tests pass deliberately broken subclasses to show they are caught.
 * Not part of the public API.
 * @internal
 */
export function hOutOfKWithArbiter(options: HOutOfKOptions, Arbiter?: ArbiterClass): CSFactory<number> {
  const k = options?.k;
  const arbiter = options?.arbiter;
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1) {
    throw new ConfigurationError(`hOutOfK({ k }): k (units) must be an integer ≥ 1, got k = ${String(k)}`);
  }
  if (!isHKArbiter(arbiter)) {
    throw new ConfigurationError(
      'hOutOfK({ arbiter }): arbiter must be an (h,k)-arbiter from @critsec/coteries (uniformHKArbiter(n, k), cubeHKArbiter(n, k), fromHKQuorums(…), asHKArbiter(kArbiter))',
    );
  }
  if (arbiter.k !== k) {
    throw new ConfigurationError(
      `hOutOfK({ k, arbiter }): the arbiter (${arbiter.kind}) is built for k = ${arbiter.k} units, but k = ${k}; build it with k = ${k}`,
    );
  }
  const priority = options.priority ?? 'ceiling-fair';
  if (priority !== 'ceiling-fair' && priority !== 'printed') {
    throw new ConfigurationError(
      `hOutOfK({ priority }): priority must be 'ceiling-fair' (default) or 'printed', got ${String(priority)}`,
    );
  }
  const reselect = options.reselect ?? false;
  if (typeof reselect !== 'boolean')
    throw new ConfigurationError(
      `hOutOfK({ reselect }): reselect must be true or false, got ${String(reselect)}`,
    );
  if (reselect) checkReselectable(arbiter);
  return makeFactory({ k, arbiter, priority, fence: fenceOptions(options), reselect }, Arbiter);
}

/** The fence options (`undefined`: fencing off). @throws ConfigurationError for a bad ttl or margin. */
function fenceOptions(o: HOutOfKOptions): FenceOptions | undefined {
  const { ttl, driftMargin } = o;
  if (ttl === undefined) {
    if (driftMargin !== undefined) throw new ConfigurationError('hOutOfK: driftMargin needs a ttl');
    return o.fencing === true ? { ttl: undefined, margin: 0 } : undefined;
  }
  if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0))
    throw new ConfigurationError(
      `hOutOfK: ttl must be a finite number > 0 (the clock's unit), got ${String(ttl)}`,
    );
  if (o.fencing === false)
    throw new ConfigurationError('hOutOfK: a ttl needs fencing (leave fencing unset or true)');
  const margin = driftMargin ?? ttl / 10;
  if (!(typeof margin === 'number' && margin >= 0 && margin < ttl))
    throw new ConfigurationError(
      `hOutOfK: driftMargin must be in [0, ttl), got ${String(margin)} with ttl ${ttl}`,
    );
  return { ttl, margin };
}

/**
 * A k-arbiter (Def. 2) used as an (h,k)-arbiter: the same quorum for every h — the algorithm "for
 * a k-arbiter" that Sec. 3.1 generalizes (its quorums are never smaller than an (h,k)-arbiter's).
 * For comparisons: `hOutOfK({ k, arbiter: asHKArbiter(uniformKArbiter(n, k)) })`.
 * @throws ConfigurationError unless `karbiter` is a k-arbiter with an integer `k ≥ 1`.
 */
export function asHKArbiter(karbiter: KArbiter): HKArbiter {
  const k = karbiter?.k;
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 1 || typeof karbiter.quorumOf !== 'function') {
    throw new ConfigurationError(
      `asHKArbiter(karbiter): expected a k-arbiter (uniformKArbiter(n, k), cubeKArbiter(n, k)), got k = ${String(k)}`,
    );
  }
  const set = (h: number): Coterie => {
    if (!Number.isInteger(h) || h < 1 || h > k) {
      throw new ConfigurationError(
        `(h,k)-arbiter: h must be an integer with 1 ≤ h ≤ k = ${k}, got h = ${String(h)}`,
      );
    }
    return karbiter;
  };
  return Object.freeze({
    n: karbiter.n,
    k,
    kind: karbiter.kind,
    description: `${karbiter.description} (same quorum for every h)`,
    quorumSet: set,
    quorumOf: (i: ProcessId, h: number) => set(h).quorumOf(i),
    reportersOf: (i: ProcessId, h: number) => set(h).reportersOf(i),
    toJSON: (): HKArbiterJSON => ({
      n: karbiter.n,
      k,
      kind: karbiter.kind,
      assignments: Array.from({ length: k }, () => karbiter.toJSON().assignment),
    }),
  });
}
