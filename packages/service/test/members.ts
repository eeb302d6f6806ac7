/**
 * In-process members for the service's tests: n TCP transports on loopback (insecure: the TLS
 * path is @critsec/transport-tcp's), a lock manager on each and a service in front of each.
 */
import type { ProtocolClock } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createLockManager, type LockManager } from '@critsec/locks';
import { noProgressMs, waitForProgress } from '@critsec/testing';
import { type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { type LockService, quorumReadiness, startLockService } from '../src/index.js';

/** What {@link startMembers} started. */
export interface Members {
  readonly transports: TcpTransport[];
  readonly managers: LockManager[];
  readonly services: LockService[];
  close(): Promise<void>;
}

/**
 * Starts `n` members with services on 127.0.0.1 (any port). With `reselect` given (true or
 * false), the managers get it and each service's `/readyz` is `quorumReadiness` over its transport.
 */
export async function startMembers(
  n: number,
  o: {
    fencing?: boolean;
    ttl?: number;
    clock?: ProtocolClock;
    token?: string;
    shared?: string[];
    reselect?: boolean;
  } = {},
): Promise<Members> {
  const ports = await freeLoopbackPorts(n);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  const transports = peers.map((p) =>
    tcpTransport({
      self: p.id,
      peers,
      insecure: true,
      logger: null,
      reconnect: { initialDelayMs: 5, maxDelayMs: 100 },
      lingerMs: 0,
    }),
  );
  const managers = transports.map((t, id) =>
    createLockManager({
      endpoint: t.endpoint,
      id,
      n,
      ...(o.fencing === undefined ? {} : { fencing: o.fencing }),
      ...(o.ttl === undefined ? {} : { ttl: o.ttl }),
      ...(o.shared === undefined ? {} : { shared: o.shared }),
      ...(o.reselect === undefined ? {} : { reselect: o.reselect }),
    }),
  );
  await Promise.all(transports.map((t) => t.start()));
  await Promise.all(transports.map((t) => t.ready({ timeoutMs: noProgressMs() })));
  const services = await Promise.all(
    managers.map((manager, id) =>
      startLockService({
        manager,
        listen: '127.0.0.1:0',
        ...(o.reselect === undefined
          ? {}
          : {
              readiness: quorumReadiness({
                coterie: majority(n),
                id,
                reselect: o.reselect,
                isConnected: (p) => transports[id]!.isConnected(p),
                suspicions: transports[id]!.endpoint.suspicions,
              }),
            }),
        ...(o.clock === undefined ? {} : { clock: o.clock }),
        ...(o.token === undefined ? {} : { token: o.token }),
      }),
    ),
  );
  return {
    transports,
    managers,
    services,
    async close() {
      await Promise.all(services.map((s) => s.close({ graceMs: 0 })));
      await Promise.all(managers.map((m) => m.close()));
      await Promise.all(transports.map((t) => t.close()));
    },
  };
}

/** A clock whose time moves only by {@link ManualClock.advance} (the sessions' expiry in tests). */
export class ManualClock implements ProtocolClock {
  #now = 0;
  #timers = new Set<{ at: number; fn: () => void }>();
  now(): number {
    return this.#now;
  }
  setTimer(delay: number, fn: () => void): () => void {
    const t = { at: this.#now + Math.max(0, delay), fn };
    this.#timers.add(t);
    return () => this.#timers.delete(t);
  }
  /** Moves time by `ms`, firing the timers due, in order. */
  advance(ms: number): void {
    this.#now += ms;
    const due = [...this.#timers].filter((t) => t.at <= this.#now).sort((a, b) => a.at - b.at);
    for (const t of due) {
      this.#timers.delete(t);
      t.fn();
    }
  }
}

/** An answer's body as the tests read it (what the API answers; `error` on a 4xx/5xx). */
export interface Answer {
  readonly id: string;
  readonly name: string;
  readonly token: number | null;
  readonly held: unknown[];
  readonly error: { readonly code: string; readonly message: string };
}

/** A JSON request to a service in process; resolves with the status and the parsed body. */
export async function call(
  service: LockService,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Answer }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await service.fetch(new Request(`http://localhost${path}`, init));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed as Answer };
}

/** Waits until the asynchronous `check` says true (polled; bounded by `noProgressMs()` as `waitForProgress`). */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  let ok = false;
  let busy = false;
  await waitForProgress(
    () => {
      if (!busy && !ok) {
        busy = true;
        void check()
          .then(
            (r) => (ok = r),
            () => {},
          )
          .finally(() => (busy = false));
      }
      return ok;
    },
    { what },
  );
}
