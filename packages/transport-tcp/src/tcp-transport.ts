/**
 * The TCP transport (issue #6): one connection per pair of processes (the lower id dials),
 * mutual TLS 1.3 with a cluster CA and the process id bound to the certificate, length-prefixed
 * JSON frames, and the reliable-FIFO session layer of `@critsec/transport` per peer so that a
 * dropped connection loses, duplicates or reorders nothing above the transport. Reconnects with
 * exponential backoff and jitter; heartbeats detect a dead peer. The result is a standard
 * {@link Endpoint} (DESIGN.md 3.2), so every algorithm runs over it unchanged.
 *
 * Wire protocol (each item one frame):
 * - dialer → acceptor: `{t:'hello', v:1, id, session, next, peer}`; acceptor → dialer: its own
 *   hello, or `{t:'refuse', reason}` and close. `session/next/peer` are the session layer's
 *   resume handshake ({@link SessionHello}).
 * - then, both ways: session frames `{t:'data', seq, p:{c: channel, m: message}}` and
 *   `{t:'ack', ack}`, heartbeats `{t:'ping'}`, and `{t:'bye'}` before a deliberate close.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import tls from 'node:tls';
import {
  ConfigurationError,
  Emitter,
  type Endpoint,
  type Message,
  type ProcessId,
  ProtocolError,
  TransportError,
} from '@critsec/core';
import {
  createEndpoint,
  type Link,
  ReliableLink,
  type RootEndpoint,
  type SessionStats,
  type UndeliverableMessage,
} from '@critsec/transport';
import { Backoff, type ReconnectOptions } from './backoff.js';
import { processIdFromSubjectAltName } from './certs.js';
import {
  checkMaxFrameBytes,
  DEFAULT_MAX_FRAME_BYTES,
  encodeFrame,
  FrameDecoder,
  type FrameErrorKind,
} from './framing.js';

/** One process of the cluster: its id and where it listens. */
export interface TcpPeer {
  readonly id: ProcessId;
  readonly host: string;
  readonly port: number;
}

/** Mutual-TLS credentials of this process (PEM strings or buffers). */
export interface TcpTlsOptions {
  /** The cluster CA certificate: the only CA trusted for peers. */
  readonly ca: string | Buffer;
  /** This process's certificate, naming it as `critsec://process/<self>`. */
  readonly cert: string | Buffer;
  /** This process's private key. */
  readonly key: string | Buffer;
}

/** Where the transport writes warnings (refused connections, closed connections). */
export interface TcpLogger {
  warn(message: string): void;
}

/** Options of {@link tcpTransport}. */
export interface TcpTransportOptions {
  /** This process's id (must be one of `peers`). */
  readonly self: ProcessId;
  /** Every process of the cluster, `self` included (its entry says where to listen). */
  readonly peers: readonly TcpPeer[];
  /** Mutual-TLS credentials; required unless `insecure`. */
  readonly tls?: TcpTlsOptions;
  /**
   * Plain TCP without authentication — for loopback demos only: refused unless every host is a
   * loopback address, and logs a warning.
   */
  readonly insecure?: boolean;
  /** Address to listen on (default: this process's `host`). */
  readonly listenHost?: string;
  /** Maximum frame body in bytes (default 64 KiB; 64 … 16 MiB). Larger messages throw at `send`. */
  readonly maxFrameBytes?: number;
  /**
   * Bytes queued in a connection's socket before the transport stops writing data frames to it
   * (they stay in the session buffer and are written on `drain`). Default 1 MiB.
   */
  readonly maxBufferedBytes?: number;
  /** Bound on unacknowledged messages per peer (default 10 000); beyond it `send` throws `TransportError`. */
  readonly maxUnacked?: number;
  /** Bound on out-of-order frames buffered per peer (default 1 024). */
  readonly maxOutOfOrder?: number;
  /** Time allowed from TCP connect to a completed TLS + hello handshake, in ms (default 5 000). */
  readonly handshakeTimeoutMs?: number;
  /** A ping is sent after this long without sending anything, in ms (default 1 000). */
  readonly heartbeatIntervalMs?: number;
  /** A connection silent for this long is closed and redialled, in ms (default 5 000; > interval). */
  readonly heartbeatTimeoutMs?: number;
  /** Reconnection backoff of the dialing side. */
  readonly reconnect?: ReconnectOptions;
  /**
   * What to do when a peer comes back with a new session (it restarted and lost its state):
   * `'refuse'` (default; the algorithms assume no crashes, so its connection is refused and the
   * others wait safely) or `'reset'` (start a fresh session with it; messages the old
   * incarnation had not acknowledged are discarded). See `ReliableLink` in `@critsec/transport`.
   */
  readonly onPeerRestart?: 'refuse' | 'reset';
  /** This incarnation's session id (default: a random UUID per transport). */
  readonly session?: string;
  /** Warnings go here (default `console`); `null` silences them. */
  readonly logger?: TcpLogger | null;
  /** Called for each message that reached no channel handler. */
  readonly onUndeliverable?: (u: UndeliverableMessage) => void;
}

