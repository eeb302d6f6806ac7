/**
 * `@critsec/h-out-of-k` — h-out-of-k mutual exclusion with (h,k)-arbiters (Manabe & Tajima,
 * Sec. 4, Fig. 1), the distributed counterpart of a weighted semaphore: k identical units shared
 * by n processes without a central server; `entry(h)` takes h units at once, `exit()` returns
 * them; Σ units held ≤ k at every instant (DESIGN.md 1).
 *
 * - {@link hOutOfK}: the `CSFactory<number>` (request = h) over any (h,k)-arbiter of
 *   `@critsec/coteries` (`uniformHKArbiter`, `cubeHKArbiter`, …); {@link asHKArbiter} runs it over a
 *   plain k-arbiter for comparison.
 * - {@link hOutOfKBounds}: the paper's message bounds (3·|q_{h,k}| without conflict,
 *   (3h+3)·|q_{h,k}| worst case) and waiting times per h; {@link compareArbiters}: quorum sizes and
 *   messages of uniform / cube (h,k)-arbiters against the k-arbiters.
 * - Crash recovery (issue 27): the objects are `DurableCSObject`s; {@link HOutOfKDurableState} is
 *   what `durableState()` returns and the factory resumes from (`ctx.recovered`).
 * - {@link hOutOfKRequest}: a workload's request generator (a fixed h, or h uniform in 1..k).
 * - {@link hOutOfKProtocol}: the validated message union (`request`, `OK`, `cancel`, `cancelled`,
 *   `release`); {@link hOutOfKRarePaths}: the coverage marks.
 *
 * @example
 * ```ts
 * import { hOutOfKSpec } from '@critsec/core';
 * import { uniformHKArbiter } from '@critsec/coteries';
 * import { createCluster, runWorkload } from '@critsec/harness';
 * import { hOutOfK } from '@critsec/h-out-of-k';
 *
 * const [n, k] = [5, 3];
 * const factory = hOutOfK({ k, arbiter: uniformHKArbiter(n, k) });
 * const cluster = createCluster({ factory, spec: hOutOfKSpec(k, n) });
 * const r = await runWorkload(cluster, { request: (rng) => 1 + rng.int(k) });
 * console.log(r.ok, r.entries); // true 15
 * ```
 *
 * @packageDocumentation
 */
export { type HOutOfKBoundRow, hOutOfKBounds } from './bounds.js';
export { type ArbiterComparisonRow, type ArbiterCost, compareArbiters } from './compare.js';
export {
  type DurableQueEntry,
  H_OUT_OF_K_DURABLE_FORMAT,
  type HOutOfKDurableState,
} from './durable.js';
export { asHKArbiter, hOutOfK } from './factory.js';
export type { HOutOfKCS } from './h-out-of-k.js';
export { type HOutOfKMessage, hOutOfKProtocol } from './messages.js';
export type { Priority, QueStatus } from './que.js';
export { hOutOfKRarePaths } from './rare-paths.js';
export { hOutOfKRequest, type UnitsRng } from './request.js';
export type { HOutOfKOptions, HOutOfKSnapshot } from './types.js';
export { ARBITER_NAMES, hOutOfKDescriptor } from './descriptor.js';
