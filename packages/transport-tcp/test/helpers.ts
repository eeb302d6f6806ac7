import type { Message, ProcessId } from '@critsec/core';
import { noProgressMs, waitForProgress } from '@critsec/testing';
import { type TcpTransport, type TcpTransportOptions, tcpTransport } from '../src/index.js';
import { type ClusterCertificates, createDevCertificates, freeLoopbackPorts } from '../src/setup.js';

let certCache: Promise<ClusterCertificates> | undefined;
/** One CA + 10 process certificates shared by the tests of a file. */
export function devCerts(): Promise<ClusterCertificates> {
  certCache ??= createDevCertificates(10);
  return certCache;
}

export interface Warnings {
  readonly lines: string[];
  warn(message: string): void;
}
export function collectWarnings(): Warnings {
  const lines: string[] = [];
  return { lines, warn: (m) => lines.push(m) };
}

/** n transports on loopback with mutual TLS, started and connected. */
export async function startCluster(
  n: number,
  extra: Partial<TcpTransportOptions> = {},
): Promise<{
  transports: TcpTransport[];
  peers: { id: number; host: string; port: number }[];
  logger: Warnings;
  close(): Promise<void>;
}> {
  const certs = await devCerts();
  const ports = await freeLoopbackPorts(n);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  const logger = collectWarnings();
  const transports = peers.map((p) =>
    tcpTransport({
      self: p.id,
      peers,
      tls: { ca: certs.ca, cert: certs.processes[p.id]!.cert, key: certs.processes[p.id]!.key },
      logger,
      reconnect: { initialDelayMs: 5, maxDelayMs: 100 },
      // most tests close one process alone, as a crash would; the graceful leave has tests of its own
      lingerMs: 0,
      ...extra,
    }),
  );
  await Promise.all(transports.map((t) => t.start()));
  await Promise.all(transports.map((t) => t.ready({ timeoutMs: noProgressMs() })));
  return {
    transports,
    peers,
    logger,
    close: () => Promise.all(transports.map((t) => t.close())).then(() => {}),
  };
}

/**
 * A small protocol for tests: each process sends numbered messages `SEQ { k }` on a few channels
 * to every peer; the receiver checks `k` is exactly the next expected per (from, channel) — a
 * gap, a duplicate or a reordering fails the check.
 */
export class SeqChecker {
  readonly next = new Map<string, number>();
  readonly errors: string[] = [];
  received = 0;

  constructor(readonly self: ProcessId) {}

  onMessage(channel: string) {
    return (from: ProcessId, msg: Message) => {
      const key = `${from}/${channel}`;
      const k = msg.k as number;
      const want = this.next.get(key) ?? 0;
      if (k !== want)
        this.errors.push(`P${this.self} from P${from} on ${channel}: got ${k}, expected ${want}`);
      this.next.set(key, Math.max(want, k + 1));
      this.received++;
    };
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Polls `cond` every few ms until true. A wait on a real network has no deadline: it fails only
 * after `noProgressMs()` of `@critsec/testing` (two minutes) with `cond` false and `measure()`
 * (default: nothing, a single event) unchanged.
 */
export function until(cond: () => boolean, what: string, measure?: () => unknown): Promise<void> {
  return waitForProgress(cond, { what, measure });
}

/** A hand-driven connection to a transport's listener, to play a misbehaving peer. */
export interface RawConn {
  readonly socket: import('node:net').Socket;
  /** Frames received (decoded JSON). */
  readonly frames: unknown[];
  /** Sends one JSON value as a frame. */
  send(value: unknown): void;
  /** Sends raw bytes. */
  raw(bytes: Buffer): void;
  /** Resolves when the socket is closed. */
  readonly closed: Promise<void>;
  isClosed(): boolean;
}

/** Connects to 127.0.0.1:`port`, with TLS `creds` or as plain TCP; resolves once connected (and TLS-handshaken). */
export async function rawConnect(
  port: number,
  creds?: { ca: string; cert: string; key: string; checkServerIdentity?: () => undefined },
): Promise<RawConn> {
  const net = await import('node:net');
  const tls = await import('node:tls');
  const { FrameDecoder, encodeFrame } = await import('../src/framing.js');
  const socket: import('node:net').Socket = creds
    ? tls.connect({
        host: '127.0.0.1',
        port,
        ...creds,
        minVersion: 'TLSv1.3',
        checkServerIdentity: () => undefined,
      })
    : net.connect({ host: '127.0.0.1', port });
  const frames: unknown[] = [];
  const decoder = new FrameDecoder(16 * 1024 * 1024);
  let closedFlag = false;
  socket.on('data', (chunk: Buffer) => {
    frames.push(...decoder.push(chunk));
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closedFlag = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve) => {
    socket.once(creds ? 'secureConnect' : 'connect', () => resolve());
    socket.once('close', () => resolve());
  });
  return {
    socket,
    frames,
    send: (v) => {
      if (!socket.destroyed)
        socket.write(encodeFrame(typeof v === 'string' ? v : JSON.stringify(v), 16 * 1024 * 1024));
    },
    raw: (b) => {
      if (!socket.destroyed) socket.write(b);
    },
    closed,
    isClosed: () => closedFlag,
  };
}

/** A transport for process `self` of a cluster whose other members the test plays by hand. */
export async function lone(
  self: ProcessId,
  n: number,
  extra: Partial<TcpTransportOptions> = {},
): Promise<{
  t: TcpTransport;
  peers: { id: number; host: string; port: number }[];
  logger: Warnings;
  certs: ClusterCertificates;
}> {
  const certs = await devCerts();
  const ports = await freeLoopbackPorts(n);
  const peers = ports.map((port, id) => ({ id, host: '127.0.0.1', port }));
  const logger = collectWarnings();
  const t = tcpTransport({
    self,
    peers,
    tls: { ca: certs.ca, cert: certs.processes[self]!.cert, key: certs.processes[self]!.key },
    logger,
    reconnect: { initialDelayMs: 5, maxDelayMs: 100 },
    lingerMs: 0,
    ...extra,
  });
  await t.start();
  return { t, peers, logger, certs };
}

/** The hello a dialer sends. */
export function helloFrame(id: ProcessId, session: string, next = 1, peer: string | null = null) {
  return { t: 'hello', v: 1, id, session, next, peer };
}
