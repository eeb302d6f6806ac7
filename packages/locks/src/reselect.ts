/**
 * Quorum reselection for named locks (issue 28 §4 over issue 29): with
 * `createLockManager({ reselect: true })` every exclusive-only name's Maekawa instance gets
 * `reselect` (`@critsec/mutex`, rules S1–S5): a request whose quorum holds a member the root
 * endpoint's failure detector suspects moves to another quorum of the coterie's family avoiding
 * the suspects (`quorumAvoiding` of `@critsec/coteries`), its priority kept. The `ifAvailable`
 * probe asks the quorum an entry would ask ({@link probedQuorum}).
 *
 * What is refused, before anything is built (same options on every member ⇒ same answer):
 * - a coterie whose family has no other quorum to move to (one quorum: `majority(1)`,
 *   `majority(2)`, a singleton coterie): reselection could never move a request;
 * - `shared` names: they run h-out-of-k, which has no quorum reselection in this version — a
 *   shared name would still stall when a member of its quorum is gone while the exclusive names
 *   go on, so the guarantee would hold for some names only.
 */
import type { ProcessId, Suspicions } from '@critsec/core';
import { type Coterie, quorumAvoiding } from '@critsec/coteries';
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

/**
 * Checks the `reselect` option against `shared` and the coterie.
 * @returns whether reselection is on.
 * @throws LockOptionsError for a `reselect` that is not a boolean, with `shared` names, or over a
 *   coterie without alternatives (the message lists coteries that have them).
 */
export function checkReselect(
  reselect: unknown,
  shared: LockManagerOptions['shared'],
  coterie: Coterie,
): boolean {
  if (reselect === undefined || reselect === false) return false;
  if (reselect !== true)
    throw new LockOptionsError(`createLockManager: reselect must be a boolean, got ${String(reselect)}`);
  if (shared !== undefined && !(Array.isArray(shared) && shared.length === 0)) {
    throw new LockOptionsError(
      'createLockManager: reselect applies to exclusive-only names (Maekawa); shared names run h-out-of-k, ' +
        'which has no quorum reselection in this version, so a shared name would still stall when a member ' +
        'of its quorum is gone — drop `shared` or `reselect`',
    );
  }
  if (!hasAlternatives(coterie)) {
    throw new LockOptionsError(
      `createLockManager: reselect needs a coterie with another quorum to move to, and ${coterie.description} ` +
        'has a single one; coteries with alternatives: majority(n) and tree(n) for n ≥ 3, grid, projective-plane, ' +
        'wall, or any coterie of two quorums or more (fromQuorums)',
    );
  }
  return true;
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
