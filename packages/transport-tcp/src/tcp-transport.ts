/**
 * The TCP transport (issue #6): one connection per pair of processes (the lower id dials),
 * mutual TLS 1.3 with the process id bound to the certificate, length-prefixed JSON frames, and
 * the reliable-FIFO session layer of `@critsec/transport` per peer, so a dropped connection
 * loses, duplicates or reorders nothing above the transport; the result is a standard
 * {@link Endpoint} (DESIGN.md 3.2). This file is the facade — {@link tcpTransport}, owning the
 * peers, the connections and the endpoint; the README's "Files" table names the other parts.
 */
import type net from 'node:net';
import { type Endpoint, type Message, type ProcessId, ProtocolError, TransportError } from '@critsec/core';
import { createEndpoint, type Link, type RootEndpoint } from '@critsec/transport';
import { Admission } from './admission.js';
import { durability, type TcpDurability } from './durable.js';
import { TransportContext } from './context.js';
import { FailureDetector } from './detector.js';
import { Handshake } from './handshake.js';
import { checkLinger, shown } from './option-checks.js';
import { createListener, listen } from './listener.js';
import { resolveOptions, type TcpTransportOptions } from './options.js';
import { Peer, type PeerConnection } from './peer.js';
import type { TcpPeerStats, TcpTransportEvents, TcpTransportStats } from './stats.js';
import { BYE_FRAME, checkMessage, encodeMessage, isObject, MAX_CHANNEL_LENGTH } from './wire.js';

