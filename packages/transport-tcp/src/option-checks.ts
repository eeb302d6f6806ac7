/**
 * The shape checks of `tcpTransport`'s options (options.ts resolves them): each bad value is a
 * `ConfigurationError` naming it, thrown at configuration time — never a raw `TypeError` later.
 */
import { createSecureContext } from 'node:tls';
import { ConfigurationError } from '@critsec/core';

/** What {@link checkPeers} reads of the options. */
interface PeerList {
  readonly self: unknown;
  readonly peers: unknown;
}

/** The credentials {@link checkTls} tries (PEM strings or buffers). */
interface Credentials {
  readonly ca: string | Buffer;
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}
/** Longest session id (the session layer's bound, `MAX_SESSION_LENGTH` of `@critsec/transport`). */
const MAX_SESSION_LENGTH = 64;

/** A value as written in an error message. */
export function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function fail(message: string): never {
  throw new ConfigurationError(`tcpTransport: ${message}`);
}

/** An integer option `≥ min`, or `fallback` when it is not given. */
export function intOption<F extends number | undefined>(
  name: string,
  value: unknown,
  fallback: F,
  min: number,
): number | F {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= min)) {
    fail(`${name} must be an integer ≥ ${min}, got ${shown(value)}`);
  }
  return value;
}

/** The session id: the given one if it is 1 … 64 characters, else a fresh random UUID. */
export function checkSession(session: unknown): string {
  if (session === undefined) return globalThis.crypto.randomUUID();
  if (typeof session !== 'string' || session.length < 1 || session.length > MAX_SESSION_LENGTH) {
    const got = typeof session === 'string' ? `${session.length} characters` : shown(session);
    fail(`session must be a string of 1 … ${MAX_SESSION_LENGTH} characters, got ${got}`);
  }
  return session;
}

/** The options object itself and the options that are not numbers: their types. */
export function checkShapes(o: unknown): asserts o is object {
  if (typeof o !== 'object' || o === null) fail(`options must be an object, got ${shown(o)}`);
  const x = o as Record<string, unknown>;
  const logger = x.logger as { warn?: unknown } | null | undefined;
  if (logger !== undefined && logger !== null && typeof logger?.warn !== 'function') {
    fail(`logger must be null or have a warn(message) function, got ${shown(logger)}`);
  }
  if (x.reconnect !== undefined && (typeof x.reconnect !== 'object' || x.reconnect === null)) {
    fail(`reconnect must be an object, got ${shown(x.reconnect)}`);
  }
  if (x.listenHost !== undefined && (typeof x.listenHost !== 'string' || x.listenHost.length === 0)) {
    fail(`listenHost must be a non-empty string, got ${shown(x.listenHost)}`);
  }
  if (x.onUndeliverable !== undefined && typeof x.onUndeliverable !== 'function') {
    fail(`onUndeliverable must be a function, got ${shown(x.onUndeliverable)}`);
  }
  if (
    x.onPeerRestart !== undefined &&
    !(['refuse', 'reset', 'resume'] as unknown[]).includes(x.onPeerRestart)
  ) {
    fail(`onPeerRestart must be 'refuse', 'reset' or 'resume', got ${shown(x.onPeerRestart)}`);
  }
  intOption('maxUnacked', x.maxUnacked, undefined, 1);
  intOption('maxHeldMessages', x.maxHeldMessages, undefined, 0);
  checkLinger('lingerMs', x.lingerMs);
  intOption('maxOutOfOrder', x.maxOutOfOrder, undefined, 1);
}

/** A linger deadline: undefined, or an integer number of ms in [0, 2³¹ − 1]. */
export function checkLinger(name: string, value: unknown): void {
  intOption(name, value, undefined, 0);
  if ((value as number) > 2 ** 31 - 1) fail(`${name} must be at most ${2 ** 31 - 1} ms, got ${shown(value)}`);
}

/** The peer list: distinct non-negative ids, a host and a port each, `self` among them. */
export function checkPeers(o: PeerList): void {
  if (!Array.isArray(o.peers) || o.peers.length === 0) {
    fail('peers must list every process of the cluster, self included');
  }
  const ids = new Set<unknown>();
  o.peers.forEach((p: unknown, i) => {
    if (typeof p !== 'object' || p === null) fail(`peers[${i}] must be { id, host, port }, got ${shown(p)}`);
    const { id, host, port } = p as Record<string, unknown>;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0 || ids.has(id)) {
      fail(`peer ids must be distinct non-negative integers, got ${shown(id)}`);
    }
    ids.add(id);
    if (typeof host !== 'string' || host.length === 0) fail(`peer ${id} needs a host, got ${shown(host)}`);
    if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) {
      fail(`peer ${id} port must be in 1 … 65535, got ${shown(port)}`);
    }
  });
  if (!ids.has(o.self)) fail(`self ${shown(o.self)} is not among the peers [${[...ids].join(', ')}]`);
}

/** The credentials can make a TLS context (PEM that parses, a key matching the certificate). */
export function checkTls(creds: Credentials): void {
  try {
    createSecureContext({ ca: creds.ca, cert: creds.cert, key: creds.key, minVersion: 'TLSv1.3' });
  } catch (err) {
    fail(`tls { ca, cert, key } are not usable: ${(err as Error).message}`);
  }
}
