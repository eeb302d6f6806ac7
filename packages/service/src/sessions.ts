/**
 * Sessions (like etcd leases and Consul sessions): a client creates one with a ttl and keeps it
 * alive; a session not kept alive within its ttl expires — its waits are aborted and its locks
 * released. Measured on the member's monotonic clock (`ProtocolClock` of `@critsec/core`), never
 * the wall clock.
 */
import { randomUUID } from 'node:crypto';
import type { ProtocolClock } from '@critsec/core';
import type { Lock } from '@critsec/locks';
import { ServiceError } from './errors.js';

/** A lock a session holds: the grant, and how to let it go. */
export interface Hold {
  /** The grant as `@critsec/locks` gave it. */
  readonly lock: Lock;
  /** Ends the request's callback: the manager exits the lock. */
  readonly release: () => void;
  /** Settles once the manager has exited the lock (never rejects). */
  readonly done: Promise<unknown>;
  /** True once the grant's tenure ended (`lock.signal` aborted): the member released it. */
  expired: boolean;
}

/** One live session: its ttl, its waits (by name) and its holds (by name). */
export class Session {
  /** The id clients name it by. */
  readonly id: string;
  /** The ttl, ms. */
  readonly ttlMs: number;
  /** Requests waiting, by lock name: aborting one withdraws it. */
  readonly waits = new Map<string, AbortController>();
  /** Locks held, by name. */
  readonly holds = new Map<string, Hold>();
  /** Set when the session ended: the reason later calls get. */
  ended: ServiceError | undefined;
  /** Cancels the expiry timer. */
  cancelTimer: () => void = () => {};

  /** A session `id` of `ttlMs` ms. */
  constructor(id: string, ttlMs: number) {
    this.id = id;
    this.ttlMs = ttlMs;
  }
}

/** How many ended session ids are remembered, to answer SESSION_EXPIRED rather than SESSION_UNKNOWN. */
const REMEMBERED_ENDED = 4_096;

/** What a session table tells (its metrics). */
export interface SessionHooks {
  /** `n` sessions are live now (after each creation and end). */
  size(n: number): void;
  /** A session expired. */
  expired(): void;
}

/** The session table of one service. */
export class Sessions {
  readonly #clock: ProtocolClock;
  readonly #max: number;
  readonly #live = new Map<string, Session>();
  readonly #expired = new Set<string>();
  readonly #hooks: SessionHooks;

  /** Sessions timed by `clock`, at most `maxSessions` live; `hooks` hear of changes (metrics). */
  constructor(clock: ProtocolClock, maxSessions: number, hooks: SessionHooks = { size() {}, expired() {} }) {
    this.#clock = clock;
    this.#max = maxSessions;
    this.#hooks = hooks;
  }

  /** Live sessions. */
  get size(): number {
    return this.#live.size;
  }

  /**
   * A new session of `ttlMs` ms.
   * @throws ServiceError `TOO_MANY_SESSIONS` past the limit.
   */
  create(ttlMs: number): Session {
    if (this.#live.size >= this.#max)
      throw new ServiceError('TOO_MANY_SESSIONS', `at most ${this.#max} sessions may be live at once`);
    const s = new Session(randomUUID(), ttlMs);
    this.#live.set(s.id, s);
    this.#hooks.size(this.#live.size);
    this.#arm(s);
    return s;
  }

  /**
   * The live session `id`.
   * @throws ServiceError `SESSION_EXPIRED` for one that expired, `SESSION_UNKNOWN` otherwise.
   */
  get(id: string): Session {
    const s = this.#live.get(id);
    if (s !== undefined) return s;
    if (this.#expired.has(id))
      throw new ServiceError(
        'SESSION_EXPIRED',
        `session ${id} expired: it was not kept alive within its ttl`,
      );
    throw new ServiceError(
      'SESSION_UNKNOWN',
      `no session ${JSON.stringify(id)} (create one with POST /v1/sessions)`,
    );
  }

  /** Restarts session `id`'s ttl. @throws ServiceError as {@link get}. */
  keepalive(id: string): Session {
    const s = this.get(id);
    this.#arm(s);
    return s;
  }

  /**
   * Ends session `id` (its waits aborted with `reason`, its locks released); resolves once every
   * lock it held was exited. @throws ServiceError as {@link get}.
   */
  end(id: string, reason: ServiceError): Promise<void> {
    return this.#end(this.get(id), reason);
  }

  /** Ends every session with `reason` (the service shutting down); resolves once every lock was exited. */
  async endAll(reason: ServiceError): Promise<void> {
    await Promise.all([...this.#live.values()].map((s) => this.#end(s, reason)));
  }

  #arm(s: Session): void {
    s.cancelTimer();
    s.cancelTimer = this.#clock.setTimer(s.ttlMs, () => {
      this.#hooks.expired();
      this.#remember(s.id);
      void this.#end(
        s,
        new ServiceError('SESSION_EXPIRED', `session ${s.id} expired: it was not kept alive within its ttl`),
      );
    });
  }

  #remember(id: string): void {
    this.#expired.add(id);
    if (this.#expired.size > REMEMBERED_ENDED) this.#expired.delete(this.#expired.values().next().value!);
  }

  async #end(s: Session, reason: ServiceError): Promise<void> {
    if (this.#live.get(s.id) !== s) return;
    this.#live.delete(s.id);
    this.#hooks.size(this.#live.size);
    s.ended = reason;
    s.cancelTimer();
    for (const wait of s.waits.values()) wait.abort(reason);
    const exits: Promise<unknown>[] = [];
    for (const hold of s.holds.values()) {
      hold.release();
      exits.push(hold.done);
    }
    s.holds.clear();
    await Promise.all(exits);
  }
}
