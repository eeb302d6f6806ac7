/**
 * The client's public shapes: its options, the lock a callback gets, a request's options and the
 * cluster-wide snapshot — `@critsec/locks`' shapes as far as the service's API carries them, the
 * times in **ms**.
 */
import type { Fetch } from './http.js';

/** A lock's mode. */
export type LockMode = 'exclusive' | 'shared';

/** Options of `createLockClient`. */
export interface LockClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:7070` (what `critsec node --serve` listens on). */
  readonly baseUrl: string;
  /** The bearer token the service was given (`--token-file`), sent as `Authorization: Bearer …`. */
  readonly token?: string;
  /**
   * The session's ttl, ms (default 10 000; the service accepts 100 … 3 600 000). The client renews
   * it every third of it; a client that cannot for a whole ttl has lost it (its locks released).
   */
  readonly sessionTtlMs?: number;
  /** The deadline of every call but a waiting acquire, ms (default 10 000). */
  readonly callTimeoutMs?: number;
  /** The `fetch` to call the service with (default the global `fetch`). */
  readonly fetch?: Fetch;
}

/** What a request's callback gets while it holds the lock. */
export interface Lock {
  /** The lock's name. */
  readonly name: string;
  /** The mode it is held in. */
  readonly mode: LockMode;
  /**
   * The fencing token of the grant — strictly increasing across the name's successive holders,
   * cluster-wide — when the members run with `fencing` or a `ttl`; else `undefined`. Hand it to
   * the resource, which refuses a token below the highest it has seen.
   */
  readonly token: number | undefined;
  /**
   * Aborted when the lock may no longer be held: the session was lost (reason a `SessionError`)
   * or the client closed (`ClientClosedError`). The request then rejects with that reason.
   */
  readonly signal: AbortSignal;
}

/** Options of a request (`@critsec/locks`' `LockRequestOptions`, as the API carries them). */
export interface LockRequestOptions {
  /** `'exclusive'` (default) or `'shared'` (only on names the members list in `--shared`). */
  readonly mode?: LockMode;
  /** Grant only if free at once: otherwise the callback gets `null`. Not with `signal` or `timeout`. */
  readonly ifAvailable?: boolean;
  /**
   * Withdraws the request while it waits: the HTTP request is aborted, which withdraws the wait
   * at the service (or releases a grant that crossed the abort); the request rejects with the
   * signal's reason (an `AbortError` by default).
   */
  readonly signal?: AbortSignal;
  /** Withdraws the request if not granted within this many ms (a finite number ≥ 0): `LockError` `LOCK_TIMEOUT`. */
  readonly timeout?: number;
}

/** One lock held or asked for, in a {@link LockSnapshot}. */
export interface LockInfo {
  /** The lock's name. */
  readonly name: string;
  /** Its mode. */
  readonly mode: LockMode;
  /** The member (id) holding or asking for it — for a client, the member whose service it called. */
  readonly holder: number;
  /** The fencing token of the grant (`null` without fencing, and for a request still waiting). */
  readonly token: number | null;
}

/** The cluster-wide view `query()` answers (`GET /v1/locks`, `query()` of `@critsec/locks`). */
export interface LockSnapshot {
  /** Locks held. */
  readonly held: readonly LockInfo[];
  /** Requests waiting. */
  readonly pending: readonly LockInfo[];
  /** Members whose state is missing: the answering member suspects them. */
  readonly unreachable: readonly number[];
}
