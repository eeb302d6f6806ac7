/**
 * A socket as a connection of the transport ({@link Connection}): frames in and out, heartbeats,
 * closing on silence or bad input. The peer it carries (peer.ts) owns the session; which
 * connection a peer gets is decided by the handshake (handshake.ts).
 */
import type net from 'node:net';
import { type ProcessId, TransportError } from '@critsec/core';
import type { TransportContext } from './context.js';
import { encodeFrame, FrameDecoder } from './framing.js';
import type { CloseReason } from './stats.js';
import { PING_FRAME, refusalOf } from './wire.js';

/** `host:port` of the other end of `socket`, for log messages. */
export function remoteOf(socket: net.Socket): string {
  return `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
}

/**
 * What a connection needs of the peer it carries (implemented by `Peer`, peer.ts; `P` is that
 * peer type itself).
 */
export interface ConnectionPeer<P extends ConnectionPeer<P>> {
  readonly id: ProcessId;
  /** One frame on the established connection `conn`. */
  onFrame(conn: Connection<P>, frame: unknown): void;
  /** After a batch of frames on the established connection: sends the ack they earned. */
  flushAck(): void;
  /** `conn` (of this peer, in any state) closed. */
  connectionClosed(conn: Connection<P>, wasEstablished: boolean): void;
}

/** A connection's life: hello exchange, then established, then closed (for good). */
type ConnectionState = 'handshake' | 'established' | 'closed';

/** Where a connection's frames go while it is in its handshake (the admission code). */
type HandshakeHandler<P extends ConnectionPeer<P>> = (conn: Connection<P>, frame: unknown) => void;

/** How a {@link Connection} is made: its socket, its side, and where it reports. */
interface ConnectionInit<P extends ConnectionPeer<P>> {
  readonly ctx: TransportContext;
  /** The transport's live connections: the connection adds itself, and removes itself on close. */
  readonly registry: Set<Connection<P>>;
  readonly socket: net.Socket;
  /** True when this side dialed. */
  readonly outbound: boolean;
  /** The dialed peer (outbound); undefined until the hello names it (inbound). */
  readonly peer: P | undefined;
  readonly onHandshakeFrame: HandshakeHandler<P>;
}

/**
 * One socket as a connection of the transport: decodes its frames (handing them to the
 * handshake, then to the peer it carries), writes frames (corked per event-loop turn), sends
 * heartbeats and closes it on silence, bad input or a handshake that takes too long.
 */
export class Connection<P extends ConnectionPeer<P>> {
  readonly socket: net.Socket;
  readonly outbound: boolean;
  readonly decoder: FrameDecoder;
  /** The id proven by the certificate (TLS) — undefined in insecure mode. */
  certId: ProcessId | undefined = undefined;
  peer: P | undefined;
  state: ConnectionState = 'handshake';
  /**
   * When a complete frame last arrived (bytes of a partial frame do not count: a peer trickling
   * one byte at a time is silent) / a frame was last written (ms of `performance.now()`, a
   * monotonic clock).
   */
  lastRx: number;
  lastTx: number;
  /** The handshake timeout, cleared once the handshake completes. */
  timer: NodeJS.Timeout | undefined = undefined;
  /** Why this side closed it, if it did. */
  reason: string | undefined = undefined;
  #corked = false;
  readonly #ctx: TransportContext;
  readonly #registry: Set<Connection<P>>;
  readonly #onHandshakeFrame: HandshakeHandler<P>;

  constructor(init: ConnectionInit<P>) {
    const { ctx, socket } = init;
    const now = performance.now();
    this.socket = socket;
    this.outbound = init.outbound;
    this.decoder = new FrameDecoder(ctx.options.maxFrameBytes);
    this.peer = init.peer;
    this.lastRx = now;
    this.lastTx = now;
    this.#ctx = ctx;
    this.#registry = init.registry;
    this.#onHandshakeFrame = init.onHandshakeFrame;
    init.registry.add(this);
    socket.setNoDelay(true);
    this.timer = setTimeout(() => this.#handshakeTimedOut(), ctx.options.handshakeTimeoutMs);
    this.timer.unref();
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', () => {}); // 'close' follows; the reason is logged there
    socket.on('close', () => this.#onClose());
  }

  /** Writes one frame (`text`, a JSON document); an over-size frame is reported, not written. */
  write(text: string): void {
    if (this.socket.destroyed) return;
    let buf: Buffer;
    try {
      buf = encodeFrame(text, this.#ctx.options.maxFrameBytes);
    } catch (err) {
      this.#ctx.emitError(err as Error);
      return;
    }
    if (!this.#corked) {
      this.#corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.#corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(buf);
    this.lastTx = performance.now();
    this.#ctx.stats.framesOut++;
    this.#ctx.stats.bytesOut += buf.length;
  }

  /** Closes the socket (`graceful`: end it, destroy it 500 ms later), remembering the first reason. */
  destroy(reason: string, graceful = false): void {
    if (this.state === 'closed' && this.socket.destroyed) return;
    this.reason ??= reason;
    if (this.state !== 'closed') this.state = 'closed';
    if (graceful) {
      this.socket.end();
      setTimeout(() => this.socket.destroy(), 500).unref();
    } else {
      this.socket.destroy();
    }
  }

  /** Closes the connection for bad input from the peer: counted in `stats.closed[kind]` and logged. */
  closeForInput(kind: CloseReason, detail: string): void {
    this.#ctx.stats.closed[kind]++;
    const who = this.peer ? `P${this.peer.id}` : remoteOf(this.socket);
    const message = `closing connection with ${who}: ${detail}`;
    // Before authentication, anyone can send bad bytes: reported without flooding the log.
    if (this.state === 'handshake' && !this.outbound) this.#ctx.warnUnauthenticated(message);
    else this.#ctx.logger?.warn(`critsec P${this.#ctx.self}: ${message}`);
    this.destroy(detail);
  }

  /** The peer refused us (a `refuse` frame): counted, reported as an error, and closed. */
  refusedByPeer(frame: Record<string, unknown>): void {
    const reason = refusalOf(frame);
    this.#ctx.refuse(this.peer?.id, 'refused-by-peer', reason);
    this.#ctx.emitError(
      new TransportError(`P${this.peer?.id ?? '?'} refused the connection of P${this.#ctx.self}: ${reason}`),
    );
    this.destroy(`refused by peer: ${reason}`);
  }

  /**
   * The heartbeat, run every half interval: closes an established connection silent for over
   * `heartbeatTimeoutMs`, else pings it if nothing was written for `heartbeatIntervalMs` — unless
   * the socket already queues over `maxBufferedBytes` (a peer that does not read gets no pings
   * piling up behind the data).
   */
  heartbeat(now: number): void {
    if (this.state !== 'established') return;
    const { heartbeatTimeoutMs, heartbeatIntervalMs } = this.#ctx.options;
    if (now - this.lastRx > heartbeatTimeoutMs) {
      this.#ctx.stats.closed['heartbeat-timeout']++;
      this.#ctx.logger?.warn(
        `critsec P${this.#ctx.self}: no frame from P${this.peer!.id} for ${now - this.lastRx} ms ` +
          `(heartbeatTimeoutMs ${heartbeatTimeoutMs}); closing the connection`,
      );
      this.destroy('heartbeat timeout');
    } else if (
      now - this.lastTx >= heartbeatIntervalMs &&
      this.socket.writableLength <= this.#ctx.options.maxBufferedBytes
    ) {
      this.write(PING_FRAME);
    }
  }

  #handshakeTimedOut(): void {
    if (this.outbound && this.socket.connecting) {
      this.socket.destroy(); // the peer is unreachable: not a refusal, just redial later
      return;
    }
    if (this.state === 'handshake') {
      const ms = this.#ctx.options.handshakeTimeoutMs;
      this.#ctx.refuse(this.peer?.id, 'handshake-timeout', `no hello within ${ms} ms`);
      this.destroy('handshake timeout');
    }
  }

  #onData(chunk: Buffer): void {
    if (this.state === 'closed') return;
    this.#ctx.stats.bytesIn += chunk.length;
    // Frames before a bad one in the same chunk are still handled, then the connection closes.
    const frames = this.decoder.push(chunk);
    if (frames.length > 0) this.lastRx = performance.now();
    for (const f of frames) {
      if ((this.state as ConnectionState) === 'closed') return;
      this.#ctx.stats.framesIn++;
      if (this.state === 'handshake') this.#onHandshakeFrame(this, f);
      else this.peer!.onFrame(this, f);
    }
    const peer = this.peer;
    if (this.state === 'established' && peer) peer.flushAck();
    const bad = this.decoder.error;
    if (bad !== undefined && (this.state as ConnectionState) !== 'closed')
      this.closeForInput(bad.kind, bad.message);
  }

  #onClose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const wasEstablished = this.state === 'established';
    this.state = 'closed';
    this.#registry.delete(this);
    this.peer?.connectionClosed(this, wasEstablished);
  }
}
