/**
 * The lock calls of the HTTP API over one `LockManager`: acquire (a `request` whose callback
 * holds the lock until the session releases it, ends, or the grant's tenure ends), release,
 * renew and the cluster-wide snapshot. A session holds or waits for a name at most once.
 */
import type { Lock, LockManager, LockMode, LockSnapshot } from '@critsec/locks';
import type * as v from 'valibot';
import { asServiceError, ServiceError } from './errors.js';
import type { AcquireBody, LockResponse } from './schemas.js';
import type { Hold, Session, Sessions } from './sessions.js';

/** A granted lock as the API answers it. */
export type LockAnswer = v.InferOutput<typeof LockResponse>;

function answer(name: string, mode: LockMode, lock: Lock): LockAnswer {
  const remaining = lock.remaining();
  return {
    name,
    mode,
    token: lock.token ?? null,
    remainingMs: Number.isFinite(remaining) ? Math.max(0, Math.floor(remaining)) : null,
  };
}

/** Acquire, release, renew and the snapshot, for the sessions of one service. */
export class LockCalls {
  readonly #manager: LockManager;
  readonly #sessions: Sessions;

  /** The calls over `manager`, for the sessions of `sessions`. */
  constructor(manager: LockManager, sessions: Sessions) {
    this.#manager = manager;
    this.#sessions = sessions;
  }

  /**
   * Waits until session `body.session` holds `name` (long-poll): resolves with the grant.
   * `client` aborts when the HTTP client went away: the wait is withdrawn, or a grant that came
   * meanwhile released.
   * @throws ServiceError `LOCK_ALREADY_REQUESTED` when the session holds or waits for `name`;
   *   `LOCK_UNAVAILABLE` (`ifAvailable`), `LOCK_TIMEOUT`, `SESSION_EXPIRED` (the session ended
   *   while it waited), `INVALID_NAME`, `INVALID_OPTIONS`, `SHUTTING_DOWN`, and those of
   *   `Sessions.get`.
   */
  async acquire(
    name: string,
    body: v.InferOutput<typeof AcquireBody>,
    client: AbortSignal,
  ): Promise<LockAnswer> {
    const s = this.#sessions.get(body.session);
    if (s.holds.has(name) || s.waits.has(name))
      throw new ServiceError(
        'LOCK_ALREADY_REQUESTED',
        `session ${s.id} already holds or waits for '${name}' (release it first)`,
      );
    const mode = body.mode ?? 'exclusive';
    const withdraw = new AbortController();
    s.waits.set(name, withdraw);
    const signal = AbortSignal.any([withdraw.signal, client]);
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let granted: (lock: Lock | null) => void = () => {};
    const grant = new Promise<Lock | null>((r) => {
      granted = r;
    });
    const options =
      body.ifAvailable === true
        ? { mode, ifAvailable: true as const }
        : { mode, signal, ...(body.timeoutMs === undefined ? {} : { timeout: body.timeoutMs }) };
    const done = this.#manager.request(name, options, (lock: Lock | null) => {
      granted(lock);
      return lock === null ? undefined : held;
    });
    let lock: Lock | null;
    try {
      lock = await Promise.race([grant, done.then(() => null)]);
    } catch (err) {
      throw asServiceError(err, signal);
    } finally {
      if (s.waits.get(name) === withdraw) s.waits.delete(name);
    }
    if (lock === null)
      throw new ServiceError('LOCK_UNAVAILABLE', `'${name}' is held or contended (ifAvailable)`);
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    if (s.ended !== undefined || signal.aborted) {
      release(); // the session ended or the client left while the grant was on its way
      await settled;
      throw s.ended ?? asServiceError(signal.reason, signal);
    }
    this.#keep(s, name, { lock, release, done: settled, expired: false });
    return answer(name, mode, lock);
  }

  /**
   * Releases `name` held by `session`; resolves once the member has exited it.
   * @throws ServiceError `LOCK_NOT_HELD`; `LOCK_EXPIRED` when its grant had expired (released
   *   already: effects under it may not have been exclusive); those of `Sessions.get`.
   */
  async release(name: string, session: string): Promise<void> {
    const s = this.#sessions.get(session);
    const hold = this.#hold(s, name);
    s.holds.delete(name);
    hold.release();
    await hold.done;
    if (hold.expired) throw expiredError(name);
  }

  /**
   * Keeps `session` alive and reports the grant of `name`: its token and the time left of a
   * time-bounded grant (the member itself renews the protocol's grant while the session lives).
   * @throws ServiceError `LOCK_NOT_HELD`, `LOCK_EXPIRED`, and those of `Sessions.get`.
   */
  renew(name: string, session: string): LockAnswer {
    const s = this.#sessions.keepalive(session);
    const hold = this.#hold(s, name);
    if (hold.expired) throw expiredError(name);
    return answer(name, hold.lock.mode, hold.lock);
  }

  /** The cluster-wide snapshot (`query()`); `signal` aborts it when the client leaves. */
  async snapshot(signal: AbortSignal): Promise<LockSnapshot> {
    try {
      return await this.#manager.query({ signal });
    } catch (err) {
      throw asServiceError(err, signal);
    }
  }

  #keep(s: Session, name: string, hold: Hold): void {
    s.holds.set(name, hold);
    const sig = hold.lock.signal;
    const expire = () => {
      hold.expired = true;
      hold.release();
    };
    if (sig.aborted) expire();
    else sig.addEventListener('abort', expire, { once: true });
    void hold.done.then(() => sig.removeEventListener('abort', expire));
  }

  #hold(s: Session, name: string): Hold {
    const hold = s.holds.get(name);
    if (hold === undefined)
      throw new ServiceError('LOCK_NOT_HELD', `session ${s.id} does not hold '${name}'`);
    return hold;
  }
}

function expiredError(name: string): ServiceError {
  return new ServiceError(
    'LOCK_EXPIRED',
    `the grant of '${name}' expired before it was released (its holder's member did not renew it in time): check the fencing token at the resource`,
  );
}
