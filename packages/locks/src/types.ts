/**
 * The shapes of `@critsec/locks`' API: the lock a callback gets, the request options, the
 * cluster-wide snapshot, the manager's options and the manager.
 */
import type { ProcessId, ProtocolClock } from '@critsec/core';
import type { Coterie, HKArbiter } from '@critsec/coteries';
import type { RootEndpoint } from '@critsec/transport';
import type { Registry } from 'prom-client';

/** A lock's mode, as in the Web Locks API: `exclusive` alone, `shared` with other shared holders. */
export type LockMode = 'exclusive' | 'shared';

/** What the callback of a granted request gets (the Web Locks API's `Lock`, plus the grant). */
export interface Lock {
  /** The lock's name. */
  readonly name: string;
  /** The mode it is held in. */
  readonly mode: LockMode;
  /**
   * The fencing token of the grant (grows with every grant of the name), or `undefined` while
   * the protocol gives none (time-bounded grants, issue 28, give it).
   */
  readonly token: number | undefined;
  /** Aborted once the grant may have expired (never, without a time-bounded grant). */
  readonly signal: AbortSignal;
  /** Time left of the grant, in the protocol clock's unit (`Infinity` without a time-bounded grant). */
  remaining(): number;
}

/** Options of {@link LockManager.request}. */
export interface LockRequestOptions {
  /** `'exclusive'` (default) or `'shared'` (only on names the manager's `shared` option lists). */
  readonly mode?: LockMode;
  /**
   * Grant only if the lock can be granted at once: otherwise the callback is called with `null`
   * (see the README's "ifAvailable" for what it costs). Not with `signal` or `timeout`.
   */
  readonly ifAvailable?: boolean;
  /** Withdraws the request while it waits: it rejects with `AbortError`, partial grants given back. */
  readonly signal?: AbortSignal;
  /**
   * Withdraws the request if it is not granted within this time, in the manager clock's unit (ms
   * with the default monotonic clock; a finite number ≥ 0): it rejects with `LockTimeoutError`.
   */
  readonly timeout?: number;
}

/** One lock held or asked for, in a {@link LockSnapshot}. */
export interface LockInfo {
  /** The lock's name. */
  readonly name: string;
  /** The mode held or asked for. */
  readonly mode: LockMode;
  /** The member holding or asking. */
  readonly holder: ProcessId;
  /** The fencing token of the grant (`undefined` when the protocol gives none, and while pending). */
  readonly token: number | undefined;
}

/** What {@link LockManager.query} returns: the cluster-wide view (the Web Locks API's `LockManagerSnapshot`). */
export interface LockSnapshot {
  /** Locks held, by name then holder. */
  readonly held: readonly LockInfo[];
  /** Requests waiting (in this member's line or in the protocol), by name then holder. */
  readonly pending: readonly LockInfo[];
  /**
   * The members whose state is missing from this snapshot because the asking member suspects
   * them (left, or down or silent past the transport's failure detector timeout), ascending;
   * empty when every member answered. Their holds and waits are not in `held` / `pending`.
   */
  readonly unreachable: readonly ProcessId[];
}

