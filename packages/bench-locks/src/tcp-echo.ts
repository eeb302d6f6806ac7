/**
 * The raw cross-process TCP round trip: an echo server in a child Node process
 * (`bench/echo-server.ts`) and clients here, each on its own connection (Nagle off), whose round
 * is one 32-byte message out and its echo back — the floor under every lock of the table.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { TransportError } from '@critsec/core';
import type { LockClient } from './redis-lock.js';

const MESSAGE = Buffer.alloc(32, 0x61);

/** The echo server process: its port and how to stop it. */
export interface EchoServer {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts `bench/echo-server.ts` as a child process (under tsx, as this benchmark runs).
 * @throws TransportError when the child exits before printing its port.
 */
export function startEchoServer(): Promise<EchoServer> {
  const entry = fileURLToPath(new URL('../bench/echo-server.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
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
      if (out.includes('\n') && line !== undefined) resolve({ port: Number(line), stop });
    });
    child.once('exit', (code) => reject(new TransportError(`echo server exited with code ${code}`)));
  });
}

/** A client on its own connection to the echo server on `port`: `round` is one round trip. */
export async function echoClient(port: number): Promise<LockClient> {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(s));
    s.once('error', reject);
  });
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
