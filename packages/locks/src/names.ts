/**
 * Lock names and the channels that carry them. Each name has its own protocol instance on its own
 * channel `<prefix>/<kind>:<name>` of the membership's root endpoint: kind `x` (exclusive-only,
 * Maekawa) or `s` (shared-capable, h-out-of-k). The kind is part of the path, so two members that
 * disagree on a name's kind never mix one protocol's messages into the other's.
 */
import { LockNameError } from './errors.js';

/** Longest lock name, in UTF-16 code units (the TCP transport carries channel paths of ≤ 1024). */
export const MAX_LOCK_NAME_LENGTH = 256;

/** The protocol a name runs: `x` Maekawa (exclusive only), `s` h-out-of-k (shared and exclusive). */
export type NameKind = 'x' | 's';

/**
 * Checks a lock name.
 * @throws LockNameError when it is not a string, empty, longer than {@link MAX_LOCK_NAME_LENGTH},
 *   or contains `/` (the channel separator, which the channel layer cannot carry in one name).
 */
export function checkLockName(name: unknown): asserts name is string {
  if (typeof name !== 'string') {
    throw new LockNameError(`a lock name must be a string, got ${typeof name}`, name);
  }
  if (name.length === 0) throw new LockNameError('a lock name must not be empty', name);
  if (name.length > MAX_LOCK_NAME_LENGTH) {
    throw new LockNameError(
      `a lock name has at most ${MAX_LOCK_NAME_LENGTH} characters, got ${name.length} ('${name.slice(0, 32)}…')`,
      name,
    );
  }
  if (name.includes('/')) {
    throw new LockNameError(
      `a lock name cannot contain '/' (the channel separator), got ${JSON.stringify(name)}`,
      name,
    );
  }
}

/** The channel name (under the manager's prefix) of a name's instance. */
export function channelOf(kind: NameKind, name: string): string {
  return `${kind}:${name}`;
}

/** The kind and name a channel under the prefix carries, or `undefined` for another channel. */
export function parseChannel(rest: string): { kind: NameKind; name: string } | undefined {
  const kind = rest.slice(0, 2);
  if (kind !== 'x:' && kind !== 's:') return undefined;
  const name = rest.slice(2);
  if (name.length === 0 || name.length > MAX_LOCK_NAME_LENGTH || name.includes('/')) return undefined;
  return { kind: kind[0] as NameKind, name };
}
