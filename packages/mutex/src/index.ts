/**
 * `@critsec/mutex` — distributed mutual exclusion, the (0,1)-CS (DESIGN.md 1):
 *
 * - {@link maekawa}: Maekawa's quorum algorithm in its deadlock-free form (Maekawa 1985 with
 *   Sanders 1987's correction; group-mutex paper, Sec. 4.1) over any coterie of
 *   `@critsec/coteries`: `3·|Q|` messages per CS without contention, waiting time 2.
 * - {@link ricartAgrawala}: the `2(n − 1)`-message permission algorithm, the O(n) baseline.
 *
 * Both are CS factories (`CSFactory` of `@critsec/core`): give them to a cluster harness, to a
 * transport, or to a composition (`mutin({ mx: maekawa({ coterie }) })`). Message counts include
 * messages a process sends to itself; times are in time units of the network (unit delays: 1 per
 * message).
 *
 * @example
 * ```ts
 * import { mutexSpec } from '@critsec/core';
 * import { grid } from '@critsec/coteries';
 * import { createCluster, runWorkload } from '@critsec/harness';
 * import { maekawa } from '@critsec/mutex';
 *
 * const cluster = createCluster({ factory: maekawa({ coterie: grid(9) }), spec: mutexSpec(9) });
 * const r = await runWorkload(cluster, { kind: 'sequential', rounds: 1 });
 * console.log(r.ok, r.perPair.mean, r.waiting.entry.max); // true 15 2   (3·|Q| = 3·5)
 * ```
 *
 * @packageDocumentation
 */
export {
  MAEKAWA_DURABLE_FORMAT,
  type MaekawaDurableState,
  type MaekawaMessage,
  type MaekawaOptions,
  type MaekawaSnapshot,
  maekawa,
  maekawaProtocol,
  maekawaRarePaths,
} from './maekawa.js';
export { beats } from './request-queue.js';
export {
  RICART_AGRAWALA_DURABLE_FORMAT,
  type RicartAgrawalaDurableState,
  type RicartAgrawalaMessage,
  type RicartAgrawalaSnapshot,
  ricartAgrawala,
  ricartAgrawalaProtocol,
} from './ricart-agrawala.js';
export {
  COTERIE_PARAM,
  coterieParam,
  GLOBAL_INIT_PARAM,
  type MessageCost,
  MX_NAMES,
  type MxName,
  maekawaDescriptor,
  mxByName,
  type QuorumSizeRange,
  quorumSizeOf,
  ricartAgrawalaDescriptor,
} from './descriptor.js';
