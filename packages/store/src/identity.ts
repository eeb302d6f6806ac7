import { randomBytes } from 'node:crypto';
import { StoreError } from './errors.js';
import type { OpenOptions, StoreIdentity } from './types.js';

/**
 * The identity this open gives the store, from the one it holds (`stored`, undefined when the
 * store is empty) and what the member expects; throws `StoreError` (`missing`, `exists`,
 * `foreign`) with the way out.
 */
export function nextIdentity(
  where: string,
  stored: StoreIdentity | undefined,
  options: OpenOptions,
): StoreIdentity {
  const { cluster, member, mode } = options;
  if (stored === undefined) {
    if (mode === 'recover') {
      throw new StoreError(
        'missing',
        `member ${member} of cluster ${JSON.stringify(cluster)} was told to recover, but its store at ${where} is empty ` +
          '(lost or never created). It must not rejoin with empty state — it would forget the grants it gave. ' +
          "Way out: remove the member from the cluster configuration and add it back as a new member (open with mode 'create').",
      );
    }
    return { cluster, member, storeId: randomBytes(8).toString('hex'), incarnation: 1 };
  }
  if (stored.cluster !== cluster || stored.member !== member) {
    throw new StoreError(
      'foreign',
      `the store at ${where} belongs to member ${stored.member} of cluster ${JSON.stringify(stored.cluster)}, ` +
        `not to member ${member} of cluster ${JSON.stringify(cluster)}. ` +
        "Way out: point the member at its own store's path, or give it an empty path and rejoin as a new member (mode 'create').",
    );
  }
  if (mode === 'create') {
    throw new StoreError(
      'exists',
      `member ${member} was told to create its store, but ${where} already holds its state ` +
        `(store ${stored.storeId}, incarnation ${stored.incarnation}). ` +
        "Way out: open with mode 'recover' to restart from that state; delete the store only if the member leaves the cluster.",
    );
  }
  return { ...stored, incarnation: stored.incarnation + 1 };
}

/** Parse a stored identity record (a `StoreError` `io` if it is not one: the store is damaged). */
export function parseIdentity(where: string, text: string): StoreIdentity {
  const v = JSON.parse(text) as Partial<StoreIdentity>;
  if (
    typeof v.cluster !== 'string' ||
    typeof v.member !== 'number' ||
    typeof v.storeId !== 'string' ||
    typeof v.incarnation !== 'number'
  ) {
    throw new StoreError('io', `the identity record of the store at ${where} is damaged: ${text}`);
  }
  return { cluster: v.cluster, member: v.member, storeId: v.storeId, incarnation: v.incarnation };
}
