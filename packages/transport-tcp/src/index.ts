/**
 * `@critsec/transport-tcp` — the real network transport of critsec (DESIGN.md 2, 3.2; issue #6):
 * mutual TLS 1.3 with a cluster CA and the process id bound to each certificate, length-prefixed
 * JSON frames with a maximum size, the reliable-FIFO session layer of `@critsec/transport` per
 * peer (nothing lost, duplicated or reordered across reconnections), reconnection with backoff
 * and jitter, heartbeats — giving a standard `Endpoint`, so every algorithm runs unchanged.
 *
 * @example
 * ```ts
 * import { tcpTransport } from '@critsec/transport-tcp';
 * import { createDevCertificates } from '@critsec/transport-tcp/setup';
 *
 * const certs = await createDevCertificates(2);
 * const peers = [0, 1].map((id) => ({ id, host: '127.0.0.1', port: 7400 + id }));
 * const [a, b] = [0, 1].map((self) =>
 *   tcpTransport({ self, peers, tls: { ca: certs.ca, ...certs.processes[self]! } }),
 * );
 * await Promise.all([a!.start(), b!.start()]);
 * b!.endpoint.channel('demo').onMessage((from, msg) => console.log(from, msg)); // 0 { type: 'HI' }
 * a!.endpoint.channel('demo').send(1, { type: 'HI' });
 * ```
 *
 * This entry is what an application composes with: the factory, its options, and the types of
 * what it reports. Setting a cluster up — development certificates, the certificate naming rule,
 * free loopback ports — is in the subpath `@critsec/transport-tcp/setup`. The errors it throws
 * are those of `@critsec/core` (`ConfigurationError`, `TransportError`) and `@critsec/transport`.
 *
 * @packageDocumentation
 */
export type { ReconnectOptions } from './backoff.js';
export type { TcpCommitPoint, TcpDurability, TcpDurableState } from './durable.js';
export type { FrameErrorKind } from './framing.js';
export type { TcpLogger, TcpPeer, TcpTlsOptions, TcpTransportOptions } from './options.js';
export type {
  CloseReason,
  RefusalReason,
  TcpPeerStats,
  TcpTransportEvents,
  TcpTransportStats,
  UnauthenticatedStats,
} from './stats.js';
export { type TcpTransport, tcpTransport } from './tcp-transport.js';
