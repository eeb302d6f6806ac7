/**
 * `@critsec/group-mutex` — group mutual exclusion over group quorum systems (Joung, "Quorum-based
 * algorithms for group mutual exclusion", IEEE TPDS 14(5), 2003): a request names a group;
 * processes of different groups are never InCS together; processes of one group may be
 * (concurrent entering); every request is served (lockout freedom).
 *
 * - {@link groupMutex} `({ system, variant: 'M' })` — Maekawa_M (Sec. 4.2, Figs. 5–6);
 * - {@link groupMutex} `({ system, variant: 'S' })` — Maekawa_S (Sec. 4.3, Figs. 7–8);
 * - {@link subgroupAssignment} — the subgroup assignment of Sec. 4.2.1;
 * - {@link groupMutexBounds} — the paper's message and delay bounds for a configuration.
 *
 * @example
 * ```ts
 * import { groupSpec } from '@critsec/core';
 * import { surficial } from '@critsec/coteries';
 * import { groupMutex } from '@critsec/group-mutex';
 * import { createCluster, runWorkload } from '@critsec/harness';
 *
 * // 9 processes on a 3×3 grid: group 0 locks a row, group 1 a column (Sec. 3, k = 3)
 * const system = surficial(9, 2);
 * const cluster = createCluster({ factory: groupMutex({ system, variant: 'M' }), spec: groupSpec(2, 9) });
 * const r = await runWorkload(cluster, { rounds: 2, request: (rng) => rng.int(2) });
 * console.log(r.ok, r.violation); // true null
 * ```
 *
 * @packageDocumentation
 */
export { type GroupMutexBounds, groupMutexBounds } from './bounds.js';
export { MAEKAWA_M_DURABLE_FORMAT, type MaekawaMDurableState, type MRequestTuple } from './durable-m.js';
export { MAEKAWA_S_DURABLE_FORMAT, type MaekawaSDurableState, type SRequestTuple } from './durable-s.js';
export { type GroupId, type GroupMutexOptions, groupMutex } from './group-mutex.js';
export type { MaekawaMSnapshot } from './maekawa-m.js';
export type { MaekawaMNodeSnapshot } from './maekawa-m-node.js';
export type { MaekawaSSnapshot } from './maekawa-s.js';
export type { MaekawaSNodeSnapshot } from './maekawa-s-node.js';
export { type SubgroupAssignment, subgroupAssignment } from './plan.js';
export { type MaekawaMMessage, maekawaMProtocol } from './protocol-m.js';
export { type MaekawaSMessage, maekawaSProtocol } from './protocol-s.js';
export { groupMutexRarePaths } from './rare-paths.js';
export { groupMutexDescriptor, SYSTEM_NAMES, VARIANT_NAMES } from './descriptor.js';
