/**
 * The typed errors of `@critsec/locks`. Each is a `CritsecError` of `@critsec/core` with a stable
 * `code`, thrown (or rejected with) before anything is sent.
 */
import { CritsecError } from '@critsec/core';

/**
 * A lock name the manager refuses: not a string, empty, longer than `MAX_LOCK_NAME_LENGTH`
 * characters, or one the channel layer cannot carry (it contains `/`, the channel separator).
 * Code `'LOCK_NAME'`.
 */
export class LockNameError extends CritsecError {
  /** The name refused, as given. */
  readonly lockName: unknown;
  /** A refused name; `message` says why and what is allowed. */
  constructor(message: string, lockName: unknown) {
    super('LOCK_NAME', message);
    this.lockName = lockName;
  }
}

/**
 * A request the manager refuses before sending anything: an unknown `mode`, `shared` on a name
 * not listed as shared, a `timeout` that is negative or not finite, `ifAvailable` together with
 * `signal` or `timeout`, a callback that is not a function, or bad manager options. Code
 * `'LOCK_OPTIONS'`.
 */
export class LockOptionsError extends CritsecError {
  /** A refused request or option; `message` names it and what is allowed. */
  constructor(message: string) {
    super('LOCK_OPTIONS', message);
  }
}

/**
 * A request whose `timeout` passed before the lock was granted. The request was withdrawn as an
 * aborted one is (partial grants given back). Code `'LOCK_TIMEOUT'`.
 */
export class LockTimeoutError extends CritsecError {
  /** The lock's name. */
  readonly lockName: string;
  /** The timeout that passed, in the manager clock's unit (ms for the default clock). */
  readonly timeout: number;
  /** A request for `lockName` that waited `timeout` without being granted. */
  constructor(lockName: string, timeout: number) {
    super(
      'LOCK_TIMEOUT',
      `lock '${lockName}' was not granted within ${timeout} (timeout); the request was withdrawn`,
    );
    this.lockName = lockName;
    this.timeout = timeout;
  }
}

/** A call on a lock manager after `close()`. Code `'LOCK_CLOSED'`. */
export class LockManagerClosedError extends CritsecError {
  /** A call after `close()`; `message` names it. */
  constructor(message: string) {
    super('LOCK_CLOSED', message);
  }
}
