/**
 * `@critsec/transport` — the transport abstraction's machinery (DESIGN.md 3.2): the {@link Link}
 * a network implements, {@link createEndpoint} that multiplexes nested channels over it,
 * {@link defineProtocol} that validates each algorithm's messages at the boundary, and the
 * reliable-FIFO session layer network transports share.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineProtocol } from '@critsec/transport';
 *
 * const ping = defineProtocol('ping', v.object({ type: v.literal('PING'), seq: v.number() }));
 * // inside an algorithm, with its endpoint:
 * // ping.listen(endpoint, (from, msg) => …, (err) => this.reportError(err));
 * ```
 *
 * @packageDocumentation
 */
export { CLOCK_MAX, tick, timestampSchema, witness } from './clock.js';
export type { LeaveOptions } from './leave.js';
export type { Link } from './link.js';
export { createEndpoint, type EndpointOptions, type RootEndpoint, type UndeliverableMessage } from './mux.js';
export {
  counterSchema,
  defineProtocol,
  type MessageSchema,
  type Protocol,
  processIdSchema,
} from './validate.js';
export { ReliableLink } from './session.js';
export type {
  CommitPoint,
  HandshakeResult,
  LinkState,
  ReliableLinkOptions,
  SessionFrame,
  SessionHello,
  SessionStats,
} from './session-frames.js';
