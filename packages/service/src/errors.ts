/**
 * The service's typed HTTP errors: each answer other than 2xx is `{ error: { code, message } }`
 * with one of the codes of `ERROR_CODES` and the status this file gives it.
 */
import { isAbortError } from '@critsec/core';
import { LockManagerClosedError, LockNameError, LockOptionsError, LockTimeoutError } from '@critsec/locks';
import type { ErrorCode } from './schemas.js';

/** The HTTP status of each error code. */
export const STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  BAD_REQUEST: 400,
  INVALID_NAME: 400,
  INVALID_OPTIONS: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  SESSION_UNKNOWN: 404,
  SESSION_EXPIRED: 410,
  TOO_MANY_SESSIONS: 429,
  LOCK_ALREADY_REQUESTED: 409,
  LOCK_NOT_HELD: 409,
  LOCK_UNAVAILABLE: 409,
  LOCK_TIMEOUT: 409,
  LOCK_EXPIRED: 409,
  SHUTTING_DOWN: 503,
  INTERNAL: 500,
});

/** An answer of the service other than 2xx: its `code` (and so its status) and message. */
export class ServiceError extends Error {
  /** The error code of the body. */
  readonly code: ErrorCode;
  /** The HTTP status ({@link STATUS} of the code). */
  readonly status: number;
  /** An error answered with `code`; `message` says what was wrong and what is allowed. */
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = STATUS[code];
  }
}

/**
 * The service error for what a lock request rejected with: the typed errors of `@critsec/locks`
 * map to their codes; an abort takes the reason it was given (a session that expired, the
 * service shutting down) when that is a {@link ServiceError}; anything else is `INTERNAL`.
 */
export function asServiceError(err: unknown, signal?: AbortSignal): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof LockNameError) return new ServiceError('INVALID_NAME', err.message);
  if (err instanceof LockOptionsError) return new ServiceError('INVALID_OPTIONS', err.message);
  if (err instanceof LockTimeoutError) return new ServiceError('LOCK_TIMEOUT', err.message);
  if (err instanceof LockManagerClosedError) return new ServiceError('SHUTTING_DOWN', err.message);
  if (isAbortError(err) && signal?.reason instanceof ServiceError) return signal.reason;
  return new ServiceError('INTERNAL', err instanceof Error ? err.message : String(err));
}
