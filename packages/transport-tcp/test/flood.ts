/**
 * The slot-exhaustion attack of issue 15, as a reusable run: a Maekawa cluster (grid coterie)
 * over mutual TLS on loopback keeps entering and exiting while an attacker (its own OS process,
 * fixtures/idle-flood.mjs) holds hundreds of idle, unauthenticated TCP connections against the
 * listeners — from source addresses that are not peers (127.0.1.x: the whole 127/8 is loopback
 * on Linux), reopening each one 100 ms after it is closed — and the links into the flooded listeners are dropped again and again, so they must
 * be re-established through the flood. The measure is progress: entries completed per process
 * inside the flood window.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AbortError, type CSObject } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { noProgressMs } from '@critsec/testing';
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
  /**
   * Least length of the measured window, ms: it lasts until every process has completed an entry
   * inside it too (a loaded machine is slow, not wrong), at most `noProgressMs()` longer.
   */
  readonly windowMs: number;
  /** A link into a flooded listener is dropped this often during the window, ms. */
  readonly dropEveryMs: number;
  /** The attacker reopens a connection this long after it was closed, ms (default 100). */
  readonly reopenMs?: number;
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
  /** Per dropped link, ms from the drop until its dialer was connected again (links not back by the end left out). */
  readonly reconnectMs: number[];
  /** Warnings all transports logged during the flood (reports about unauthenticated connections are rate-limited). */
  readonly logLines: number;
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
  const attack = new Attack(c.peers, o.targets, o.reopenMs ?? 100);
  try {
    await until(() => done.every((d) => d.length >= 5), 'warm-up entries');
    const linesAt = c.logger.lines.length;
    await attack.open(o.sockets);
    await sleep(500); // the flood settles: its connections held, refused ones being reopened
    const connectionsAt = c.transports.reduce((s, t) => s + t.stats.connections, 0);
    const start = Date.now();
    const droppedAt = new Map<string, number>();
    const reconnectMs: number[] = [];
    const unsubscribe = c.transports.map((t) =>
      t.on('connected', ({ peer }) => {
        const at = droppedAt.get(`${t.self}-${peer}`);
        if (at !== undefined) reconnectMs.push(Date.now() - at);
        droppedAt.delete(`${t.self}-${peer}`);
      }),
    );
    let dropped = 0;
    let k = 0;
    const everyEntered = () => done.every((d) => d.some((x) => x >= start));
    const longest = o.windowMs + noProgressMs();
    while (Date.now() - start < o.windowMs || (!everyEntered() && Date.now() - start < longest)) {
      const target = o.targets[k % o.targets.length]!;
      const other = (target + 1 + (k >> 1)) % o.n; // any peer: the lower id of the pair dials
      const [lo, hi] = [Math.min(other, target), Math.max(other, target)];
      if (other !== target && c.transports[lo]!.dropConnection(hi)) {
        dropped++;
        droppedAt.set(`${lo}-${hi}`, Date.now());
      }
      k++;
      await sleep(o.dropEveryMs);
    }
    for (const u of unsubscribe) u();
    const end = Date.now();
    const stats = o.targets.map((t) => structuredClone(c.transports[t]!.stats));
    return {
      entriesInWindow: done.map((d) => d.filter((x) => x >= start && x <= end).length),
      entriesBefore: done.reduce((s, d) => s + d.filter((x) => x < start).length, 0),
      attackOpened: await attack.opened(),
      dropped,
      reconnections: c.transports.reduce((s, t) => s + t.stats.connections, 0) - connectionsAt,
      reconnectMs,
      logLines: c.logger.lines.length - linesAt,
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

/** The attacker (fixtures/idle-flood.mjs) as its own OS process, as a real one would be. */
class Attack {
  #child: ChildProcess | undefined;
  #lines: string[] = [];
  #waiters: (() => void)[] = [];
  readonly #ports: number[];
  readonly #reopenMs: number;

  constructor(peers: readonly { port: number }[], targets: readonly number[], reopenMs: number) {
    this.#ports = targets.map((t) => peers[t]!.port);
    this.#reopenMs = reopenMs;
  }

  /** Starts the attacker; resolves once its `count` connections each connected or failed. */
  async open(count: number): Promise<void> {
    const script = fileURLToPath(new URL('./fixtures/idle-flood.mjs', import.meta.url));
    const child = spawn(
      process.execPath,
      [script, String(count), String(this.#reopenMs), ...this.#ports.map(String)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    this.#child = child;
    child.on('exit', () => {
      for (const w of this.#waiters.splice(0)) w();
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.#lines.push(line);
      for (const w of this.#waiters.splice(0)) w();
    });
    await this.#line(/^ready /);
  }

  /** Connections the attacker opened so far (first opens and reopens). */
  async opened(): Promise<number> {
    if (this.#child === undefined) return 0;
    this.#child.stdin!.write('?\n');
    return Number((await this.#line(/^opened /)).split(' ')[1]);
  }

  /** Stops the attacker (its connections close with it). */
  close(): void {
    this.#child?.stdin?.end();
    this.#child?.kill();
  }

  async #line(pattern: RegExp): Promise<string> {
    for (;;) {
      const i = this.#lines.findIndex((l) => pattern.test(l));
      if (i >= 0) return this.#lines.splice(i, 1)[0]!;
      if (this.#child?.exitCode !== null) throw new Error('the attacker process exited');
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}