/** The longest timer Node keeps (2³¹ − 1 ms); a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** A running TCP transport: the {@link Endpoint} plus lifecycle, events and counters. */
export interface TcpTransport {
  /** The process's root endpoint; hand it (or its channels) to CS objects. */
  readonly endpoint: RootEndpoint;
  /** This process's id. */
  readonly self: ProcessId;
  /** This incarnation's session id. */
  readonly session: string;
  /**
   * With `onPeerRestart: 'resume'`: the transport's durable side (stage its state with the
   * protocol's each turn, report each commit; see `TcpDurability`); undefined otherwise.
   */
  readonly durability: TcpDurability | undefined;
  /** Starts listening and dialing. @throws TransportError if the port cannot be bound. */
  start(): Promise<void>;
  /**
   * Resolves once every peer has been connected (at least once).
   * @throws TransportError after `timeoutMs` (ms, default 30 000; in [0, 2³¹ − 1]) naming the
   * missing peers, or at once for a bad `timeoutMs`.
   */
  ready(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Resolves once every message sent so far has been acknowledged by its receiver.
   * @throws TransportError after `timeoutMs` (ms, default 30 000; in [0, 2³¹ − 1]) naming the
   * peers still behind, or at once for a bad `timeoutMs`.
   */
  flush(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Leaves gracefully, then closes every connection and the listener; later `send`s throw.
   * Idempotent (the same promise).
   *
   * The graceful leave (`RootEndpoint.leave` of `@critsec/transport`): tells every peer this
   * process is leaving and keeps serving — the CS objects on the endpoint keep answering as
   * arbiters of the others' quorums, so close the transport **before** them — until every peer
   * has closed too (announced leaving, or said `bye`; a peer never connected is not waited for), at most `lingerMs` (ms; default the
   * option's, 10 000; `0`: at once, like a crash). A peer still running when this process is gone
   * sees `endpoint.departures` abort.
   * @throws LeaveTimeoutError (rejects, after closing) when `lingerMs` passed first: it names the
   *   peers still running, which may now wait for this process in vain.
   * @throws ConfigurationError (rejects, closing nothing) for a bad `lingerMs`.
   */
  close(options?: { lingerMs?: number }): Promise<void>;
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

class TcpTransportImpl implements TcpTransport, Link {
  readonly self: ProcessId;
  readonly peers: readonly ProcessId[];
  readonly session: string;
  readonly endpoint: RootEndpoint;
  readonly stats: TcpTransportStats;
  readonly durability: TcpDurability | undefined;

  readonly #ctx: TransportContext;
  readonly #peerStates = new Map<ProcessId, Peer>();
  readonly #conns = new Set<PeerConnection>();
  readonly #handshake: Handshake;
  readonly #admission: Admission;
  #receiver: (from: ProcessId, channel: string, msg: Message) => void = () => {};
  #selfQueue: { c: string; m: Message }[];
  #server: net.Server | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #started = false;
  #closing: Promise<void> | undefined;
  #peerGone: (peer: ProcessId) => void = () => {};
  readonly #detector: FailureDetector;

  constructor(options: TcpTransportOptions) {
    const o = resolveOptions(options);
    const ctx = new TransportContext(o);
    this.#ctx = ctx;
    this.self = o.self;
    this.peers = ctx.peerIds;
    this.stats = ctx.stats;
    this.session = o.session;
    this.#admission = new Admission(ctx);
    this.#handshake = new Handshake(ctx, this.#peerStates, this.#conns, this.#admission);
    this.#detector = new FailureDetector(o.suspectAfterMs);
    ctx.events.on('connected', ({ peer }) => this.#detector.back(peer));
    ctx.events.on('disconnected', ({ peer }) => this.#detector.lost(peer, performance.now()));
    const hooks = {
      deliver: (from: ProcessId, p: unknown) => this.#deliver(from, p),
      dial: (peer: Peer) => this.#handshake.dial(peer),
      gone: (peer: ProcessId) => this.#peerGone(peer),
    };
    for (const addr of o.peers) {
      if (addr.id !== o.self) this.#peerStates.set(addr.id, new Peer(ctx, addr, hooks));
    }
    this.#selfQueue = o.restored === undefined ? [] : [...o.restored.toSelf]; // handed over on start()
    this.durability = o.durable
      ? durability(o.self, o.session, this.#peerStates, () => this.#selfQueue)
      : undefined;
    this.endpoint = createEndpoint(this, {
      ...(o.onUndeliverable ? { onUndeliverable: o.onUndeliverable } : {}),
      ...(o.maxHeldMessages !== undefined ? { maxHeldMessages: o.maxHeldMessages } : {}),
      onHandlerError: (err) => this.#handlerError(err),
    });
  }

  // ---- Link ------------------------------------------------------------------------------

  setReceiver(receive: (from: ProcessId, channel: string, msg: Message) => void): void {
    this.#receiver = receive;
  }

  setPeerGone(gone: (peer: ProcessId) => void): void {
    this.#peerGone = gone;
  }

  setSuspect(report: (peer: ProcessId, suspected: boolean) => void): void {
    this.#detector.setReport(report);
  }

  send(to: ProcessId, channel: string, msg: Message): void {
    if (this.#ctx.closed) throw new TransportError(`send on closed TCP transport of P${this.self}`);
    checkMessage(channel, msg);
    if (to === this.self) {
      // No serialisation: the message object itself is delivered, on a later turn of the event
      // loop (FIFO), like a network message: a process that keeps messaging itself must not
      // starve its sockets. (The simulator hands messages over by reference too.)
      this.#selfQueue.push({ c: channel, m: msg });
      if (this.#selfQueue.length === 1) setImmediate(() => this.#flushSelf());
      return;
    }
    const peer = this.#peerStates.get(to);
    if (peer === undefined) {
      throw new TransportError(`unknown peer ${String(to)}; the peers are [${this.peers.join(', ')}]`);
    }
    peer.link.send(encodeMessage(channel, msg, this.#ctx.options.maxFrameBytes));
  }

  #flushSelf(): void {
    const batch = this.#selfQueue;
    this.#selfQueue = [];
    for (const { c, m } of batch) {
      if (this.#ctx.closed) return;
      this.#dispatch(this.self, c, m);
    }
  }

  // ---- lifecycle -------------------------------------------------------------------------

  async start(): Promise<void> {
    const ctx = this.#ctx;
    if (ctx.closed || this.#closing !== undefined)
      throw new TransportError(`P${this.self}: start() after close()`);
    if (this.#started) return;
    this.#started = true;
    if (!ctx.options.secure) {
      ctx.logger?.warn(
        `critsec P${this.self}: insecure mode — plain TCP without authentication; for loopback demos only`,
      );
    }
    const server = createListener(ctx, this.#admission, (socket) => this.#handshake.accept(socket));
    this.#server = server;
    await listen(ctx, server);
    if (ctx.closed) {
      // close() ran while the listener was being bound: it is bound now, so close it here.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return;
    }
    void this.#admission.resolvePeers(); // until a peer's host name resolves, it is any source
    this.#detector.start(this.#peerStates.values(), performance.now());
    const tick = Math.max(10, Math.floor(ctx.options.heartbeatIntervalMs / 2));
    this.#heartbeat = setInterval(() => this.#tick(), tick);
    this.#heartbeat.unref();
    for (const peer of this.#peerStates.values()) if (peer.dialer) this.#handshake.dial(peer);
    if (this.#selfQueue.length > 0) setImmediate(() => this.#flushSelf());
  }

  ready(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.#waitFor(
      'ready',
      () => [...this.#peerStates.values()].filter((p) => p.connections === 0).map((p) => p.id),
      options.timeoutMs ?? 30_000,
      (missing) => `P${this.self} is not connected to P${missing.join(', P')}`,
    );
  }

  flush(options: { timeoutMs?: number } = {}): Promise<void> {
    return this.#waitFor(
      'flush',
      () => [...this.#peerStates.values()].filter((p) => p.link.unacked > 0).map((p) => p.id),
      options.timeoutMs ?? 30_000,
      (behind) => `P${this.self} still has unacknowledged messages for P${behind.join(', P')}`,
    );
  }

  close(options: { lingerMs?: number } = {}): Promise<void> {
    if (this.#closing === undefined) {
      try {
        checkLinger('close: lingerMs', options.lingerMs);
      } catch (err) {
        return Promise.reject(err);
      }
      this.#closing = this.#close(options.lingerMs ?? this.#ctx.options.lingerMs);
    }
    return this.#closing;
  }

  /** The graceful leave (if started and `lingerMs` > 0), then the teardown; rethrows the leave's timeout. */
  async #close(lingerMs: number): Promise<void> {
    let timedOut: unknown;
    if (this.#started && lingerMs > 0) {
      const leaving = this.endpoint.leave({ lingerMs });
      // a peer never connected has had nothing from this process: nobody waits for it
      for (const p of this.#peerStates.values()) if (p.connections === 0) this.#peerGone(p.id);
      await leaving.catch((err: unknown) => {
        timedOut = err;
      });
    }
    await this.#teardown();
    if (timedOut !== undefined) throw timedOut;
  }

  async #teardown(): Promise<void> {
    this.#ctx.closed = true;
    this.endpoint.close();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    for (const peer of this.#peerStates.values()) peer.stop();
    const closing: Promise<void>[] = [];
    for (const conn of [...this.#conns]) {
      closing.push(
        new Promise<void>((resolve) => {
          if (conn.socket.destroyed) return resolve();
          conn.socket.once('close', () => resolve());
          if (conn.state === 'established') conn.write(BYE_FRAME);
          conn.socket.end();
          setTimeout(() => conn.socket.destroy(), 1_000).unref();
        }),
      );
    }
    this.#admission.close();
    const server = this.#server;
    if (server?.listening) closing.push(new Promise<void>((resolve) => server.close(() => resolve())));
    this.#ctx.changed();
    await Promise.all(closing);
  }

  on<E extends keyof TcpTransportEvents>(event: E, fn: (value: TcpTransportEvents[E]) => void): () => void {
    return this.#ctx.events.on(event, fn);
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
    return s.stats();
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
      this.#ctx.emitError(
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
      this.#handlerError(err);
    }
  }

  /** A handler threw (or a message could not be held): counted and reported, never thrown. */
  #handlerError(err: unknown): void {
    this.stats.handlerErrors++;
    this.#ctx.emitError(err instanceof Error ? err : new Error(String(err)));
  }

  // ---- timers ----------------------------------------------------------------------------

  #tick(): void {
    const now = performance.now();
    for (const conn of this.#conns) conn.heartbeat(now);
    this.#detector.tick(this.#peerStates.values(), now);
  }

  #waitFor(
    call: 'ready' | 'flush',
    pending: () => ProcessId[],
    timeoutMs: number,
    describe: (ids: ProcessId[]) => string,
  ): Promise<void> {
    if (!(typeof timeoutMs === 'number' && timeoutMs >= 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
      return Promise.reject(
        new TransportError(
          `${call}: timeoutMs must be a number of ms in [0, ${MAX_TIMEOUT_MS}], got ${shown(timeoutMs)}`,
        ),
      );
    }
    const progress = this.#ctx.progress;
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.#ctx.closed) {
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
        progress.off('change', check);
      };
      progress.on('change', check);
      check();
    });
  }
}

/**
 * Creates the TCP transport of one process. Call `start()` to listen and dial; messages sent
 * before the connections are up are buffered (up to `maxUnacked` per peer) and delivered once
 * they are. `endpoint` is a standard {@link Endpoint}: reliable and FIFO per (sender, receiver,
 * channel), across reconnections.
 *
 * @throws ConfigurationError for a bad peer list, missing TLS credentials (security is on by
 * default), insecure mode with a non-loopback host, bad timeouts or a bad `reconnect` schedule.
 * @throws TransportError for a `maxFrameBytes` outside 64 … 16 MiB.
 */
export function tcpTransport(options: TcpTransportOptions): TcpTransport {
  return new TcpTransportImpl(options);
}