/** Why an incoming or outgoing connection was refused. */
export type RefusalReason =
  | 'tls'
  | 'certificate'
  | 'handshake-timeout'
  | 'unknown-peer'
  | 'wrong-id'
  | 'wrong-direction'
  | 'peer-restarted'
  | 'bad-hello'
  | 'refused-by-peer';

/** Why an established connection was closed by this side. */
export type CloseReason = FrameErrorKind | 'heartbeat-timeout' | 'protocol' | 'replaced';

/** Events of a {@link TcpTransport}. */
export interface TcpTransportEvents {
  /** A connection with `peer` completed its handshake (`kind` from the session layer). */
  connected: { peer: ProcessId; kind: 'new' | 'resumed' | 'reset'; resent: number };
  /** The connection with `peer` is gone (it will be redialled by the lower id). */
  disconnected: { peer: ProcessId; reason: string };
  /** A connection was refused (counted in `stats.refused`). */
  refused: { peer: ProcessId | undefined; reason: RefusalReason; detail: string };
  /** A non-fatal problem: an invalid message dropped, a handler that threw, a peer refusing us. */
  error: Error;
}

/** Per-peer counters. */
export interface TcpPeerStats {
  readonly id: ProcessId;
  readonly connected: boolean;
  /** Completed handshakes with this peer. */
  readonly connections: number;
  /** The session layer's counters for this peer (messages sent, delivered, duplicates, …). */
  readonly session: Readonly<SessionStats>;
  /** Messages sent but not yet acknowledged. */
  readonly unacked: number;
  /** Ahead-of-order frames held right now (at most `maxOutOfOrder`). */
  readonly bufferedOutOfOrder: number;
}

/** Transport-wide counters. */
export interface TcpTransportStats {
  /** Completed handshakes (first connections and reconnections). */
  connections: number;
  /** Established connections that were lost or closed. */
  disconnections: number;
  framesIn: number;
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
  /** Refused connections by reason. */
  refused: Record<RefusalReason, number>;
  /** Connections this side closed for bad input or silence, by reason. */
  closed: Record<CloseReason, number>;
  /** Frames of unknown shape on an established connection (dropped). */
  malformedFrames: number;
  /** Data frames whose payload was not `{c: string, m: {type: string}}` (dropped). */
  invalidPayloads: number;
  /** Exceptions thrown by message handlers (reported through `error`). */
  handlerErrors: number;
}

