/**
 * Quorum reselection for named locks (issue 28 §4 over issue 29): with
 * `createLockManager({ reselect: true })` every name's instance reselects its quorum around the
 * members the root endpoint's failure detector suspects, its priority kept —
 * - an exclusive-only name's Maekawa instance with Maekawa's `reselect` (`@critsec/mutex`, rules
 *   S1–S5): another quorum of the coterie's family (`quorumAvoiding` of `@critsec/coteries`);
 * - a shared name's h-out-of-k instance with h-out-of-k's `reselect` (`@critsec/h-out-of-k`, its
 *   rules S1–S5): another quorum of `Q_{h,k}` of the (h,k)-arbiter, for the h units asked (1 for
 *   `shared`, k for `exclusive`).
 * The `ifAvailable` probe asks the quorum an entry would ask ({@link probedQuorum},
 * {@link probedHKQuorum}).
 *
 * What is refused, before anything is built (same options on every member ⇒ same answer):
 * - a coterie whose family has no other quorum to move to (one quorum: `majority(1)`,
 *   `majority(2)`, a singleton coterie): reselection could never move a request;
 * - with `shared` names (a non-empty list, or a predicate), an (h,k)-arbiter with a single quorum
 *   for some h — the default `uniformHKArbiter(n, n − 1)` is one (its 1-unit quorum is all n
 *   members): a shared name would still stall when a member is gone while the exclusive ones go
 *   on. The arbiter is built then and there, not at the first shared name.
 */
import type { ProcessId, Suspicions } from '@critsec/core';
import { type Coterie, type HKArbiter, quorumAvoiding } from '@critsec/coteries';
import { LockOptionsError } from './errors.js';
import type { LockManagerOptions } from './types.js';

/**
 * True when the coterie's family (what reselection draws from) has a quorum avoiding some member
 * of `Q_0`: exactly when it has two quorums or more (two distinct minimal quorums differ by a
 * member of each), whichever process asks.
 */
function hasAlternatives(coterie: Coterie): boolean {
  return coterie.quorumOf(0).some((p) => quorumAvoiding(coterie, 0, new Set([p])) !== undefined);
}

/** True when `shared` may name some name: a non-empty list, or a predicate. */
function hasSharedNames(shared: LockManagerOptions['shared']): boolean {
  return shared !== undefined && !(Array.isArray(shared) && shared.length === 0);
}

/** What {@link checkReselect} checks. */
export interface ReselectCheck {
  readonly reselect: unknown;
  readonly shared: LockManagerOptions['shared'];
  readonly coterie: Coterie;
  readonly n: number;
  readonly k: number;
  /** The (h,k)-arbiter of shared names (built on call). */
  readonly arbiter: () => HKArbiter;
}

/**
 * Checks the `reselect` option against the coterie and, with `shared` names, the (h,k)-arbiter.
 * @returns whether reselection is on.
 * @throws LockOptionsError for a `reselect` that is not a boolean, over a coterie without
 *   alternatives (the message lists coteries that have them), or with `shared` names over an
 *   arbiter with one quorum for some h (the message names k, n and what to pass instead).
 */
export function checkReselect(c: ReselectCheck): boolean {
  if (c.reselect === undefined || c.reselect === false) return false;
  if (c.reselect !== true)
    throw new LockOptionsError(`createLockManager: reselect must be a boolean, got ${String(c.reselect)}`);
  if (!hasAlternatives(c.coterie)) {
    throw new LockOptionsError(
      `createLockManager: reselect needs a coterie with another quorum to move to, and ${c.coterie.description} ` +
        'has a single one; coteries with alternatives: majority(n) and tree(n) for n ≥ 3, grid, projective-plane, ' +
        'wall, or any coterie of two quorums or more (fromQuorums)',
    );
  }
  if (hasSharedNames(c.shared)) checkReselectableArbiter(c.arbiter(), c.n, c.k);
  return true;
}

/**
 * Refuses an (h,k)-arbiter with a single quorum for some h (h-out-of-k's reselection could never
 * move a request of h units; `hOutOfK({ reselect })` refuses it too, with a `ConfigurationError`).
 */
function checkReselectableArbiter(arbiter: HKArbiter, n: number, k: number): void {
  for (let h = 1; h <= arbiter.k; h++) {
    const quorums = arbiter.quorumSet(h).quorums;
    if (quorums.length >= 2) continue;
    const fix =
      n >= 3
        ? `pass k ≤ n − 2 = ${n - 2} (the default uniformHKArbiter(n, k) then has alternatives for every h) or an arbiter with alternatives`
        : 'no (h,k)-arbiter over fewer than 3 members has alternatives';
    throw new LockOptionsError(
      `createLockManager: reselect with shared names needs an (h,k)-arbiter with another quorum for every h, and ` +
        `${arbiter.description} has a single one for h = ${h} ({${quorums[0]?.join(', ') ?? ''}}) with k = ${k}, n = ${n}: ` +
        `${fix}, or drop \`shared\` or \`reselect\``,
    );
  }
}

/**
 * The quorum an exclusive-only name's entry at `id` asks now (S1 of `@critsec/mutex`'s
 * reselection): `Q_id` while it avoids every suspect or reselection is off, else a quorum of the
 * family avoiding them, else `Q_id` (no quorum avoids them: the entry waits where it is).
 */
export function probedQuorum(
  coterie: Coterie,
  id: ProcessId,
  reselect: boolean,
  suspicions: Suspicions | undefined,
): readonly ProcessId[] {
  const own = coterie.quorumOf(id);
  if (!reselect || suspicions === undefined) return own;
  return quorumAvoiding(coterie, id, suspicions.suspected()) ?? own;
}

/**
 * The quorum a shared name's entry of `h` units at `id` asks now (S1 of `@critsec/h-out-of-k`'s
 * reselection): `q_{h,k}(id)` while it avoids every suspect or reselection is off, else a quorum
 * of `Q_{h,k}` avoiding them, else `q_{h,k}(id)`.
 */
export function probedHKQuorum(
  arbiter: HKArbiter,
  id: ProcessId,
  h: number,
  reselect: boolean,
  suspicions: Suspicions | undefined,
): readonly ProcessId[] {
  const set = arbiter.quorumSet(h);
  if (!reselect || suspicions === undefined) return set.quorumOf(id);
  return quorumAvoiding(set, id, suspicions.suspected()) ?? set.quorumOf(id);
}
