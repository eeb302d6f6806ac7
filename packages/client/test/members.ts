/**
 * Real lock services for the client's tests: n members over TCP on loopback (insecure: TLS is
 * @critsec/transport-tcp's), a lock manager with fencing tokens on each, and `@critsec/service`
 * in front of each on a loopback port; each service's sessions expire by its own
 * {@link ManualClock}, so a test expires a session by advancing it, never by waiting.
 */
import type { ProtocolClock } from '@critsec/core';
import { createLockManager, type LockManager } from '@critsec/locks';
import { type LockService, startLockService } from '@critsec/service';
import { noProgressMs, waitForProgress } from '@critsec/testing';
import { type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';

/** A clock whose time moves only by {@link ManualClock.advance}. */
class ManualClock implements ProtocolClock {
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

/** What {@link startMembers} started. */
export interface Members {
  /** Each service's address, `http://127.0.0.1:<port>`. */
  readonly urls: string[];
  /** Each service's session clock. */
  readonly clocks: ManualClock[];
  close(): Promise<void>;
}

/** Starts `n` members with fencing tokens and a service each; `shared` names allow `mode: 'shared'`. */
export async function startMembers(n: number, shared: string[] = []): Promise<Members> {
  const ports = await freeLoopbackPorts(n);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  const transports: TcpTransport[] = peers.map((p) =>
    tcpTransport({
      self: p.id,
      peers,
      insecure: true,
      logger: null,
      reconnect: { initialDelayMs: 5, maxDelayMs: 100 },
      lingerMs: 0,
    }),
  );
  const managers: LockManager[] = transports.map((t, id) =>
    createLockManager({ endpoint: t.endpoint, id, n, fencing: true, shared }),
  );
  await Promise.all(transports.map((t) => t.start()));
  await Promise.all(transports.map((t) => t.ready({ timeoutMs: noProgressMs() })));
  const clocks = managers.map(() => new ManualClock());
  const services: LockService[] = await Promise.all(
    managers.map((manager, i) => startLockService({ manager, listen: '127.0.0.1:0', clock: clocks[i]! })),
  );
  return {
    urls: services.map((s) => (s.address.kind === 'tcp' ? `http://127.0.0.1:${s.address.port}` : '')),
    clocks,
    async close() {
      await Promise.all(services.map((s) => s.close({ graceMs: 0 })));
      await Promise.all(managers.map((m) => m.close()));
      await Promise.all(transports.map((t) => t.close()));
    },
  };
}

/** `promise`'s outcome, waited for with a progress bound (`noProgressMs()`) rather than forever. */
export async function settled<T>(
  promise: Promise<T>,
  what: string,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  await waitForProgress(() => outcome !== undefined, { what });
  return outcome!;
}

/** Polls the asynchronous `check` until it says true (bounded by `noProgressMs()`). */
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