/** A running TCP transport: the {@link Endpoint} plus lifecycle, events and counters. */
export interface TcpTransport {
  /** The process's root endpoint; hand it (or its channels) to CS objects. */
  readonly endpoint: RootEndpoint;
  readonly self: ProcessId;
  /** This incarnation's session id. */
  readonly session: string;
  /** Starts listening and dialing. @throws TransportError if the port cannot be bound. */
  start(): Promise<void>;
  /**
   * Resolves once every peer has been connected (at least once).
   * @throws TransportError after `timeoutMs` (default 30 000) naming the missing peers.
   */
  ready(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Resolves once every message sent so far has been acknowledged by its receiver.
   * @throws TransportError after `timeoutMs` (default 30 000) naming the peers still behind.
   */
  flush(options?: { timeoutMs?: number }): Promise<void>;
  /** Closes every connection and the listener; later `send`s throw. Idempotent. */
  close(): Promise<void>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof TcpTransportEvents>(event: E, fn: (value: TcpTransportEvents[E]) => void): () => void;
  /** Closes the current connection with `peer` (it is redialled): for operators and fault tests. */
  dropConnection(peer: ProcessId): boolean;
  /** True while a connection with `peer` is established. */
  isConnected(peer: ProcessId): boolean;
  /** Counters of one peer. @throws TransportError for an unknown peer. */
  peerStats(peer: ProcessId): TcpPeerStats;
  /** Transport-wide counters (live). */
  readonly stats: Readonly<TcpTransportStats>;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;
const MAX_CHANNEL_LENGTH = 1024;
const HELLO_VERSION = 1;
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

interface Conn {
  readonly socket: net.Socket;
  readonly outbound: boolean;
  readonly decoder: FrameDecoder;
  /** The id proven by the certificate (TLS) — undefined in insecure mode. */
  certId: ProcessId | undefined;
  peer: PeerState | undefined;
  state: 'handshake' | 'established' | 'closed';
  lastRx: number;
  lastTx: number;
  corked: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Why this side closed it, if it did. */
  reason: string | undefined;
}

interface PeerState {
  readonly id: ProcessId;
  readonly addr: TcpPeer;
  readonly dialer: boolean;
  readonly link: ReliableLink<unknown>;
  conn: Conn | undefined;
  dialing: Conn | undefined;
  attempt: number;
  reconnectTimer: NodeJS.Timeout | undefined;
  connections: number;
  /** First data seq not written because the socket was over `maxBufferedBytes`. */
  blockedFrom: number | undefined;
  ackOwed: boolean;
}

function validateOptions(o: TcpTransportOptions): void {
  if (!Array.isArray(o.peers) || o.peers.length === 0) {
    throw new ConfigurationError('tcpTransport: peers must list every process of the cluster, self included');
  }
  const ids = new Set<number>();
  for (const p of o.peers) {
    if (!Number.isSafeInteger(p.id) || p.id < 0 || ids.has(p.id)) {
      throw new ConfigurationError(
        `tcpTransport: peer ids must be distinct non-negative integers, got ${JSON.stringify(p.id)}`,
      );
    }
    ids.add(p.id);
    if (typeof p.host !== 'string' || p.host.length === 0) {
      throw new ConfigurationError(`tcpTransport: peer ${p.id} needs a host, got ${JSON.stringify(p.host)}`);
    }
    if (!Number.isInteger(p.port) || p.port < 1 || p.port > 65535) {
      throw new ConfigurationError(
        `tcpTransport: peer ${p.id} port must be in 1 … 65535, got ${String(p.port)}`,
      );
    }
  }
  if (!ids.has(o.self)) {
    throw new ConfigurationError(
      `tcpTransport: self ${String(o.self)} is not among the peers [${[...ids].join(', ')}]`,
    );
  }
  if (o.insecure === true) {
    const remote = o.peers.filter((p) => !LOOPBACK.test(p.host));
    if (remote.length > 0) {
      throw new ConfigurationError(
        `tcpTransport: insecure mode is for loopback demos only, but peer ${remote[0]!.id} is at ${remote[0]!.host}; ` +
          'give tls credentials (see createDevCertificates) for real networks',
      );
    }
  } else if (!o.tls?.ca || !o.tls.cert || !o.tls.key) {
    throw new ConfigurationError(
      'tcpTransport: tls { ca, cert, key } is required (security is on by default); ' +
        'make a cluster CA with createDevCertificates(n), or pass insecure: true for a loopback demo',
    );
  }
  const hbI = o.heartbeatIntervalMs ?? 1_000;
  const hbT = o.heartbeatTimeoutMs ?? 5_000;
  if (!(hbI > 0) || !(hbT > hbI)) {
    throw new ConfigurationError(
      `tcpTransport: need 0 < heartbeatIntervalMs < heartbeatTimeoutMs, got ${hbI} and ${hbT}`,
    );
  }
  const ht = o.handshakeTimeoutMs ?? 5_000;
  if (!(ht > 0)) throw new ConfigurationError(`tcpTransport: handshakeTimeoutMs must be > 0, got ${ht}`);
  const mb = o.maxBufferedBytes ?? 1024 * 1024;
  if (!(Number.isSafeInteger(mb) && mb >= 1024)) {
    throw new ConfigurationError(
      `tcpTransport: maxBufferedBytes must be an integer ≥ 1024, got ${String(mb)}`,
    );
  }
}

/** Classifies a TLS handshake failure for the refusal counters. */
function classifyTlsError(err: Error & { code?: string }): RefusalReason {
  const text = `${err.code ?? ''} ${err.message}`;
  if (/timeout/i.test(text)) return 'handshake-timeout';
  if (/CERT|certificate|UNKNOWN_CA|unknown ca/i.test(text)) return 'certificate';
  return 'tls';
}

class TcpTransportImpl implements TcpTransport, Link {
  readonly self: ProcessId;
  readonly peers: readonly ProcessId[];
  readonly session: string;
  readonly endpoint: RootEndpoint;
  readonly stats: TcpTransportStats = {
    connections: 0,
    disconnections: 0,
    framesIn: 0,
    framesOut: 0,
    bytesIn: 0,
    bytesOut: 0,
    refused: {
      tls: 0,
      certificate: 0,
      'handshake-timeout': 0,
      'unknown-peer': 0,
      'wrong-id': 0,
      'wrong-direction': 0,
      'peer-restarted': 0,
      'bad-hello': 0,
      'refused-by-peer': 0,
    },
    closed: {
      oversize: 0,
      'bad-length': 0,
      undecodable: 0,
      'heartbeat-timeout': 0,
      protocol: 0,
      replaced: 0,
    },
    malformedFrames: 0,
    invalidPayloads: 0,
    handlerErrors: 0,
  };

  readonly #o: TcpTransportOptions;
  readonly #secure: boolean;
  readonly #maxFrameBytes: number;
  readonly #maxBufferedBytes: number;
  readonly #handshakeTimeoutMs: number;
  readonly #hbInterval: number;
  readonly #hbTimeout: number;
  readonly #backoff: Backoff;
  readonly #logger: TcpLogger | null;
  readonly #peerStates = new Map<ProcessId, PeerState>();
  readonly #conns = new Set<Conn>();
  readonly #events = new Emitter<TcpTransportEvents>((err) =>
    this.#logger?.warn(`critsec P${this.self}: an event listener threw: ${String(err)}`),
  );
  readonly #progress = new EventEmitter();
  #receiver: (from: ProcessId, channel: string, msg: Message) => void = () => {};
  #selfQueue: { c: string; m: Message }[] = [];
  #server: net.Server | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;

  constructor(o: TcpTransportOptions) {
    validateOptions(o);
    this.#o = o;
    this.self = o.self;
    this.peers = o.peers.map((p) => p.id).sort((a, b) => a - b);
    this.#secure = o.insecure !== true;
    this.#maxFrameBytes = checkMaxFrameBytes(o.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.#maxBufferedBytes = o.maxBufferedBytes ?? 1024 * 1024;
    this.#handshakeTimeoutMs = o.handshakeTimeoutMs ?? 5_000;
    this.#hbInterval = o.heartbeatIntervalMs ?? 1_000;
    this.#hbTimeout = o.heartbeatTimeoutMs ?? 5_000;
    this.#backoff = new Backoff(o.reconnect);
    this.#logger = o.logger === undefined ? console : o.logger;
    this.session = o.session ?? globalThis.crypto.randomUUID();
    this.#progress.setMaxListeners(0);
    for (const addr of o.peers) {
      if (addr.id === o.self) continue;
      const state: PeerState = {
        id: addr.id,
        addr,
        dialer: o.self < addr.id,
        link: undefined as unknown as ReliableLink<unknown>,
        conn: undefined,
        dialing: undefined,
        attempt: 0,
        reconnectTimer: undefined,
        connections: 0,
        blockedFrom: undefined,
        ackOwed: false,
      };
      (state as { link: ReliableLink<unknown> }).link = new ReliableLink<unknown>({
        transmit: (frame) => this.#transmit(state, frame),
        deliver: (p) => this.#deliver(state.id, p),
        session: this.session,
        autoAck: false,
        onPeerRestart: o.onPeerRestart ?? 'refuse',
        ...(o.maxUnacked === undefined ? {} : { maxUnacked: o.maxUnacked }),
        ...(o.maxOutOfOrder === undefined ? {} : { maxOutOfOrder: o.maxOutOfOrder }),
      });
      this.#peerStates.set(addr.id, state);
    }
    this.endpoint = createEndpoint(this, o.onUndeliverable ? { onUndeliverable: o.onUndeliverable } : {});
  }

  // ---- Link ------------------------------------------------------------------------------

  setReceiver(receive: (from: ProcessId, channel: string, msg: Message) => void): void {
    this.#receiver = receive;
  }

  send(to: ProcessId, channel: string, msg: Message): void {
    if (this.#closed) throw new TransportError(`send on closed TCP transport of P${this.self}`);
    if (typeof channel !== 'string' || channel.length > MAX_CHANNEL_LENGTH) {
      throw new TransportError(`channel must be a string of at most ${MAX_CHANNEL_LENGTH} characters`);
    }
    if (!isObject(msg) || typeof msg.type !== 'string') {
      throw new TransportError(`a message must be a plain object with a string 'type', got ${String(msg)}`);
    }
    let text: string;
    try {
      text = JSON.stringify({ c: channel, m: msg });
    } catch (err) {
      throw new TransportError(
        `message of type '${msg.type}' is not JSON-serializable: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    if (to === this.self) {
      // Delivered on a later turn of the event loop (FIFO), like a network message: a
      // process that keeps messaging itself must not starve its sockets.
      this.#selfQueue.push(JSON.parse(text) as { c: string; m: Message });
      if (this.#selfQueue.length === 1) setImmediate(() => this.#flushSelf());
      return;
    }
    const peer = this.#peerStates.get(to);
    if (peer === undefined) {
      throw new TransportError(`unknown peer ${String(to)}; the peers are [${this.peers.join(', ')}]`);
    }
    // Frame overhead: {"t":"data","seq":<≤16 digits>,"p":…} is at most 40 bytes.
    const bytes = Buffer.byteLength(text, 'utf8') + 40;
    if (bytes > this.#maxFrameBytes) {
      throw new TransportError(
        `message of type '${msg.type}' encodes to ${bytes} bytes, over the maximum frame size of ` +
          `${this.#maxFrameBytes} bytes; send smaller messages or raise maxFrameBytes`,
      );
    }
    peer.link.send(text);
  }

  #flushSelf(): void {
    const batch = this.#selfQueue;
    this.#selfQueue = [];
    for (const { c, m } of batch) {
      if (this.#closed) return;
      this.#dispatch(this.self, c, m);
    }
  }

  // ---- lifecycle -------------------------------------------------------------------------

  async start(): Promise<void> {
    if (this.#closed) throw new TransportError(`P${this.self}: start() after close()`);
    if (this.#started) return;
    this.#started = true;
    if (!this.#secure) {
      this.#logger?.warn(
        `critsec P${this.self}: insecure mode — plain TCP without authentication; for loopback demos only`,
      );
    }
    const me = this.#o.peers.find((p) => p.id === this.self)!;
    const server = this.#secure
      ? tls.createServer(
          {
            ca: this.#o.tls!.ca,
            cert: this.#o.tls!.cert,
            key: this.#o.tls!.key,
            requestCert: true,
            rejectUnauthorized: true,
            minVersion: 'TLSv1.3',
            handshakeTimeout: this.#handshakeTimeoutMs,
          },
          (socket) => this.#accept(socket),
        )
      : net.createServer((socket) => this.#accept(socket));
    server.maxConnections = 4 * this.peers.length + 64;
    if (this.#secure) {
      server.on('tlsClientError', (err: Error, socket: tls.TLSSocket) => {
        // With rejectUnauthorized, Node destroys a client whose certificate fails verification
        // and records why in authorizationError; the error itself is then a bare reset.
        const authError = socket.authorizationError as unknown;
        const reason = authError ? 'certificate' : classifyTlsError(err);
        const why = authError ? `client certificate rejected (${String(authError)})` : err.message;
        this.#refuse(undefined, reason, `TLS handshake from ${remoteOf(socket)} failed: ${why}`);
        socket.destroy();
      });
    }
    server.on('error', (err) =>
      this.#emitError(new TransportError(`P${this.self} listener: ${err.message}`)),
    );
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) =>
        reject(
          new TransportError(
            `P${this.self} cannot listen on ${this.#o.listenHost ?? me.host}:${me.port}: ${err.message}`,
            { cause: err },
          ),
        );
      server.once('error', onError);
      server.listen(me.port, this.#o.listenHost ?? me.host, () => {
        server.off('error', onError);
        resolve();
      });
    });
    this.#heartbeat = setInterval(() => this.#tick(), Math.max(10, Math.floor(this.#hbInterval / 2)));
    this.#heartbeat.unref();
    for (const peer of this.#peerStates.values()) if (peer.dialer) this.#dial(peer);
  }

  ready(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.#waitFor(
      () => [...this.#peerStates.values()].filter((p) => p.connections === 0).map((p) => p.id),
      options.timeoutMs ?? 30_000,
      (missing) => `P${this.self} is not connected to P${missing.join(', P')}`,
    );
  }

  flush(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.#waitFor(
      () => [...this.#peerStates.values()].filter((p) => p.link.unacked > 0).map((p) => p.id),
      options.timeoutMs ?? 30_000,
      (behind) => `P${this.self} still has unacknowledged messages for P${behind.join(', P')}`,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.endpoint.close();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    for (const peer of this.#peerStates.values()) {
      if (peer.reconnectTimer) clearTimeout(peer.reconnectTimer);
      peer.reconnectTimer = undefined;
    }
    const closing: Promise<void>[] = [];
    for (const conn of [...this.#conns]) {
      closing.push(
        new Promise<void>((resolve) => {
          if (conn.socket.destroyed) return resolve();
          conn.socket.once('close', () => resolve());
          if (conn.state === 'established') this.#write(conn, '{"t":"bye"}');
          conn.socket.end();
          setTimeout(() => conn.socket.destroy(), 1_000).unref();
        }),
      );
    }
    const server = this.#server;
    if (server) closing.push(new Promise<void>((resolve) => server.close(() => resolve())));
    this.#progress.emit('change');
    await Promise.all(closing);
  }

  on<E extends keyof TcpTransportEvents>(event: E, fn: (value: TcpTransportEvents[E]) => void): () => void {
    return this.#events.on(event, fn);
  }

  dropConnection(peer: ProcessId): boolean {
    const state = this.#peerStates.get(peer);
    if (state?.conn === undefined) return false;
    state.conn.socket.destroy();
    return true;
  }

  isConnected(peer: ProcessId): boolean {
    return this.#peerStates.get(peer)?.conn?.state === 'established';
  }

  peerStats(peer: ProcessId): TcpPeerStats {
    const s = this.#peerStates.get(peer);
    if (s === undefined)
      throw new TransportError(`unknown peer ${peer}; the peers are [${this.peers.join(', ')}]`);
    return {
      id: s.id,
      connected: s.conn?.state === 'established',
      connections: s.connections,
      session: s.link.stats,
      unacked: s.link.unacked,
      bufferedOutOfOrder: s.link.bufferedOutOfOrder,
    };
  }

  // ---- connections -----------------------------------------------------------------------

  #newConn(socket: net.Socket, outbound: boolean, peer: PeerState | undefined): Conn {
    const now = Date.now();
    const conn: Conn = {
      socket,
      outbound,
      decoder: new FrameDecoder(this.#maxFrameBytes),
      certId: undefined,
      peer,
      state: 'handshake',
      lastRx: now,
      lastTx: now,
      corked: false,
      timer: undefined,
      reason: undefined,
    };
    this.#conns.add(conn);
    socket.setNoDelay(true);
    conn.timer = setTimeout(() => {
      if (outbound && socket.connecting) {
        socket.destroy(); // the peer is unreachable: not a refusal, just redial later
        return;
      }
      if (conn.state === 'handshake') {
        this.#refuse(conn.peer?.id, 'handshake-timeout', `no hello within ${this.#handshakeTimeoutMs} ms`);
        this.#destroy(conn, 'handshake timeout');
      }
    }, this.#handshakeTimeoutMs);
    conn.timer.unref();
    socket.on('data', (chunk: Buffer) => this.#onData(conn, chunk));
    socket.on('error', () => {}); // 'close' follows; the reason is logged there
    socket.on('close', () => this.#onClose(conn));
    return conn;
  }

  #accept(socket: net.Socket): void {
    if (this.#closed) {
      socket.destroy();
      return;
    }
    const conn = this.#newConn(socket, false, undefined);
    if (this.#secure) {
      const tlsSocket = socket as tls.TLSSocket;
      const id = processIdFromSubjectAltName(tlsSocket.getPeerCertificate()?.subjectaltname);
      if (typeof id === 'string') {
        this.#refuse(undefined, 'certificate', `connection from ${remoteOf(socket)}: ${id}`);
        this.#destroy(conn, id);
        return;
      }
      conn.certId = id;
    }
  }

  #dial(peer: PeerState): void {
    if (this.#closed || peer.conn !== undefined || peer.dialing !== undefined) return;
    const { host, port } = peer.addr;
    const socket = this.#secure
      ? tls.connect({
          host,
          port,
          ca: this.#o.tls!.ca,
          cert: this.#o.tls!.cert,
          key: this.#o.tls!.key,
          minVersion: 'TLSv1.3',
          rejectUnauthorized: true,
          checkServerIdentity: (_host, cert) => {
            const id = processIdFromSubjectAltName(cert.subjectaltname);
            if (id === peer.id) return undefined;
            const why =
              typeof id === 'string'
                ? id
                : `the certificate names P${id}, but P${peer.id} listens at ${host}:${port}`;
            return new Error(`server identity check failed: ${why}`);
          },
        })
      : net.connect({ host, port });
    const conn = this.#newConn(socket, true, peer);
    conn.certId = peer.id;
    peer.dialing = conn;
    const sendHello = () =>
      this.#write(conn, JSON.stringify({ ...peer.link.hello(), v: HELLO_VERSION, id: this.self }));
    socket.once(this.#secure ? 'secureConnect' : 'connect', sendHello);
    socket.once('error', (err: Error & { code?: string }) => {
      // Unreachable or reset peers are simply redialled; TLS failures are refusals.
      if (conn.state !== 'handshake' || !this.#secure || NETWORK_ERRORS.has(err.code ?? '')) return;
      if (/identity check failed/.test(err.message)) this.#refuse(peer.id, 'wrong-id', err.message);
      else
        this.#refuse(
          peer.id,
          classifyTlsError(err),
          `dialing P${peer.id} at ${host}:${port}: ${err.message}`,
        );
    });
  }

  #scheduleReconnect(peer: PeerState): void {
    if (this.#closed || !peer.dialer || peer.reconnectTimer !== undefined || peer.conn || peer.dialing)
      return;
    const delay = this.#backoff.delay(peer.attempt++);
    peer.reconnectTimer = setTimeout(() => {
      peer.reconnectTimer = undefined;
      this.#dial(peer);
    }, delay);
  }

  #onData(conn: Conn, chunk: Buffer): void {
    if (conn.state === 'closed') return;
    conn.lastRx = Date.now();
    this.stats.bytesIn += chunk.length;
    // Frames before a bad one in the same chunk are still handled, then the connection closes.
    const frames = conn.decoder.push(chunk);
    for (const f of frames) {
      if ((conn.state as Conn['state']) === 'closed') return;
      this.stats.framesIn++;
      if (conn.state === 'handshake') this.#onHandshakeFrame(conn, f);
      else this.#onFrame(conn, f);
    }
    const peer = conn.peer;
    if (conn.state === 'established' && peer) peer.link.flushAck();
    const bad = conn.decoder.error;
    if (bad !== undefined && (conn.state as Conn['state']) !== 'closed')
      this.#closeForInput(conn, bad.kind, bad.message);
  }

  #onHandshakeFrame(conn: Conn, f: unknown): void {
    if (isObject(f) && f.t === 'refuse') {
      const reason = typeof f.reason === 'string' ? f.reason.slice(0, 500) : 'no reason given';
      this.#refuse(conn.peer?.id, 'refused-by-peer', reason);
      this.#emitError(
        new TransportError(`P${conn.peer?.id ?? '?'} refused the connection of P${this.self}: ${reason}`),
      );
      this.#destroy(conn, `refused by peer: ${reason}`);
      return;
    }
    if (!isObject(f) || f.t !== 'hello' || f.v !== HELLO_VERSION || !Number.isSafeInteger(f.id)) {
      this.#refuse(conn.peer?.id, 'bad-hello', `expected a hello frame (v${HELLO_VERSION}) first`);
      this.#reject(conn, `expected a hello frame (v${HELLO_VERSION}) first`);
      return;
    }
    const claimed = f.id as number;
    if (conn.outbound) {
      const peer = conn.peer!;
      if (claimed !== peer.id) {
        this.#refuse(peer.id, 'wrong-id', `P${peer.id} at ${remoteOf(conn.socket)} claims to be P${claimed}`);
        this.#reject(conn, `you claim to be P${claimed}, but P${this.self} dialed P${peer.id}`);
        return;
      }
      this.#establish(conn, peer, f);
      return;
    }
    // Inbound: the claim must match the certificate, name a known peer, and respect the dialer rule.
    if (conn.certId !== undefined && claimed !== conn.certId) {
      const why = `the hello claims P${claimed}, but the certificate names P${conn.certId}`;
      this.#refuse(conn.certId, 'wrong-id', `connection from ${remoteOf(conn.socket)}: ${why}`);
      this.#reject(conn, why);
      return;
    }
    const peer = this.#peerStates.get(claimed);
    if (peer === undefined) {
      const why = `P${claimed} is not a peer of P${this.self} (peers: ${this.peers.join(', ')})`;
      this.#refuse(undefined, 'unknown-peer', why);
      this.#reject(conn, why);
      return;
    }
    if (peer.dialer) {
      const why = `P${claimed} dialed P${this.self}, but the lower id dials (P${this.self} dials P${claimed})`;
      this.#refuse(claimed, 'wrong-direction', why);
      this.#reject(conn, why);
      return;
    }
    conn.peer = peer;
    this.#establish(conn, peer, f);
  }

  #establish(conn: Conn, peer: PeerState, hello: Record<string, unknown>): void {
    const result = peer.link.handshake(hello, { resend: false });
    if (!result.ok) {
      const reason: RefusalReason = result.kind === 'peer-restarted' ? 'peer-restarted' : 'bad-hello';
      this.#refuse(peer.id, reason, result.reason);
      this.#reject(conn, result.reason);
      return;
    }
    if (peer.conn !== undefined && peer.conn !== conn) {
      // The dialer redialled: it believes the old connection is dead. The new one wins (only
      // once its handshake succeeded, so a refused newcomer cannot displace a live connection).
      const old = peer.conn;
      this.stats.closed.replaced++;
      this.#detach(peer, 'replaced by a new connection');
      this.#destroy(old, 'replaced by a new connection');
    }
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = undefined;
    if (peer.dialing === conn) peer.dialing = undefined;
    conn.state = 'established';
    peer.conn = conn;
    peer.attempt = 0;
    peer.connections++;
    peer.blockedFrom = undefined;
    peer.ackOwed = false;
    this.stats.connections++;
    if (!conn.outbound)
      this.#write(conn, JSON.stringify({ ...peer.link.hello(), v: HELLO_VERSION, id: this.self }));
    const before = peer.link.stats.retransmitted;
    peer.link.retransmit();
    this.#events.emit('connected', {
      peer: peer.id,
      kind: result.kind,
      resent: peer.link.stats.retransmitted - before,
    });
    this.#progress.emit('change');
  }

  #onFrame(conn: Conn, f: unknown): void {
    const peer = conn.peer!;
    if (!isObject(f)) {
      this.stats.malformedFrames++;
      return;
    }
    switch (f.t) {
      case 'data':
      case 'ack':
        try {
          peer.link.receive(f);
        } catch (err) {
          this.stats.handlerErrors++;
          this.#emitError(err instanceof Error ? err : new Error(String(err)));
        }
        if (f.t === 'ack') this.#progress.emit('change');
        return;
      case 'ping':
        return;
      case 'bye':
        this.#destroy(conn, `P${peer.id} closed`);
        return;
      case 'refuse': {
        // The dialer refused our hello after we had accepted its own (e.g. we restarted).
        const reason = typeof f.reason === 'string' ? f.reason.slice(0, 500) : 'no reason given';
        this.#refuse(peer.id, 'refused-by-peer', reason);
        this.#emitError(new TransportError(`P${peer.id} refused the connection of P${this.self}: ${reason}`));
        this.#destroy(conn, `refused by peer: ${reason}`);
        return;
      }
      case 'hello':
        this.#closeForInput(conn, 'protocol', 'a second hello on an established connection');
        return;
      default:
        this.stats.malformedFrames++;
    }
  }

