/*
 * The shape of `entry()` / `exit()` options (`CSCallOptions`), checked once by `CSObjectBase`
 * before any protocol step, so a malformed call is a one-line `ConfigurationError` naming the
 * value instead of a `TypeError` from deep inside an abort listener.
 */
import type { CSCallOptions } from './cs-object.js';
import { ConfigurationError } from './errors.js';

/** True for an `AbortSignal` (or an object with its shape: `aborted`, `add`/`removeEventListener`). */
function isAbortSignal(x: unknown): x is AbortSignal {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Partial<AbortSignal>;
  return (
    typeof s.aborted === 'boolean' &&
    typeof s.addEventListener === 'function' &&
    typeof s.removeEventListener === 'function'
  );
}

/** A value as an error message shows it: strings quoted, objects named, the rest as written. */
function shown(x: unknown): string {
  if (typeof x === 'string') return `'${x}'`;
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return 'an object';
  if (typeof x === 'function') return 'a function';
  return String(x);
}

/**
 * The options of a call `op` on process `id`, checked: `undefined`, or an object whose `signal`
 * is absent, `undefined` or an `AbortSignal` (other keys are left alone).
 * @returns the error to reject the call with, or `null` when the options are well-formed.
 */
export function callOptionsError(op: 'entry' | 'exit', id: number, opts: unknown): ConfigurationError | null {
  if (opts === undefined) return null;
  const at = `${op}() on P${id}`;
  if (typeof opts !== 'object' || opts === null) {
    return new ConfigurationError(`${at}: the options { signal? } must be an object, got ${shown(opts)}`);
  }
  const { signal } = opts as CSCallOptions;
  if (signal === undefined || isAbortSignal(signal)) return null;
  return new ConfigurationError(`${at}: signal must be an AbortSignal, got ${shown(signal)}`);
}
