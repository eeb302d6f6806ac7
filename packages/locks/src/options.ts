/**
 * The checks of a manager's options and of one request's arguments: everything refused with a
 * typed error before anything is sent.
 */
import { type Coterie, type HKArbiter, majority, uniformHKArbiter } from '@critsec/coteries';
import { LockOptionsError } from './errors.js';
import { checkReselect } from './reselect.js';
import { checkLockName } from './names.js';
import type { Lock, LockManagerOptions, LockMode, LockRequestOptions } from './types.js';

/** A request's arguments, checked. */
export interface CheckedRequest {
  readonly name: string;
  readonly mode: LockMode;
  readonly ifAvailable: boolean;
  readonly signal: AbortSignal | undefined;
  readonly timeout: number | undefined;
  readonly callback: (lock: Lock | null) => unknown;
}

/**
 * Checks `request(name, [options,] callback)`'s arguments.
 * @throws LockNameError for a bad name; LockOptionsError for anything else refused.
 */
export function checkRequest(name: unknown, a: unknown, b: unknown): CheckedRequest {
  checkLockName(name);
  const [options, callback] = typeof a === 'function' && b === undefined ? [{}, a] : [a ?? {}, b];
  if (typeof options !== 'object' || options === null) {
    throw new LockOptionsError(`request('${name}', options, callback): options must be an object`);
  }
  if (typeof callback !== 'function') {
    throw new LockOptionsError(
      `request('${name}', …): the callback must be a function, got ${typeof callback}`,
    );
  }
  const o = options as LockRequestOptions;
  const mode = o.mode ?? 'exclusive';
  if (mode !== 'exclusive' && mode !== 'shared') {
    throw new LockOptionsError(
      `request('${name}'): mode must be 'exclusive' or 'shared', got ${JSON.stringify(mode)}`,
    );
  }
  const timeout = o.timeout;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout >= 0)) {
    throw new LockOptionsError(
      `request('${name}'): timeout must be a finite number ≥ 0, got ${String(timeout)}`,
    );
  }
  const ifAvailable = o.ifAvailable === true;
  if (ifAvailable && (o.signal !== undefined || timeout !== undefined)) {
    throw new LockOptionsError(
      `request('${name}'): ifAvailable takes neither signal nor timeout (it never waits)`,
    );
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) {
    throw new LockOptionsError(`request('${name}'): signal must be an AbortSignal`);
  }
  return {
    name,
    mode,
    ifAvailable,
    signal: o.signal,
    timeout,
    callback: callback as CheckedRequest['callback'],
  };
}

/** The manager's settings, checked and defaulted. */
export interface ManagerSettings {
  readonly coterie: Coterie;
  /** Built on first use of a shared name (n ≥ 2), or at creation with `reselect` and `shared` names. */
  readonly arbiter: () => HKArbiter;
  readonly k: number;
  readonly isShared: (name: string) => boolean;
  readonly channel: string;
  readonly maxLiveNames: number;
  /** The time-bounded grant options of both protocols (issue 28). */
  readonly grants: { readonly fencing?: boolean; readonly ttl?: number; readonly driftMargin?: number };
  /** Quorum reselection for every name (Maekawa's and h-out-of-k's `reselect`, issue 28 §4); see `reselect.ts`. */
  readonly reselect: boolean;
}

/**
 * Checks a manager's options.
 * @throws LockOptionsError for a bad id, n, k, endpoint, channel, `shared`, `maxLiveNames`, `fencing`,
 *   `ttl`, `driftMargin` or `reselect` (see `checkReselect`).
 */
export function checkManagerOptions(o: LockManagerOptions): ManagerSettings {
  if (typeof o !== 'object' || o === null)
    throw new LockOptionsError('createLockManager(options): options must be an object');
  const { id, n } = o;
  if (!(Number.isSafeInteger(n) && n >= 1))
    throw new LockOptionsError(`createLockManager: n must be an integer ≥ 1, got ${String(n)}`);
  if (!(Number.isSafeInteger(id) && id >= 0 && id < n)) {
    throw new LockOptionsError(`createLockManager: id must be an integer in 0 … ${n - 1}, got ${String(id)}`);
  }
  if (typeof o.endpoint?.onUnopened !== 'function' || o.endpoint.self !== id) {
    throw new LockOptionsError(
      `createLockManager: endpoint must be member ${id}'s root endpoint of @critsec/transport (with onUnopened, self = id)`,
    );
  }
  const k = o.k ?? Math.max(1, n - 1);
  if (!(Number.isSafeInteger(k) && k >= 1 && (k < n || n === 1))) {
    throw new LockOptionsError(
      `createLockManager: k must be an integer in 1 … n − 1 = ${n - 1}, got ${String(k)}`,
    );
  }
  const channel = o.channel ?? 'locks';
  if (typeof channel !== 'string' || channel.length === 0 || channel.includes('/')) {
    throw new LockOptionsError(
      `createLockManager: channel must be a non-empty string without '/', got ${JSON.stringify(channel)}`,
    );
  }
  const maxLiveNames = o.maxLiveNames ?? 1_024;
  if (!(Number.isSafeInteger(maxLiveNames) && maxLiveNames >= 0)) {
    throw new LockOptionsError(
      `createLockManager: maxLiveNames must be an integer ≥ 0, got ${String(maxLiveNames)}`,
    );
  }
  for (const [key, v] of [
    ['ttl', o.ttl],
    ['driftMargin', o.driftMargin],
  ] as const) {
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
      throw new LockOptionsError(`createLockManager: ${key} must be a finite number ≥ 0, got ${String(v)}`);
    }
  }
  if (o.fencing !== undefined && typeof o.fencing !== 'boolean') {
    throw new LockOptionsError(`createLockManager: fencing must be a boolean, got ${String(o.fencing)}`);
  }
  let built = o.arbiter;
  const arbiter = () => {
    built ??= uniformHKArbiter(n, k);
    return built;
  };
  const coterie = o.coterie ?? majority(n);
  return {
    coterie,
    arbiter,
    k,
    isShared: sharedPredicate(o.shared),
    channel,
    maxLiveNames,
    grants: {
      ...(o.fencing === undefined ? {} : { fencing: o.fencing }),
      ...(o.ttl === undefined ? {} : { ttl: o.ttl }),
      ...(o.driftMargin === undefined ? {} : { driftMargin: o.driftMargin }),
    },
    reselect: checkReselect({ reselect: o.reselect, shared: o.shared, coterie, n, k, arbiter }),
  };
}

function sharedPredicate(shared: LockManagerOptions['shared']): (name: string) => boolean {
  if (shared === undefined) return () => false;
  if (typeof shared === 'function') return shared;
  if (Array.isArray(shared) && shared.every((s) => typeof s === 'string')) {
    const set = new Set(shared);
    return (name) => set.has(name);
  }
  throw new LockOptionsError(
    'createLockManager: shared must be a list of names or a predicate (name) => boolean',
  );
}
