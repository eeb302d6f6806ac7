/**
 * `@critsec/transport-sim` — the deterministic simulated network, critsec's embedded default
 * transport (DESIGN.md 3.2): virtual clock in time units, delay models, FIFO per
 * (from, to, channel), a controlled mode for enumerating schedules, counters and traces.
 *
 * @example
 * ```ts
 * import { SimNetwork, unitDelay } from '@critsec/transport-sim';
 *
 * const net = new SimNetwork({ n: 2, seed: 7, delay: unitDelay });
 * net.endpoint(1).onMessage((from, msg) => net.endpoint(1).send(from, { type: 'PONG' }));
 * net.endpoint(0).onMessage((_from, msg) => console.log(msg.type, 'at', net.now)); // PONG at 2
 * net.endpoint(0).send(1, { type: 'PING' });
 * await net.run();
 * ```
 *
 * @packageDocumentation
 */
export {
  constantDelay,
  type DelayModel,
  exponentialDelay,
  formatDelay,
  isConstantDelay,
  parseDelay,
  sampleDelay,
  uniformDelay,
  unitDelay,
} from './delay.js';
export type { FaultCounters, SimCounters } from './counters.js';
export type { CrashCounters } from './crash.js';
export type { SimMessage } from './events.js';
export type { FaultOptions } from './faulty-link.js';
export { SimNetwork, type SimNetworkOptions } from './network.js';
export type { RandomPartitions, SimPartitions } from './partition.js';
export { MAX_SIM_PROCESSES } from './size-limit.js';
export type { PendingEvent, RunOptions, RunResult, SimSnapshot } from './policy.js';
export type { CausalContext } from './ports.js';
export { createRng, type Rng } from '@critsec/core';
