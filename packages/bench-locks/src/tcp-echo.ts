/**
 * The raw cross-process round trips: an echo server in a child Node process
 * (`bench/echo-server.ts`) and clients here, each on its own connection (Nagle off), whose round
 * is one 32-byte message out and its echo back — over plain TCP, the floor under every lock of
 * the table; over mutual TLS 1.3 with the critsec rows' certificates, the floor under those.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect as connectTls } from 'node:tls';
import { TransportError } from '@critsec/core';
import type { LockClient } from './redis-lock.js';

const MESSAGE = Buffer.alloc(32, 0x61);

/** The echo server process: its port and how to stop it. */
export interface EchoServer {
  readonly port: number;
  /** The echo server's process id (for its CPU time). */
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `bench/echo-server.ts` as a child process (under tsx, as this benchmark runs); with
 * `tlsDir`, a mutual-TLS echo with the certificates of process 0 in that directory.
 * @throws TransportError when the child exits before printing its port.
 */
export function startEchoServer(tlsDir?: string): Promise<EchoServer> {
  const entry = fileURLToPath(new URL('../bench/echo-server.ts', import.meta.url));
  const args = ['--import', 'tsx', entry, ...(tlsDir === undefined ? [] : ['--tls', tlsDir])];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined)
        resolve({ port: Number(line), pid: child.pid ?? Number.NaN, stop });
    });
    child.once('exit', (code) => reject(new TransportError(`echo server exited with code ${code}`)));
  });
}

function open(port: number, tlsDir: string | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (tlsDir === undefined) {
      const s = connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(s));
      s.once('error', reject);
      return;
    }
    const s = connectTls(
      {
        host: '127.0.0.1',
        port,
        ca: readFileSync(join(tlsDir, 'ca.pem')),
        cert: readFileSync(join(tlsDir, 'p1.cert.pem')),
        key: readFileSync(join(tlsDir, 'p1.key.pem')),
        minVersion: 'TLSv1.3',
        // the chain is verified against the cluster CA; the name is a process id, not a host
        checkServerIdentity: () => undefined,
      },
      () => {
        s.setNoDelay(true);
        resolve(s);
      },
    );
    s.once('error', reject);
  });
}

/**
 * A client on its own connection to the echo server on `port` (mutual TLS with the certificate
 * of process 1 in `tlsDir` when given): `round` is one round trip.
 */
export async function echoClient(port: number, tlsDir?: string): Promise<LockClient> {
  const socket = await open(port, tlsDir);
  let waiting: { need: number; resolve: () => void } | undefined;
  socket.on('data', (chunk: Buffer) => {
    if (waiting === undefined) return;
    waiting.need -= chunk.length;
    if (waiting.need <= 0) {
      const w = waiting;
      waiting = undefined;
      w.resolve();
    }
  });
  const round = () =>
    new Promise<void>((resolve) => {
      waiting = { need: MESSAGE.length, resolve };
      socket.write(MESSAGE);
    });
  return {
    round,
    close: async () => {
      socket.destroy();
    },
  };
}
