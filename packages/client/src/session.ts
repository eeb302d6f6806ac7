/**
 * One session of the service, kept alive: opened with `POST /v1/sessions`, renewed every third
 * of its ttl, and ended — `ended` aborted with the reason — when the service says it is gone
 * (410, 404), is shutting down, or no keepalive was answered within the ttl counted from the
 * sending of the last one answered (so the client gives it up no later than the service, whose
 * ttl restarted after that sending), and by `close()` (`DELETE`, which releases its locks).
 */
import { ClientClosedError, ConnectionError, LockClientError, SessionError } from './errors.js';
import { type ApiClient, call } from './http.js';
import { unref } from './signals.js';

/** The timing of a session, ms. */
export interface SessionTiming {
  /** The session's ttl. */
  readonly ttlMs: number;
  /** The deadline of every call but the long-poll acquire. */
  readonly callTimeoutMs: number;
}

/** A session of the service and its keepalive. */
export class Session {
  /** Aborted when the session ended: the reason is the `SessionError` or `ClientClosedError`. */
  readonly ended = new AbortController();
  /** Resolves with the session id once opened; rejects as the `POST /v1/sessions` did. */
  readonly id: Promise<string>;
  readonly #api: ApiClient;
  readonly #timing: SessionTiming;
  #renewTimer: ReturnType<typeof setTimeout> | undefined;
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;

  /** Opens a session of `timing.ttlMs` ms on `api` and keeps it alive. */
  constructor(api: ApiClient, timing: SessionTiming) {
    this.#api = api;
    this.#timing = timing;
    this.id = this.#open();
    this.id.catch(() => {}); // reported to every call that awaits it
  }

  async #open(): Promise<string> {
    const sent = performance.now();
    try {
      const s = await call(
        'open a session',
        (signal) => this.#api.POST('/v1/sessions', { body: { ttlMs: this.#timing.ttlMs }, signal }),
        [this.ended.signal],
        this.#timing.callTimeoutMs,
      );
      this.#answered(sent);
      return s.id;
    } catch (err) {
      // never opened: ended, so that the client's next request opens another
      this.end(err instanceof LockClientError ? err : new ConnectionError('UNREACHABLE', 0, String(err)));
      throw err;
    }
  }

  /** A keepalive was answered; it was sent at `sent` (`performance.now()`). */
  #answered(sent: number): void {
    if (this.ended.signal.aborted) return;
    const ttl = this.#timing.ttlMs;
    clearTimeout(this.#expiryTimer);
    this.#expiryTimer = setTimeout(
      () =>
        this.end(
          new SessionError(
            'SESSION_EXPIRED',
            0,
            `no keepalive of the session was answered within its ttl (${ttl} ms): the service has expired it and released its locks`,
          ),
        ),
      Math.max(0, sent + ttl - performance.now()),
    );
    unref(this.#expiryTimer);
    this.#schedule();
  }

  #schedule(): void {
    clearTimeout(this.#renewTimer);
    this.#renewTimer = setTimeout(() => void this.#keepalive(), this.#timing.ttlMs / 3);
    unref(this.#renewTimer);
  }

  async #keepalive(): Promise<void> {
    if (this.ended.signal.aborted) return;
    const id = await this.id;
    const sent = performance.now();
    try {
      await call(
        'keep the session alive',
        (signal) => this.#api.POST('/v1/sessions/{id}/keepalive', { params: { path: { id } }, signal }),
        [this.ended.signal],
        Math.min(this.#timing.callTimeoutMs, this.#timing.ttlMs / 3),
      );
      this.#answered(sent);
    } catch (err) {
      if (err instanceof SessionError || (err instanceof LockClientError && err.code === 'SHUTTING_DOWN'))
        this.end(
          err instanceof SessionError ? err : new SessionError('SESSION_EXPIRED', err.status, err.message),
        );
      else if (!this.ended.signal.aborted) this.#schedule(); // unanswered: try again; the expiry timer runs on
    }
  }

  /** Ends the session here (no call): stops its keepalive, aborts `ended` with `reason`. Idempotent. */
  end(reason: LockClientError): void {
    if (this.ended.signal.aborted) return;
    clearTimeout(this.#renewTimer);
    clearTimeout(this.#expiryTimer);
    this.ended.abort(reason);
  }

  /**
   * Ends the session at the service (`DELETE`: its waits aborted, its locks released) and here.
   * Resolves once the service answered, or the deadline passed (the session then expires there
   * within its ttl); a session the service had ended already is not an error.
   */
  async close(): Promise<void> {
    this.end(new ClientClosedError('CLIENT_CLOSED', 0, 'the client was closed'));
    let id: string;
    try {
      id = await this.id;
    } catch {
      return; // never opened
    }
    try {
      await call(
        'end the session',
        (signal) => this.#api.DELETE('/v1/sessions/{id}', { params: { path: { id } }, signal }),
        [],
        this.#timing.callTimeoutMs,
      );
    } catch (err) {
      if (!(err instanceof LockClientError)) throw err;
    }
  }
}
