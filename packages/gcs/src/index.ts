/**
 * `@critsec/gcs` — the global (l,k)-critical section (Kamei & Kakugawa, IJNC 9(2), 2019, Sec. 5,
 * Algorithm 3): at least `l` and at most `k` of `n` processes InCS at any time. `compose(a, b)`
 * is Algorithm 3 for any two CS objects or factories (`#a ≤ #G ≤ #b`); `kMutex` is the
 * complement of MUTIN(n−k); `gcs` is `compose(mutin({ l }), kMutex({ k }))`.
 *
 * @example
 * ```ts
 * import { globalSpec } from '@critsec/core';
 * import { grid } from '@critsec/coteries';
 * import { createCluster, runWorkload } from '@critsec/harness';
 * import { gcs } from '@critsec/gcs';
 *
 * // at least 2 and at most 5 of 12 servers are up
 * const cluster = createCluster({ factory: gcs({ l: 2, k: 5, coterie: grid(12) }), spec: globalSpec(2, 5, 12) });
 * const r = await runWorkload(cluster, { rounds: 3 });
 * console.log(r.ok); // true
 * ```
 *
 * @packageDocumentation
 */
export { type ComposedObject, type ComposeOptions, compose } from './compose.js';
export {
  COMPOSE_DURABLE_FORMAT,
  type ComposeDurableState,
  type ComposePhase,
} from './compose-durable.js';
export { type GcsOptions, gcs, type KMutexOptions, kMutex } from './gcs.js';
export { gcsDescriptor, kMutexDescriptor } from './descriptor.js';
export type { GcsTimeBounds } from './time-bounds.js';
