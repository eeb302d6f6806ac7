/**
 * `createLockClient`: a session of the lock service kept alive, and `request(name, [options,]
 * callback)` over it in `@critsec/locks`' shape — a long-poll acquire (withdrawn at the service
 * when its signal aborts the HTTP request), the callback while held, the release when the
 * callback's promise settles — plus `query()` and `close()`.
 */
import type { components } from '../generated/api.js';
import {
  ClientClosedError,
  ConnectionError,
  LockClientError,
  LockError,
  LockRequestError,
  SessionError,
} from './errors.js';
import { type ApiClient, apiClient, call } from './http.js';
import { NameQueues, untilAborted } from './name-queue.js';
import { type CheckedRequest, checkRequest } from './request-options.js';
import { Session, type SessionTiming } from './session.js';
import { linked, sleep } from './signals.js';
import type { Lock, LockClientOptions, LockRequestOptions, LockSnapshot } from './types.js';

type Grant = components['schemas']['LockResponse'];

/** A client of one lock service (see `createLockClient`). */
export interface LockClient {
  /**
   * Runs `callback(lock)` while the lock `name` is held by this client's session; releases it when
   * the callback's promise settles (also when it throws); resolves with the callback's result.
   * @throws what the callback threw; the signal's reason when `signal` aborted the wait;
   *   `LockError` (`LOCK_TIMEOUT`, `LOCK_EXPIRED` at the release: effects under the grant may not
   *   have been exclusive); `SessionError` when the session was lost meanwhile (the lock's signal
   *   aborted then) or before this call; `ClientClosedError`; `LockRequestError`;
   *   `ServiceUnavailableError`; `ConnectionError` (the service did not answer a call in time).
   */
  request<T>(name: string, callback: (lock: Lock) => T | PromiseLike<T>): Promise<Awaited<T>>;
  /** {@link LockClient.request} with `ifAvailable: true`: the callback gets `null` when the lock is not free at once. */
  request<T>(
    name: string,
    options: LockRequestOptions & { readonly ifAvailable: true },
    callback: (lock: Lock | null) => T | PromiseLike<T>,
  ): Promise<Awaited<T>>;
  /** {@link LockClient.request} with options. */
  request<T>(
    name: string,
    options: LockRequestOptions,
    callback: (lock: Lock) => T | PromiseLike<T>,
  ): Promise<Awaited<T>>;
  /**
   * The cluster-wide snapshot of locks held and asked for (`GET /v1/locks`).
   * @throws as a call: `ConnectionError`, `LockRequestError`, `ServiceUnavailableError`, or the
   *   signal's reason.
   */
  query(options?: { readonly signal?: AbortSignal }): Promise<LockSnapshot>;
  /**
   * Ends the session (`DELETE`: the service aborts its waits and releases its locks): waiting
   * requests reject with `ClientClosedError`, held locks' signals abort with it. Resolves once the
   * service answered or the call's deadline passed. Idempotent.
   */
  close(): Promise<void>;
}

const DEFAULT_TTL_MS = 10_000;
const DEFAULT_CALL_TIMEOUT_MS = 10_000;

/**
 * A client of the lock service at `options.baseUrl`. It opens its session at the first request and
 * keeps it alive (a keepalive every third of `sessionTtlMs`). Fetch-based, no Node-only API:
 * browsers, Deno, Bun, Node ≥ 20.
 * @throws LockRequestError `INVALID_OPTIONS` (status 0) for a `baseUrl` that is not a URL, a
 *   `sessionTtlMs` outside 100 … 3 600 000 or not an integer, a `callTimeoutMs` not > 0.
 */
export function createLockClient(options: LockClientOptions): LockClient {
  const refuse = (what: string) => new LockRequestError('INVALID_OPTIONS', 0, `createLockClient: ${what}`);
  if (!isUrl(options.baseUrl))
    throw refuse(`baseUrl is a URL (http://host:port), got ${String(options.baseUrl)}`);
  const ttlMs = options.sessionTtlMs ?? DEFAULT_TTL_MS;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 100 || ttlMs > 3_600_000)
    throw refuse(`sessionTtlMs is an integer from 100 to 3600000 ms, got ${ttlMs}`);
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  if (!(callTimeoutMs > 0)) throw refuse(`callTimeoutMs is > 0 ms, got ${callTimeoutMs}`);
  return new Client(apiClient(options.baseUrl, options.token, options.fetch), { ttlMs, callTimeoutMs });
}

class Client implements LockClient {
  readonly #api: ApiClient;
  readonly #timing: SessionTiming;
  #session: Session | undefined;
  #lost: LockClientError | undefined;
  #closed = false;
  readonly #queues = new NameQueues();

  constructor(api: ApiClient, timing: SessionTiming) {
    this.#api = api;
    this.#timing = timing;
  }

