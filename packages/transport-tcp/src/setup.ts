/**
 * `@critsec/transport-tcp/setup` — setting a cluster of `tcpTransport` processes up, beside
 * the transport itself: development certificates (a cluster CA and one certificate per process,
 * the process id in its SAN URI `critsec://process/<id>`), reading that id back, and free
 * loopback ports for local clusters and tests.
 *
 * @example
 * ```ts
 * import { tcpTransport } from '@critsec/transport-tcp';
 * import { createDevCertificates, freeLoopbackPorts } from '@critsec/transport-tcp/setup';
 *
 * const certs = await createDevCertificates(2);
 * const ports = await freeLoopbackPorts(2);
 * const peers = [0, 1].map((id) => ({ id, host: '127.0.0.1', port: ports[id]! }));
 * const t = tcpTransport({ self: 0, peers, tls: { ca: certs.ca, ...certs.processes[0]! } });
 * ```
 *
 * @packageDocumentation
 */
export {
  type ClusterCertificates,
  createDevCertificates,
  type DevCertificateOptions,
  PROCESS_URI_PREFIX,
  type ProcessCredentials,
  processIdFromSubjectAltName,
  processUri,
} from './certs.js';
export { freeLoopbackPorts } from './ports.js';
