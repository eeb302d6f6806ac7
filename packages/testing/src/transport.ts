/**
 * `@critsec/testing/transport` — the transport compliance suite: what every transport (the
 * simulator, TCP, yours) must guarantee to the algorithms above it (DESIGN.md 3.2): reliable,
 * FIFO per (from, to, channel), self-delivery, nested channels, typed errors for unknown peers.
 * Each concern is a registrar of its own file given one resolved setup object
 * ({@link transportContext}): {@link streamTests} (delivery) and {@link addressingTests}.
 *
 * @example
 * ```ts
 * import { it } from 'vitest';
 * import { transportCompliance } from '@critsec/testing/transport';
 * transportCompliance({ it, name: 'my-transport', setup: async (n) => ({ endpoints, drive, teardown }) });
 * ```
 *
 * @packageDocumentation
 */
import { addressingTests } from './transport-addressing.js';
import { type TransportComplianceSetup, transportContext } from './transport-setup.js';
import { streamTests } from './transport-streams.js';

export { addressingTests } from './transport-addressing.js';
export {
  type TransportComplianceContext,
  type TransportComplianceSetup,
  type TransportTestFn,
  type TransportUnderTest,
  transportContext,
  withTransport,
} from './transport-setup.js';
export { streamTests } from './transport-streams.js';

/** Registers the transport compliance tests: the stream test, then the two addressing tests. */
export function transportCompliance(setup: TransportComplianceSetup): void {
  const ctx = transportContext(setup);
  streamTests(ctx);
  addressingTests(ctx);
}
