/**
 * The reference servers of the benchmark, started from their Debian packages: redis-server and
 * etcd on free loopback ports with temporary data directories, stopped (and their directories
 * removed) at the end. A missing binary is reported with the command that installs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { TransportError } from '@critsec/core';
import { freeLoopbackPorts } from '@critsec/transport-tcp/setup';
import { etcdReady } from './etcd-lock.js';
import { redisReady } from './redis-lock.js';

/** The apt command that installs the servers this benchmark compares against. */
const INSTALL_HINT = 'apt-get install -y etcd-server redis-server   (Debian/Ubuntu, as root)';

/** A server started by {@link startServer}. */
export interface RunningServer {
  /** The loopback port of its client API. */
  readonly port: number;
  /** Its process id (for its CPU time). */
  readonly pid: number;
  /** Stops it (SIGTERM, then SIGKILL after 3 s) and removes its data directory. */
  stop(): Promise<void>;
}

/** The absolute path of executable `name` on PATH, /usr/sbin or /usr/bin; `undefined` when absent. */
function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

function stopChild(child: ChildProcess, dir: string): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      resolve();
    };
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', done);
    child.kill('SIGTERM');
  });
}

/**
 * Starts `binary` with the arguments `args(port, peerPort, dir)` (two free loopback ports and a
 * fresh temporary directory), then waits until `ready(port)` resolves (polled every 100 ms,
 * up to 20 s).
 * @throws TransportError when the server exits or is not ready within 20 s (its output attached).
 */
async function startServer(
  binary: string,
  args: (port: number, peerPort: number, dir: string) => string[],
  ready: (port: number) => Promise<void>,
): Promise<RunningServer> {
  const [port, peerPort] = (await freeLoopbackPorts(2)) as [number, number];
  const dir = mkdtempSync(join(tmpdir(), 'critsec-bench-locks-'));
  const child = spawn(binary, args(port, peerPort, dir), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const server: RunningServer = { port, pid: child.pid ?? Number.NaN, stop: () => stopChild(child, dir) };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await server.stop();
      throw new TransportError(`${binary} exited with code ${child.exitCode}: ${output.slice(-1_000)}`);
    }
    try {
      await ready(port);
      return server;
    } catch (err) {
      if (Date.now() > deadline) {
        await server.stop();
        throw new TransportError(`${binary} not ready on port ${port} after 20 s: ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A redis-server on a free loopback port (`undefined`, after printing how to install it, when
 * there is none). `durable`: every write appended to its AOF and synced
 * before the reply (`appendonly yes`, `appendfsync always`) — the fair comparison for a durable
 * lock; otherwise no persistence at all (`save ''`, `appendonly no`), Redis' fastest.
 */
export async function startRedis(durable: boolean): Promise<RunningServer | undefined> {
  const bin = findBinary('redis-server');
  if (bin === undefined) {
    console.log(`redis-server not found: the Redis row is skipped. Install: ${INSTALL_HINT}`);
    return undefined;
  }
  return startServer(
    bin,
    (port, _peer, dir) => [
      '--port',
      `${port}`,
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      durable ? 'yes' : 'no',
      ...(durable ? ['--appendfsync', 'always'] : []),
      '--dir',
      dir,
    ],
    redisReady,
  );
}

/**
 * A one-member etcd on free loopback ports (`undefined`, after printing how to install it, when
 * there is none).
 */
export async function startEtcd(): Promise<RunningServer | undefined> {
  const bin = findBinary('etcd');
  if (bin === undefined) {
    console.log(`etcd not found: the etcd row is skipped. Install: ${INSTALL_HINT}`);
    return undefined;
  }
  return startServer(
    bin,
    (port, peer, dir) => [
      '--name=bench',
      `--data-dir=${dir}`,
      `--listen-client-urls=http://127.0.0.1:${port}`,
      `--advertise-client-urls=http://127.0.0.1:${port}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-cluster=bench=http://127.0.0.1:${peer}`,
      '--logger=zap',
      '--log-level=error',
    ],
    etcdReady,
  );
}
