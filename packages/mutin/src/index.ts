/**
 * `@critsec/mutin` — MUTIN(l), l-mutual inclusion over an ordinary coterie (Kamei & Kakugawa,
 * IJNC 9(2), 2019, Sec. 4, Algorithms 1–2): at least `l` of the `n` processes are InCS at any
 * time. Exits are serialized by a pluggable mutual exclusion `mx` (any `CSFactory`, default
 * Maekawa); message complexity O(|Q|) per exit+entry pair, waiting time ≤ 7 (exit) / 2 (entry).
 *
 * @example
 * ```ts
 * import { globalSpec } from '@critsec/core';
 * import { grid } from '@critsec/coteries';
 * import { createCluster, runWorkload } from '@critsec/harness';
 * import { mutin } from '@critsec/mutin';
 *
 * const n = 9;
 * const cluster = createCluster({ factory: mutin({ l: 3, coterie: grid(n) }), spec: globalSpec(3, n, n) });
 * const r = await runWorkload(cluster, { rounds: 3 });
 * console.log(r.ok, r.violation); // true null — never fewer than 3 InCS
 * ```
 *
 * @packageDocumentation
 */
export { type Mutin, type MutinOptions, mutin, validateMutin } from './factory.js';
export { MutinCS } from './mutin.js';
export type { LateAcks } from './mx-tenure.js';
export { MUTIN_DURABLE_FORMAT, type MutinDurableState, type MutinPhase } from './mutin-durable.js';
export type { MutinQuorums, MutinSettings, Response2Rule } from './settings.js';
export { type MutinProtocolMessage, mutinMessages, mutinProtocol } from './protocol.js';
export { ResponseAgain, type ResponseAgainEntry, type ResponseAgainTarget } from './response-again.js';
export {
  buildMutinComposite,
  fixedBound,
  MX_PARAM,
  type MutinCompositeBuild,
  mutinCost,
  mutinDescriptor,
  mxParam,
} from './descriptor.js';
