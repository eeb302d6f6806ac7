/**
 * `request(name, [options,] callback)`'s arguments, checked before anything is sent — what the
 * service could not tell (a callback, `ifAvailable` with a wait) or would answer only after a
 * round trip; the name's own rules are the service's (`INVALID_NAME`).
 */
import { LockRequestError } from './errors.js';
import type { Lock, LockMode, LockRequestOptions } from './types.js';

/** A request's arguments, checked. */
export interface CheckedRequest {
  readonly name: string;
  readonly mode: LockMode | undefined;
  readonly ifAvailable: boolean;
  readonly signal: AbortSignal | undefined;
  /** ms, or undefined: wait as long as the session lives. */
  readonly timeout: number | undefined;
  readonly callback: (lock: Lock | null) => unknown;
}

const refuse = (message: string) => new LockRequestError('INVALID_OPTIONS', 0, message);

/**
 * Checks `request(name, a, b)`'s arguments (`a` the options or the callback).
 * @throws LockRequestError `INVALID_NAME` for a name that is not a string; `INVALID_OPTIONS` (status
 *   0: nothing was sent) for a callback that is not a function, an unknown mode, a timeout that is
 *   not a finite number ≥ 0, `ifAvailable` with `signal` or `timeout`.
 */
export function checkRequest(name: unknown, a: unknown, b: unknown): CheckedRequest {
  if (typeof name !== 'string')
    throw new LockRequestError('INVALID_NAME', 0, `request(name): a name is a string, got ${typeof name}`);
  const options = (typeof a === 'function' ? {} : (a ?? {})) as LockRequestOptions;
  const callback = typeof a === 'function' ? a : b;
  if (typeof callback !== 'function') throw refuse(`request('${name}'): the callback is not a function`);
  const { mode, ifAvailable = false, signal, timeout } = options;
  if (mode !== undefined && mode !== 'exclusive' && mode !== 'shared')
    throw refuse(`request('${name}'): mode is 'exclusive' or 'shared', got ${String(mode)}`);
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout >= 0))
    throw refuse(`request('${name}'): timeout is a finite number of ms ≥ 0, got ${String(timeout)}`);
  if (ifAvailable && (signal !== undefined || timeout !== undefined))
    throw refuse(`request('${name}'): ifAvailable does not wait, so it takes no signal or timeout`);
  return { name, mode, ifAvailable, signal, timeout, callback: callback as CheckedRequest['callback'] };
}
