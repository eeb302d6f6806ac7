/**
 * The slot-exhaustion attack of issue 15, as a reusable run: a Maekawa cluster (grid coterie)
 * over mutual TLS on loopback keeps entering and exiting while an attacker holds hundreds of
 * idle, unauthenticated TCP connections against the listeners — from source addresses that are
 * not peers (127.0.1.x: the whole 127/8 is loopback on Linux), reopening each one 100 ms after it
 * is closed — and the links into the flooded listeners are dropped again and again, so they must
 * be re-established through the flood. The measure is progress: entries completed per process
 * inside the flood window.
 */
import net from 'node:net';
import { AbortError, type CSObject } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import type { TcpTransportOptions, TcpTransportStats } from '../src/index.js';
import { sleep, startCluster, until } from './helpers.js';

/** One flood run. */
export interface FloodOptions {
  /** Cluster size (3 … 9). */
  readonly n: number;
  /** Idle unauthenticated connections the attacker keeps open, spread over `targets`. */
  readonly sockets: number;
  /** The processes whose listeners are flooded (their inbound links are the ones dropped). */
  readonly targets: readonly number[];
  /** Length of the measured window, ms. */
  readonly windowMs: number;
  /** A link into a flooded listener is dropped this often during the window, ms. */
  readonly dropEveryMs: number;
  /** Extra transport options. */
  readonly transport?: Partial<TcpTransportOptions>;
}

/** What a flood run measured. */
export interface FloodResult {
  /** Entries completed inside the window, per process. */
  readonly entriesInWindow: number[];
  /** Entries completed before the window (warm-up). */
  readonly entriesBefore: number;
  /** Attack connections opened (first opens and reopens). */
  readonly attackOpened: number;
  /** Links dropped inside the window. */
  readonly dropped: number;
  /** Handshakes completed inside the window, all transports. */
  readonly reconnections: number;
  /** Each flooded transport's counters at the end of the window. */
  readonly stats: TcpTransportStats[];
}

/** Runs the flood of `o` and returns what it measured; always closes everything it opened. */
export async function floodRun(o: FloodOptions): Promise<FloodResult> {
  const c = await startCluster(o.n, {
    heartbeatIntervalMs: 200,
    heartbeatTimeoutMs: 2_000,
    ...o.transport,
  });
  const factory = maekawa({ coterie: grid(o.n) });
  const initial = new Array(o.n).fill('OutCS');
  const objects: CSObject[] = c.transports.map((t) =>
    factory({ id: t.self, n: o.n, endpoint: t.endpoint.channel('cs'), initial }),
  );
  const done: number[][] = objects.map(() => []);
  const stop = new AbortController();
  const loops = objects.map(async (cs, i) => {
    while (!stop.signal.aborted) {
      try {
        await cs.entry({ signal: stop.signal });
        done[i]!.push(Date.now());
        await cs.exit();
      } catch (err) {
        if (err instanceof AbortError || stop.signal.aborted) return;
        throw err;
      }
      await sleep(1);
    }
  });
  const attack = new Attack(c.peers, o.targets);
  try {
    await until(() => done.every((d) => d.length >= 5), 10_000, 'warm-up entries');
    await attack.open(o.sockets);
    const connectionsAt = c.transports.reduce((s, t) => s + t.stats.connections, 0);
    const start = Date.now();
    let dropped = 0;
    let k = 0;
    while (Date.now() - start < o.windowMs) {
      const target = o.targets[k % o.targets.length]!;
      const dialer = (target + 1 + (k >> 1)) % o.n; // any peer: the lower id of the pair dials
      if (
        dialer !== target &&
        c.transports[Math.min(dialer, target)]!.dropConnection(Math.max(dialer, target))
      )
        dropped++;
      k++;
      await sleep(o.dropEveryMs);
    }
    const end = Date.now();
    const stats = o.targets.map((t) => structuredClone(c.transports[t]!.stats));
    return {
      entriesInWindow: done.map((d) => d.filter((x) => x >= start && x <= end).length),
      entriesBefore: done.reduce((s, d) => s + d.filter((x) => x < start).length, 0),
      attackOpened: attack.opened,
      dropped,
      reconnections: c.transports.reduce((s, t) => s + t.stats.connections, 0) - connectionsAt,
      stats,
    };
  } finally {
    attack.close();
    stop.abort();
    await Promise.allSettled(loops);
    for (const cs of objects) cs.close();
    await c.close();
  }
}

/** The attacker: idle TCP connections from non-peer loopback addresses, reopened when closed. */
class Attack {
  opened = 0;
  #closed = false;
  readonly #sockets = new Set<net.Socket>();
  readonly #ports: number[];

  constructor(peers: readonly { port: number }[], targets: readonly number[]) {
    this.#ports = targets.map((t) => peers[t]!.port);
  }

  /** Opens `count` connections (round robin over the targets); resolves once each connected or failed. */
  async open(count: number): Promise<void> {
    const first: Promise<void>[] = [];
    for (let i = 0; i < count; i++) first.push(this.#one(i));
    await Promise.all(first);
  }

  #one(i: number): Promise<void> {
    const port = this.#ports[i % this.#ports.length]!;
    // 50 source addresses 127.0.1.1 … 127.0.1.50: none is a peer's address.
    const localAddress = `127.0.1.${1 + (i % 50)}`;
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    this.opened++;
    this.#sockets.add(socket);
    socket.on('error', () => {});
    socket.on('data', () => {}); // idle: reads whatever comes, says nothing
    return new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('close', () => {
        resolve();
        this.#sockets.delete(socket);
        if (!this.#closed) setTimeout(() => !this.#closed && void this.#one(i), 100).unref();
      });
    });
  }

  close(): void {
    this.#closed = true;
    for (const s of this.#sockets) s.destroy();
    this.#sockets.clear();
  }
}
