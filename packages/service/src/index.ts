/**
 * `@critsec/service`: critsec as a lock service (issue 30) — an HTTP/JSON API (Hono) over a
 * member's `LockManager` of `@critsec/locks`: sessions with a ttl kept alive by the client (its
 * locks released and its waits aborted when it expires), long-poll acquire returning the fencing
 * token, release, renew, the cluster-wide snapshot, `/healthz`, `/readyz`, `/metrics` and the
 * OpenAPI document, on a Unix socket or a loopback port (a bearer token beyond loopback).
 * `startLockMember` runs a member of a cluster configuration as such a service
 * (`critsec node --serve`), with its graceful shutdown.
 * @packageDocumentation
 */
export type { Readiness } from './app.js';
export { MAX_BODY_BYTES } from './app.js';
export { ServiceError, STATUS } from './errors.js';
export { formatListen, isLoopback, type ListenAddress, parseListen } from './listen.js';
export {
  type LockMember,
  type LockMemberOptions,
  SHUTDOWN_BOUND_MS,
  type ShutdownReport,
  startLockMember,
} from './lock-member.js';
export { openApiDocument } from './openapi.js';
export { type QuorumReadinessOptions, quorumReadiness } from './readiness.js';
export {
  ERROR_CODES,
  type ErrorCode,
  MAX_SESSION_TTL_MS,
  MAX_WAIT_MS,
  MIN_SESSION_TTL_MS,
} from './schemas.js';
export { type LockService, type LockServiceOptions, startLockService } from './server.js';
