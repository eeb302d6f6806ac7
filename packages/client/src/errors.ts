/**
 * The client's typed errors: one class per family of the service's error codes (the `code` of
 * the answer's `{ error: { code, message } }` body, with the HTTP `status`), and the client's own
 * two — no answer (`UNREACHABLE`) and a closed client (`CLIENT_CLOSED`), both with `status` 0.
 */
import type { components } from '../generated/api.js';

/** An error code of the service's error body (`ERROR_CODES` of `@critsec/service`). */
export type ServiceErrorCode =
  | 'BAD_REQUEST'
  | 'INVALID_NAME'
  | 'INVALID_OPTIONS'
  | 'UNAUTHENTICATED'
  | 'NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'SESSION_UNKNOWN'
  | 'SESSION_EXPIRED'
  | 'TOO_MANY_SESSIONS'
  | 'LOCK_ALREADY_REQUESTED'
  | 'LOCK_NOT_HELD'
  | 'LOCK_UNAVAILABLE'
  | 'LOCK_TIMEOUT'
  | 'LOCK_EXPIRED'
  | 'SHUTTING_DOWN'
  | 'INTERNAL';

/** The codes of the OpenAPI document's `ErrorResponse`. */
type DocumentCode = components['schemas']['ErrorResponse']['error']['code'];

/** Compiles only when `A` and `B` are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`. */
type Assert<T extends true> = T;
/** `ServiceErrorCode` is exactly the document's codes: a code added to or removed from the service fails to compile here. */
type _CodesOfTheDocument = Assert<Same<ServiceErrorCode, DocumentCode>>;

/** Every code a {@link LockClientError} carries: the service's, and the client's own two. */
export type LockClientErrorCode = ServiceErrorCode | 'UNREACHABLE' | 'CLIENT_CLOSED';

/** Any error of the client: the service's answer (`code`, `status`) or the client's own. */
export class LockClientError extends Error {
  /** The error code: the service's body code, `UNREACHABLE` or `CLIENT_CLOSED`. */
  readonly code: LockClientErrorCode;
  /** The HTTP status of the answer; 0 when the service did not answer (or was not asked). */
  readonly status: number;
  /** An error of `code`, answered with `status` (0: no answer); `message` says what happened. */
  constructor(code: LockClientErrorCode, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
  }
}

/**
 * The request was refused as malformed or not allowed (400, 401, 404, 413): `BAD_REQUEST`,
 * `INVALID_NAME`, `INVALID_OPTIONS` (also before anything is sent, status 0, for options the
 * client refuses itself), `UNAUTHENTICATED`, `NOT_FOUND`, `PAYLOAD_TOO_LARGE`. Retrying the same
 * request cannot help.
 */
export class LockRequestError extends LockClientError {}

/**
 * The session is gone: `SESSION_EXPIRED` (410; or status 0 when the client saw no keepalive
 * answered within the ttl, so the service must have expired it) or `SESSION_UNKNOWN` (404). Its
 * locks were released by the service; the client opens a new session at the call after the one
 * that reported it.
 */
export class SessionError extends LockClientError {}

/**
 * A lock call failed (409): `LOCK_UNAVAILABLE`, `LOCK_TIMEOUT`, `LOCK_EXPIRED` (the grant expired
 * before it was released: effects under it may not have been exclusive — check the fencing token
 * at the resource), `LOCK_ALREADY_REQUESTED`, `LOCK_NOT_HELD`.
 */
export class LockError extends LockClientError {}

/**
 * The service cannot serve now (429, 500, 503): `TOO_MANY_SESSIONS`, `SHUTTING_DOWN`, `INTERNAL`.
 * Another member may.
 */
export class ServiceUnavailableError extends LockClientError {}

/**
 * No answer of the service (`UNREACHABLE`): the network failed, the call's deadline passed, or
 * something other than the service answered (a proxy's error page: `status` is its status).
 */
export class ConnectionError extends LockClientError {}

/** The client was closed (`CLIENT_CLOSED`): calls after `close()`, and calls it ended. */
export class ClientClosedError extends LockClientError {}

type Family = new (code: LockClientErrorCode, status: number, message: string) => LockClientError;

/** The family of each of the service's codes (exhaustive). */
const FAMILY: Readonly<Record<ServiceErrorCode, Family>> = {
  BAD_REQUEST: LockRequestError,
  INVALID_NAME: LockRequestError,
  INVALID_OPTIONS: LockRequestError,
  UNAUTHENTICATED: LockRequestError,
  NOT_FOUND: LockRequestError,
  PAYLOAD_TOO_LARGE: LockRequestError,
  SESSION_UNKNOWN: SessionError,
  SESSION_EXPIRED: SessionError,
  TOO_MANY_SESSIONS: ServiceUnavailableError,
  LOCK_ALREADY_REQUESTED: LockError,
  LOCK_NOT_HELD: LockError,
  LOCK_UNAVAILABLE: LockError,
  LOCK_TIMEOUT: LockError,
  LOCK_EXPIRED: LockError,
  SHUTTING_DOWN: ServiceUnavailableError,
  INTERNAL: ServiceUnavailableError,
};

/** The typed error of an answer other than 2xx: its body's code, or `UNREACHABLE` for a body that is not the service's. */
export function answerError(status: number, body: unknown, what: string): LockClientError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = error?.code;
  if (typeof code === 'string' && Object.hasOwn(FAMILY, code)) {
    const message = typeof error?.message === 'string' ? error.message : code;
    return new FAMILY[code as ServiceErrorCode](code as ServiceErrorCode, status, `${what}: ${message}`);
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new ConnectionError(
    'UNREACHABLE',
    status,
    `${what}: answered ${status} with a body that is not the lock service's: ${String(text).slice(0, 200)}`,
  );
}
