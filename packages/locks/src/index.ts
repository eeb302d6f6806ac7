/**
 * `@critsec/locks`: named distributed locks in the shape of the Web Locks API over critsec's
 * quorum protocols (issue 29) — `createLockManager({ endpoint, id, n, … })` per member, then
 * `request(name, [options,] callback)` and `query()`; exclusive names through Maekawa, shared
 * names through h-out-of-k; metrics through prom-client.
 * @packageDocumentation
 */
export { LockManagerClosedError, LockNameError, LockOptionsError, LockTimeoutError } from './errors.js';
export { createLockManager } from './manager.js';
export { MAX_LOCK_NAME_LENGTH } from './names.js';
export type {
  Lock,
  LockInfo,
  LockManager,
  LockManagerOptions,
  LockMode,
  LockRequestOptions,
  LockSnapshot,
} from './types.js';
