/**
 * `@critsec/local-cs` — the generalized local (l_i,k_i)-critical section on any graph (Kamei &
 * Kakugawa, Algorithms 10(2):38, 2017): each process P_i keeps at least l_i and at most k_i of
 * N_i ∪ {P_i} in the CS, with messages only between neighbours. `lmutin` (Sec. 3, (l_i, |N_i|+1)),
 * `lmutex` (Sec. 4, its complement: (0, k_i)), `lkcs` (Sec. 5, arbitrary (l_i, k_i), partial),
 * graph builders, the Abilene backbone, safe initial configurations and the paper's bounds.
 *
 * @example
 * ```ts
 * import { createCluster, runWorkload } from '@critsec/harness';
 * import { localBounds, lmutin, ring, safeInitial } from '@critsec/local-cs';
 *
 * const graph = ring(6);
 * const spec = localBounds(graph, 1, 3); // at least 1 of each P_i and its 2 neighbours InCS
 * const cluster = createCluster({ factory: lmutin({ graph, l: 1 }), spec, initial: safeInitial(spec) });
 * const r = await runWorkload(cluster, { rounds: 3 });
 * console.log(r.ok, r.violation); // true null
 * ```
 *
 * @packageDocumentation
 */
export { ABILENE_LINKS, ABILENE_NODES, abilene } from './abilene.js';
export type { ArbiterRules, ArbiterSnapshot } from './arbiter.js';
export type { ArbiterDurableState } from './arbiter-durable.js';
export { type LocalCsAlgorithm, type LocalCsBounds, localCsBounds } from './bounds.js';
export {
  assertSafeInitial,
  type Bounds,
  expandBounds,
  localBounds,
  misInitial,
  safeInitial,
} from './config.js';
export {
  complete,
  distances,
  graphFromJson,
  grid,
  parseGraph,
  randomGraph,
  ring,
  star,
} from './graphs.js';
export { LkcsCS, lkcs } from './lkcs.js';
export { LKCS_DURABLE_FORMAT, type LkcsDurableState } from './lkcs-durable.js';
export { type LkcsPlan, leaderProblem, lkcsPlan } from './lkcs-plan.js';
export {
  type At,
  type LkcsMessage,
  type LkcsMessageType,
  type LkcsNomination,
  type LkcsOptions,
  type LkcsSnapshot,
  lkcsProtocol,
  lkcsRarePaths,
} from './lkcs-protocol.js';
export { type LmutexOptions, lmutex } from './lmutex.js';
export { LMUTIN_DURABLE_FORMAT, type LmutinDurableState } from './lmutin-durable.js';
export {
  type LmutinInternals,
  type LmutinMessage,
  type LmutinOptions,
  type LmutinSnapshot,
  LmutinCS,
  lmutin,
  lmutinProtocol,
  lmutinRarePaths,
} from './lmutin.js';
export { LOCAL_ALGORITHM_NAMES, localCsDescriptor } from './descriptor.js';
