/**
 * `startLockService`: the HTTP server (Hono on Node's `http`, `@hono/node-server`) over one
 * member's `LockManager`, on a Unix socket or a TCP address, and its graceful close.
 */
import { connect } from 'node:net';
import { lstatSync, unlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { ConfigurationError, monotonicClock, type ProtocolClock } from '@critsec/core';
import type { LockManager } from '@critsec/locks';
import { createAdaptorServer } from '@hono/node-server';
import type { Registry } from 'prom-client';
import { createApp, type Readiness } from './app.js';
import { ServiceError } from './errors.js';
import { isLoopback, type ListenAddress, parseListen } from './listen.js';
import { ServiceMetrics } from './metrics.js';
import { Sessions } from './sessions.js';

/** Options of {@link startLockService}. */
export interface LockServiceOptions {
  /** The member's lock manager (`createLockManager` of `@critsec/locks`); the service does not close it. */
  readonly manager: LockManager;
  /** Where to listen: a Unix socket path, `host:port`, or a parsed {@link ListenAddress}. */
  readonly listen: string | ListenAddress;
  /**
   * The bearer token every `/v1/*` and `/metrics` request must carry (`Authorization: Bearer
   * <token>`); `/healthz`, `/readyz` and `/openapi.json` stay open for probes. **Required** when
   * `listen` is beyond loopback (not a Unix socket, `localhost`, 127.0.0.0/8 or ::1).
   */
  readonly token?: string;
  /** Whether the member can grant now (`/readyz`); default: always ready. */
  readonly readiness?: () => Readiness;
  /** The clock sessions expire by (default the monotonic clock: ms, never the wall clock). */
  readonly clock?: ProtocolClock;
  /** Sessions live at once, at most (default 10 000): past it, TOO_MANY_SESSIONS (429). */
  readonly maxSessions?: number;
  /** Where `/metrics` reads and the service's own series go (default `manager.registry`). */
  readonly registry?: Registry;
}

/** A running service. */
export interface LockService {
  /** Where it listens (the port resolved when 0 was asked for). */
  readonly address: ListenAddress;
  /** Sessions live now. */
  readonly sessions: number;
  /** Answers one request in process, as the server would (for tests and embedding). */
  fetch(request: Request): Promise<Response>;
  /**
   * Graceful close: stops accepting connections, answers SHUTTING_DOWN (503) to `/v1/*`, ends
   * every session — waits aborted (their long-polls answered 503), locks released and exited —
   * then closes the connections (idle ones at once, busy ones after `graceMs` ms, default 5 000).
   * Does not close the manager. Idempotent.
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

/**
 * Serves `manager` over HTTP/JSON (see the README for the API). Resolves once listening.
 * @throws ConfigurationError when `listen` is beyond loopback without a `token`, or is malformed;
 *   the listen error (EADDRINUSE, EACCES…) when the address cannot be bound.
 */
export async function startLockService(options: LockServiceOptions): Promise<LockService> {
  const address = typeof options.listen === 'string' ? parseListen(options.listen) : options.listen;
  if (!isLoopback(address) && (options.token ?? '') === '')
    throw new ConfigurationError(
      `the lock service listens beyond loopback (${address.kind === 'tcp' ? address.host : ''}): give it a bearer token`,
    );
  const registry = options.registry ?? options.manager.registry;
  const metrics = new ServiceMetrics(registry, options.manager.id);
  const sessions = new Sessions(options.clock ?? monotonicClock(), options.maxSessions ?? 10_000, {
    size: (n) => metrics.sessions(n),
    expired: () => metrics.expired(),
  });
  let closing = false;
  const app = createApp({
    manager: options.manager,
    sessions,
    registry,
    readiness: options.readiness ?? (() => ({ ready: true, detail: 'no readiness check' })),
    token: options.token === '' ? undefined : options.token,
    closing: () => closing,
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const bound = await listen(server, address);
  let closed: Promise<void> | undefined;
  return {
    address: bound,
    get sessions() {
      return sessions.size;
    },
    fetch: async (request) => app.fetch(request),
    close({ graceMs = 5_000 } = {}) {
      closed ??= (async () => {
        closing = true;
        const ended = new Promise<void>((r) => server.close(() => r()));
        await sessions.endAll(new ServiceError('SHUTTING_DOWN', 'the service is shutting down'));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        await ended;
        clearTimeout(force);
        metrics.close();
      })();
      return closed;
    },
  };
}

/** Listens on `a`; a stale Unix socket (nobody accepting) is removed first. */
async function listen(server: Server, a: ListenAddress): Promise<ListenAddress> {
  if (a.kind === 'unix' && (await staleSocket(a.path))) unlinkSync(a.path);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (a.kind === 'unix') server.listen(a.path, done);
    else server.listen(a.port, a.host, done);
  });
  if (a.kind === 'unix') return a;
  const info = server.address();
  return { ...a, port: typeof info === 'object' && info !== null ? info.port : a.port };
}

/** True when `path` is a Unix socket nobody accepts on (a crashed service's). */
function staleSocket(path: string): Promise<boolean> {
  try {
    if (!lstatSync(path).isSocket()) return Promise.resolve(false);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}
