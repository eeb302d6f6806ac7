import type { CSCallOptions, CSObject, EntryArgs } from './cs-object.js';

/**
 * A held critical section: returned by {@link lease}; `release()` (or leaving an `await using`
 * block) calls `exit()` once.
 */
export interface CSLease extends AsyncDisposable {
  /** Exits the CS (idempotent: later calls return the first call's promise). */
  release(opts?: CSCallOptions): Promise<void>;
  /** True once `release` was called. */
  readonly released: boolean;
}

/**
 * Enters the CS and returns a lease that exits it on `release()` or at the end of an
 * `await using` block:
 *
 * ```ts
 * await using held = await lease(cs);
 * // … in the critical section …
 * ```
 * `await using` needs TypeScript ≥ 5.2 or Node.js ≥ 24; on Node.js 20 and 22 in plain JavaScript
 * call `release()` in a `finally` instead.
 * @throws whatever `cs.entry` rejects with (`CSMICError`, `AbortError`).
 */
export async function lease<Req = void>(cs: CSObject<Req>, ...args: EntryArgs<Req>): Promise<CSLease> {
  await cs.entry(...args);
  let released: Promise<void> | undefined;
  return {
    get released() {
      return released !== undefined;
    },
    release(opts?: CSCallOptions) {
      released ??= cs.exit(opts);
      return released;
    },
    [Symbol.asyncDispose]() {
      released ??= cs.exit();
      return released;
    },
  };
}

/**
 * Runs `fn` inside the critical section (the `runExclusive` pattern): `entry`, `fn`, then `exit`
 * — also when `fn` throws, in which case its error is rethrown after the exit.
 *
 * `args` are `entry`'s arguments: `withCS(cs, fn)`, `withCS(cs, fn, { signal })`, or with a
 * request, `withCS(hk, fn, 3)`.
 */
export async function withCS<T, Req = void>(
  cs: CSObject<Req>,
  fn: () => T | Promise<T>,
  ...args: EntryArgs<Req>
): Promise<T> {
  await cs.entry(...args);
  try {
    return await fn();
  } finally {
    await cs.exit();
  }
}
