/**
 * `@critsec/client`: the typed HTTP client of the critsec lock service (`@critsec/service`,
 * `critsec node --serve`, issue 30) — fetch-based, no Node-only API (browsers, Deno, Bun, Node ≥
 * 20). `createLockClient({ baseUrl })` keeps a session alive and offers `request(name, [options,]
 * callback)` in `@critsec/locks`' shape (exclusive or shared, `ifAvailable`, `signal`, `timeout`,
 * the fencing token), `query()` and `close()`; the service's error codes as typed errors. Its
 * calls are typed by the service's OpenAPI document (`openapi-typescript`, `openapi-fetch`).
 * @packageDocumentation
 */
export { createLockClient, type LockClient } from './client.js';
export {
  ClientClosedError,
  ConnectionError,
  LockClientError,
  type LockClientErrorCode,
  LockError,
  LockRequestError,
  type ServiceErrorCode,
  ServiceUnavailableError,
  SessionError,
} from './errors.js';
export type { Fetch } from './http.js';
export type {
  Lock,
  LockClientOptions,
  LockInfo,
  LockMode,
  LockRequestOptions,
  LockSnapshot,
} from './types.js';
