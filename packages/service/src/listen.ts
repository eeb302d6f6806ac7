/**
 * Where the service listens: a Unix socket path or `host:port`, and whether that is beyond
 * loopback (then a bearer token is required).
 */
import { isIP } from 'node:net';
import { ConfigurationError } from '@critsec/core';

/** A parsed listen address: a Unix socket, or a TCP host and port. */
export type ListenAddress =
  | {
      /** A Unix domain socket. */
      readonly kind: 'unix';
      /** Its path. */
      readonly path: string;
    }
  | {
      /** A TCP address. */
      readonly kind: 'tcp';
      /** The host (a name or an IP address, without brackets). */
      readonly host: string;
      /** The port, 0 … 65535 (0: any free port). */
      readonly port: number;
    };

/**
 * Parses `<socket-path|host:port>`: a value containing `/` (or starting with `unix:`) is a Unix
 * socket path; `host:port` (IPv6 as `[::1]:port`) a TCP address; a bare port `7070` is
 * `127.0.0.1:7070`.
 * @throws ConfigurationError naming the value when it is neither.
 */
export function parseListen(text: string): ListenAddress {
  if (text.startsWith('unix:')) return { kind: 'unix', path: text.slice(5) };
  if (text.includes('/')) return { kind: 'unix', path: text };
  if (/^\d{1,5}$/.test(text) && Number(text) <= 65_535)
    return { kind: 'tcp', host: '127.0.0.1', port: Number(text) };
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = m === null ? Number.NaN : Number(m[3]);
  const host = m === null ? '' : (m[1] ?? m[2] ?? '') || '127.0.0.1';
  if (m === null || port > 65_535 || (m[1] !== undefined && isIP(host) !== 6))
    throw new ConfigurationError(
      `--serve: expected a Unix socket path (with a '/') or host:port (e.g. 127.0.0.1:7070, [::1]:7070), got '${text}'`,
    );
  return { kind: 'tcp', host, port };
}

/** True for a Unix socket, `localhost`, `127.0.0.0/8` and `::1`: only this machine can connect. */
export function isLoopback(a: ListenAddress): boolean {
  if (a.kind === 'unix') return true;
  const h = a.host.toLowerCase();
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/** The address in the form {@link parseListen} reads. */
export function formatListen(a: ListenAddress): string {
  if (a.kind === 'unix') return a.path;
  return isIP(a.host) === 6 ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}