/** Options of `createLockManager`. */
export interface LockManagerOptions {
  /**
   * This member's root endpoint (any transport: `SimNetwork.endpoint(id)`, a TCP transport's
   * `endpoint`): the manager uses the channel `channel` of it and its `onUnopened` hook.
   */
  readonly endpoint: RootEndpoint;
  /** This member's id (0 … n − 1), the endpoint's `self`. */
  readonly id: ProcessId;
  /** The membership's size (≥ 1; ≥ 2 for shared names). */
  readonly n: number;
  /** The coterie of exclusive-only names (Maekawa); `majority(n)` by default. */
  readonly coterie?: Coterie;
  /** The units of a shared name: at most k shared holders at once, exclusive takes all k; n − 1 by default (1 ≤ k < n). */
  readonly k?: number;
  /** The (h,k)-arbiter of shared names; `uniformHKArbiter(n, k)` by default. */
  readonly arbiter?: HKArbiter;
  /**
   * The names that may be requested `shared` (they run h-out-of-k for both modes; every other
   * name runs Maekawa, exclusive only): a list or a predicate. **The same on every member.**
   */
  readonly shared?: readonly string[] | ((name: string) => boolean);
  /** The channel of the root endpoint the manager uses (default `'locks'`). */
  readonly channel?: string;
  /** Where the metrics go (default: a registry of the manager's own, `manager.registry`). */
  readonly registry?: Registry;
  /** The clock `timeout` and time-bounded grants are measured with (default: the monotonic clock, ms). */
  readonly clock?: ProtocolClock;
  /**
   * Fencing tokens (Maekawa's `fencing` for exclusive-only names, h-out-of-k's for shared ones,
   * issue 28 §2): every holder's `lock.token` strictly increases across successive holders of the
   * name that conflict — on a shared name an exclusive holder against any other, shared holders
   * may share or interleave tokens — with no central counter; one more round trip and one synced
   * write per arbiter per acquisition. Default false; implied by {@link ttl}.
   */
  readonly fencing?: boolean;
  /**
   * Time-bounded grants for every name (Maekawa's `ttl`, h-out-of-k's for shared names, issue 28 §1), in the clock's
   * unit (ms by default): an arbiter reclaims a grant its holder did not renew within `ttl`, so a
   * crashed or cut-off holder frees the name; the holder renews while its callback runs and
   * `lock.signal` aborts at its deadline (last confirmed renewal + `ttl − driftMargin`). Implies
   * {@link fencing}. Default: none (a grant lasts until released).
   */
  readonly ttl?: number;
  /** The drift margin of {@link ttl} (same unit, 0 ≤ margin < ttl; default ttl / 10). */
  readonly driftMargin?: number;
  /**
   * Quorum reselection for every name (issue 28 §4; a deviation from the papers): a request whose
   * quorum holds a member the endpoint's failure detector suspects (`RootEndpoint.suspicions`: a
   * member that left at once, a dead or cut-off one after the TCP transport's `suspectAfterMs`)
   * moves to another quorum avoiding every suspect, its priority kept (S3) — for an exclusive-only
   * name Maekawa's `reselect` (rules S1–S5 of `@critsec/mutex`) over `coterie`'s family, for a
   * shared name h-out-of-k's `reselect` (its rules S1–S5) over the quorums `Q_{h,k}` of
   * {@link arbiter} for the h units asked; the `ifAvailable` probe asks that same quorum.
   *
   * Guarantees: **safety is unconditional** — any two quorums of the family intersect (for a
   * shared name: any assignment of `Q_{h,k}` quorums to conflicting requests, Theorem 1 of the
   * h-out-of-k paper), so wrong suspicions never let conflicting holders in; **liveness** while
   * some quorum avoiding the suspected members is alive and no dead member holds a lock (units)
   * that quorum needs (with {@link ttl} a dead holder's locks come back within it). The same on
   * every member. Default false: a name whose quorum holds a departed member waits for it.
   *
   * @throws LockOptionsError (from `createLockManager`) when not a boolean; over a coterie whose
   *   family has a single quorum (`majority(1)`, `majority(2)`…: nothing to move to — the message
   *   lists the coteries that have alternatives); or, with {@link shared} names (a non-empty list
   *   or a predicate), over an (h,k)-arbiter with a single quorum for some h — the default
   *   `uniformHKArbiter(n, n − 1)` is one: pass `k ≤ n − 2` or an arbiter with alternatives (the
   *   arbiter is then built at creation).
   */
  readonly reselect?: boolean;
  /** Live instances past which idle ones are reclaimed when a new one is built (default 1 024). */
  readonly maxLiveNames?: number;
  /** Problems that did not stop the manager: dropped malformed messages, a name's kind disagreeing. */
  readonly onError?: (err: Error) => void;
}

/** A member's lock manager (see `createLockManager`). */
export interface LockManager {
  /** This member. */
  readonly id: ProcessId;
  /** The metrics registry (the one given, or the manager's own). */
  readonly registry: Registry;
  /** Protocol instances live now (names in use at this member or its arbiter role). */
  readonly live: number;
  /** Names whose instance was reclaimed and is kept as its durable state. */
  readonly kept: number;
  /**
   * Requests the lock `name`; `callback(lock)` runs while it is held and the lock is released
   * when the callback's promise settles (also when it throws); resolves with the callback's result.
   * @throws LockNameError, LockOptionsError (rejects) for a bad name, mode, timeout or callback;
   *   `AbortError` when `signal` aborts the wait; `LockTimeoutError` when `timeout` passes first;
   *   `LockManagerClosedError` after `close()`.
   */
  request<T>(name: string, callback: (lock: Lock) => T | PromiseLike<T>): Promise<T>;
  /** {@link LockManager.request} with `ifAvailable: true`: the callback gets `null` when the lock is not free at once. */
  request<T>(
    name: string,
    options: LockRequestOptions & { readonly ifAvailable: true },
    callback: (lock: Lock | null) => T | PromiseLike<T>,
  ): Promise<T>;
  /** {@link LockManager.request} with options. */
  request<T>(
    name: string,
    options: LockRequestOptions,
    callback: (lock: Lock) => T | PromiseLike<T>,
  ): Promise<T>;
  /**
   * The cluster-wide view: every member's own holds and waits, asked for on the control channel
   * (one round trip; each answer is that member's state when it handled the question, so the
   * whole is exact at a quiescent point and otherwise a view within one round trip). Waits for
   * every member's answer but those of members this one suspects (not asked, or dropped when
   * suspected while the question is out; listed in `unreachable`): with the TCP transport's
   * failure detector a dead member delays it by at most `suspectAfterMs`. Without a detector it
   * waits for every member: give it a `signal`.
   * @throws AbortError (rejects) when `signal` aborts first; `LockManagerClosedError` after `close()`.
   */
  query(options?: { readonly signal?: AbortSignal }): Promise<LockSnapshot>;
  /** Reclaims every idle instance now (see the README's "Idle names"); returns how many. */
  reclaimIdle(): number;
  /** Rejects waiting requests with `LockManagerClosedError`, closes every instance; idempotent. */
  close(): Promise<void>;
}