  #onClose(conn: Conn): void {
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = undefined;
    const wasEstablished = conn.state === 'established';
    conn.state = 'closed';
    this.#conns.delete(conn);
    const peer = conn.peer;
    if (peer === undefined) return;
    if (peer.dialing === conn) peer.dialing = undefined;
    if (peer.conn === conn) this.#detach(peer, conn.reason ?? 'connection lost');
    else if (wasEstablished) this.stats.disconnections++;
    this.#scheduleReconnect(peer);
  }

  #detach(peer: PeerState, reason: string): void {
    peer.conn = undefined;
    peer.blockedFrom = undefined;
    peer.ackOwed = false;
    this.stats.disconnections++;
    this.#events.emit('disconnected', { peer: peer.id, reason });
  }

  /** Refuses a connection in handshake: tells the peer why, then closes. */
  #reject(conn: Conn, reason: string): void {
    this.#write(conn, JSON.stringify({ t: 'refuse', reason }));
    this.#destroy(conn, reason, true);
  }

  #closeForInput(conn: Conn, kind: CloseReason, detail: string): void {
    this.stats.closed[kind]++;
    const who = conn.peer ? `P${conn.peer.id}` : remoteOf(conn.socket);
    this.#logger?.warn(`critsec P${this.self}: closing connection with ${who}: ${detail}`);
    this.#destroy(conn, detail);
  }

  #destroy(conn: Conn, reason: string, graceful = false): void {
    if (conn.state === 'closed' && conn.socket.destroyed) return;
    conn.reason ??= reason;
    if (conn.state !== 'closed') conn.state = 'closed';
    if (graceful) {
      conn.socket.end();
      setTimeout(() => conn.socket.destroy(), 500).unref();
    } else {
      conn.socket.destroy();
    }
  }

  #refuse(peer: ProcessId | undefined, reason: RefusalReason, detail: string): void {
    this.stats.refused[reason]++;
    this.#logger?.warn(`critsec P${this.self}: refused connection (${reason}): ${detail}`);
    this.#events.emit('refused', { peer, reason, detail });
  }

  // ---- sending ---------------------------------------------------------------------------

  #transmit(
    peer: PeerState,
    frame: { t: 'data'; seq: number; p: unknown } | { t: 'ack'; ack: number },
  ): void {
    const conn = peer.conn;
    if (conn === undefined || conn.state !== 'established') return; // resent after the next handshake
    if (frame.t === 'ack') {
      if (peer.blockedFrom !== undefined) {
        peer.ackOwed = true;
        return;
      }
      this.#write(conn, `{"t":"ack","ack":${frame.ack}}`);
      return;
    }
    if (peer.blockedFrom !== undefined) return;
    if (conn.socket.writableLength > this.#maxBufferedBytes) {
      peer.blockedFrom = frame.seq;
      this.#whenWritable(peer, conn);
      return;
    }
    this.#write(conn, `{"t":"data","seq":${frame.seq},"p":${frame.p as string}}`);
  }

  /**
   * Waits until the socket's queue is back under the bound: on 'drain' when Node signals one
   * (the queue passed the stream's high-water mark), else by polling — a bound below the
   * high-water mark empties without a 'drain' event.
   */
  #whenWritable(peer: PeerState, conn: Conn): void {
    if (conn.socket.writableNeedDrain) {
      conn.socket.once('drain', () => this.#drained(peer, conn));
      return;
    }
    setTimeout(() => {
      if (peer.conn !== conn || conn.state !== 'established') return;
      if (conn.socket.writableLength > this.#maxBufferedBytes) this.#whenWritable(peer, conn);
      else this.#drained(peer, conn);
    }, 1);
  }

  #drained(peer: PeerState, conn: Conn): void {
    if (peer.conn !== conn || peer.blockedFrom === undefined) return;
    const from = peer.blockedFrom;
    peer.blockedFrom = undefined;
    if (peer.ackOwed) {
      peer.ackOwed = false;
      this.#write(conn, `{"t":"ack","ack":${peer.link.nextExpected - 1}}`);
    }
    peer.link.retransmit(from);
  }

  #write(conn: Conn, text: string): void {
    if (conn.socket.destroyed) return;
    let buf: Buffer;
    try {
      buf = encodeFrame(text, this.#maxFrameBytes);
    } catch (err) {
      this.#emitError(err as Error);
      return;
    }
    if (!conn.corked) {
      conn.corked = true;
      conn.socket.cork();
      process.nextTick(() => {
        conn.corked = false;
        conn.socket.uncork();
      });
    }
    conn.socket.write(buf);
    conn.lastTx = Date.now();
    this.stats.framesOut++;
    this.stats.bytesOut += buf.length;
  }

  // ---- receiving -------------------------------------------------------------------------

  #deliver(from: ProcessId, p: unknown): void {
    if (
      !isObject(p) ||
      typeof p.c !== 'string' ||
      p.c.length > MAX_CHANNEL_LENGTH ||
      !isObject(p.m) ||
      typeof p.m.type !== 'string'
    ) {
      this.stats.invalidPayloads++;
      this.#emitError(
        new ProtocolError(
          `P${this.self}: dropped a message from P${from} that is not {c: channel, m: {type}}`,
          {
            from,
          },
        ),
      );
      return;
    }
    this.#dispatch(from, p.c, p.m as Message);
  }

  #dispatch(from: ProcessId, channel: string, msg: Message): void {
    try {
      this.#receiver(from, channel, msg);
    } catch (err) {
      this.stats.handlerErrors++;
      this.#emitError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  // ---- timers & helpers ------------------------------------------------------------------

  #tick(): void {
    const now = Date.now();
    for (const conn of this.#conns) {
      if (conn.state !== 'established') continue;
      if (now - conn.lastRx > this.#hbTimeout) {
        this.stats.closed['heartbeat-timeout']++;
        this.#logger?.warn(
          `critsec P${this.self}: no frame from P${conn.peer!.id} for ${now - conn.lastRx} ms ` +
            `(heartbeatTimeoutMs ${this.#hbTimeout}); closing the connection`,
        );
        this.#destroy(conn, 'heartbeat timeout');
      } else if (now - conn.lastTx >= this.#hbInterval) {
        this.#write(conn, '{"t":"ping"}');
      }
    }
  }

  #emitError(err: Error): void {
    if (this.#events.has('error')) this.#events.emit('error', err);
    else this.#logger?.warn(`critsec P${this.self}: ${err.message}`);
  }

  #waitFor(
    pending: () => ProcessId[],
    timeoutMs: number,
    describe: (ids: ProcessId[]) => string,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.#closed) {
          cleanup();
          reject(new TransportError(`P${this.self}: transport closed while waiting`));
          return;
        }
        if (pending().length === 0) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new TransportError(`${describe(pending())} after ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#progress.off('change', check);
      };
      this.#progress.on('change', check);
      check();
    });
  }
}

function remoteOf(socket: net.Socket): string {
  return `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
}

/**
 * Creates the TCP transport of one process. Call `start()` to listen and dial; messages sent
 * before the connections are up are buffered (up to `maxUnacked` per peer) and delivered once
 * they are. `endpoint` is a standard {@link Endpoint}: reliable and FIFO per (sender, receiver,
 * channel), across reconnections.
 *
 * @throws ConfigurationError for a bad peer list, missing TLS credentials (security is on by
 * default), insecure mode with a non-loopback host, or bad timeouts.
 */
export function tcpTransport(options: TcpTransportOptions): TcpTransport {
  return new TcpTransportImpl(options);
}