  request<T>(name: string, a: unknown, b?: unknown): Promise<Awaited<T>> {
    let r: CheckedRequest;
    try {
      r = checkRequest(name, a, b);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#request(r) as Promise<Awaited<T>>;
  }

  async #request(r: CheckedRequest): Promise<unknown> {
    if (this.#closed) throw new ClientClosedError('CLIENT_CLOSED', 0, `request('${r.name}') after close()`);
    const lost = this.#lost;
    this.#lost = undefined;
    if (lost !== undefined) throw lost;
    r.signal?.throwIfAborted();
    if (r.ifAvailable && this.#queues.busy(r.name)) return r.callback(null); // this client waits or holds it
    const started = performance.now();
    const queued = linked([r.signal], r.timeout, '', () => timeoutError(r.name, r.timeout));
    let leave: () => void;
    try {
      leave = await this.#queues.enter(r.name, queued.signal);
    } finally {
      queued.dispose();
    }
    try {
      const left =
        r.timeout === undefined ? undefined : Math.max(0, r.timeout - (performance.now() - started));
      const session = this.#current();
      const id = await untilAborted(session.id, r.signal);
      const grant = await this.#acquire(session, id, { ...r, timeout: left });
      if (grant === null) return await r.callback(null);
      return await this.#hold(session, id, r, grant);
    } finally {
      leave();
    }
  }

  /** The live session, or a new one (after none, or a lost one). */
  #current(): Session {
    if (this.#closed) throw new ClientClosedError('CLIENT_CLOSED', 0, 'the client was closed');
    const live = this.#session;
    if (live !== undefined && !live.ended.signal.aborted) return live;
    const s = new Session(this.#api, this.#timing);
    s.ended.signal.addEventListener('abort', () => {
      if (this.#session === s && s.ended.signal.reason instanceof SessionError)
        this.#lost = s.ended.signal.reason;
    });
    this.#session = s;
    return s;
  }

  /** The long-poll acquire: the grant, or null (`ifAvailable` and not free). */
  async #acquire(session: Session, id: string, r: CheckedRequest): Promise<Grant | null> {
    const { name, mode, ifAvailable, timeout } = r;
    const body = {
      session: id,
      ...(mode === undefined ? {} : { mode }),
      ...(ifAvailable ? { ifAvailable } : {}),
      ...(timeout === undefined ? {} : { timeoutMs: Math.ceil(timeout) }),
    };
    // a wait without a timeout lasts as long as the session (the session's end aborts it)
    const deadline = ifAvailable ? 0 : timeout === undefined ? undefined : Math.ceil(timeout);
    let grant: Grant;
    try {
      grant = await call(
        `acquire '${name}'`,
        (signal) => this.#api.POST('/v1/locks/{name}/acquire', { params: { path: { name } }, body, signal }),
        [r.signal, session.ended.signal],
        deadline === undefined ? undefined : deadline + this.#timing.callTimeoutMs,
      );
    } catch (err) {
      if (ifAvailable && err instanceof LockError && err.code === 'LOCK_UNAVAILABLE') return null;
      // aborted, or no answer: a grant may have crossed the abort — give it back
      if (!(err instanceof LockClientError) || err instanceof ConnectionError)
        await this.#forget(session, id, name);
      throw err;
    }
    if (r.signal?.aborted) {
      await this.#forget(session, id, name);
      throw r.signal.reason;
    }
    return grant;
  }

  /** Runs the callback with the grant, then releases it. */
  async #hold(session: Session, id: string, r: CheckedRequest, grant: Grant): Promise<unknown> {
    const held = linked([session.ended.signal], undefined, '');
    const lock: Lock = {
      name: r.name,
      mode: grant.mode,
      token: grant.token ?? undefined,
      signal: held.signal,
    };
    try {
      let result: unknown;
      try {
        result = await r.callback(lock);
      } catch (err) {
        await this.#release(session, id, r.name).catch(() => {});
        throw err;
      }
      await this.#release(session, id, r.name);
      return result;
    } finally {
      held.dispose();
    }
  }

  /**
   * Releases `name`: retried while unanswered; past the session's ttl of failures the session is
   * given up here (no more keepalives), so the service expires it and releases the lock.
   */
  async #release(session: Session, id: string, name: string): Promise<void> {
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      session.ended.signal.throwIfAborted();
      try {
        await call(
          `release '${name}'`,
          (signal) =>
            this.#api.POST('/v1/locks/{name}/release', {
              params: { path: { name } },
              body: { session: id },
              signal,
            }),
          [session.ended.signal],
          this.#timing.callTimeoutMs,
        );
        return;
      } catch (err) {
        if (attempt > 0 && err instanceof LockError && err.code === 'LOCK_NOT_HELD') return; // an earlier try did it
        if (!(err instanceof ConnectionError)) throw err;
        if (performance.now() - started >= this.#timing.ttlMs) {
          session.end(
            new SessionError(
              'SESSION_EXPIRED',
              0,
              `${err.message}; the session was given up so that the service expires it and releases its locks`,
            ),
          );
          throw err;
        }
      }
      await sleep(Math.min(1_000, this.#timing.ttlMs / 3), session.ended.signal);
    }
  }

  /** Best effort: releases `name` if a grant crossed an abort (answered LOCK_NOT_HELD otherwise). */
  async #forget(session: Session, id: string, name: string): Promise<void> {
    if (session.ended.signal.aborted) return; // the session's end releases it
    await call(
      `release '${name}'`,
      (signal) =>
        this.#api.POST('/v1/locks/{name}/release', {
          params: { path: { name } },
          body: { session: id },
          signal,
        }),
      [session.ended.signal],
      this.#timing.callTimeoutMs,
    ).catch(() => {});
  }

  async query(options: { readonly signal?: AbortSignal } = {}): Promise<LockSnapshot> {
    return call(
      'query the locks',
      (signal) => this.#api.GET('/v1/locks', { signal }),
      [options.signal],
      this.#timing.callTimeoutMs,
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#lost = undefined;
    await this.#session?.close();
  }
}

/** A request's timeout passed while this client's own earlier requests for the name held it (status 0). */
function timeoutError(name: string, timeout: number | undefined): LockError {
  return new LockError(
    'LOCK_TIMEOUT',
    0,
    `acquire '${name}': not granted within ${timeout} ms (this client's earlier requests for it held it)`,
  );
}

function isUrl(s: unknown): boolean {
  try {
    return typeof s === 'string' && new URL(s) !== undefined;
  } catch {
    return false;
  }
}
