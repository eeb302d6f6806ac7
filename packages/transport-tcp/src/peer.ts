/**
 * One other process as the transport sees it ({@link Peer}): the reliable-FIFO session of
 * `@critsec/transport` fed from and written to the connection currently carrying it
 * (connection.ts), write back-pressure, and — on the dialing side — redialling with exponential
 * backoff (backoff.ts) whenever that connection is lost.
 */
import type { ProcessId, Rng } from '@critsec/core';
import { type CommitPoint, ReliableLink, type SessionFrame } from '@critsec/transport';
import type { Connection, ConnectionPeer } from './connection.js';
import type { TransportContext } from './context.js';
import type { TcpPeer } from './options.js';
import type { TcpPeerStats, TcpTransportEvents } from './stats.js';
import { ackFrame, dataFrame, isObject } from './wire.js';

/**
 * How long (ms) a cumulative ack may wait for a data frame going back to carry it before it is
 * sent as an ack frame of its own. Acks only free the sender's resend buffer (and end `flush()`),
 * so waiting costs nothing but that; in a request/reply exchange the reply carries it.
 */
const ACK_DELAY_MS = 5;
/** Data frames received after which the ack is sent at once rather than after `ACK_DELAY_MS`. */
const ACK_EVERY_FRAMES = 32;

/** A connection carrying a {@link Peer}. */
export type PeerConnection = Connection<Peer>;

/** What a {@link Peer} calls outside its file. */
interface PeerHooks {
  /** A message payload the session delivered in order (still to be validated). */
  deliver(from: ProcessId, payload: unknown): void;
  /** Dials `peer` (the handshake's dialer). */
  dial(peer: Peer): void;
  /** The peer said `bye`: it closed for good. */
  gone(peer: ProcessId): void;
}

/**
 * One other process: the reliable-FIFO session with it (`ReliableLink` of `@critsec/transport`,
 * which numbers, acknowledges, resends and deduplicates), the connection currently carrying it,
 * and — on the lower id's side — redialling with backoff whenever that connection is lost.
 */
export class Peer implements ConnectionPeer<Peer> {
  readonly id: ProcessId;
  readonly addr: TcpPeer;
  /** True when this side dials (the lower id dials). */
  readonly dialer: boolean;
  readonly link: ReliableLink<unknown>;
  /** The established connection, if any. */
  conn: PeerConnection | undefined = undefined;
  /** The outbound connection still in its handshake, if any. */
  dialing: PeerConnection | undefined = undefined;
  /** Completed handshakes with this peer. */
  connections = 0;
  #attempt = 0;
  /** This link's jitter stream (reproducible: seeded from the reconnect seed, self and peer id). */
  readonly #jitter: Rng;
  #reconnectTimer: NodeJS.Timeout | undefined = undefined;
  /** True while the socket queues over `maxBufferedBytes`: nothing is written until it drains. */
  #blocked = false;
  /** First data seq not written because the socket was over `maxBufferedBytes`. */
  #blockedFrom: number | undefined = undefined;
  #ackOwed = false;
  /** Data frames received since an ack (standalone or piggybacked) was last written. */
  #framesSinceAck = 0;
  #ackTimer: NodeJS.Timeout | undefined = undefined;
  /** A durable transport's outbox: data frames from this seq on wait for their commit (∞: not durable). */
  #released: number;
  readonly #ctx: TransportContext;
  readonly #hooks: PeerHooks;

  constructor(ctx: TransportContext, addr: TcpPeer, hooks: PeerHooks) {
    const o = ctx.options;
    this.id = addr.id;
    this.addr = addr;
    this.dialer = o.self < addr.id;
    this.#jitter = o.backoff.linkRng(o.self, addr.id);
    this.#ctx = ctx;
    this.#hooks = hooks;
    const state = o.restored?.links[String(addr.id)];
    this.link = new ReliableLink<unknown>({
      transmit: (frame) => this.#transmit(frame),
      deliver: (p) => hooks.deliver(this.id, p),
      session: o.session,
      autoAck: false,
      piggybackAcks: true,
      onPeerRestart: o.onPeerRestart,
      ...(o.durable ? { ackOnCommit: true } : {}),
      ...(state === undefined ? {} : { state }),
      ...(o.maxUnacked === undefined ? {} : { maxUnacked: o.maxUnacked }),
      ...(o.maxOutOfOrder === undefined ? {} : { maxOutOfOrder: o.maxOutOfOrder }),
    });
    this.#released = o.durable ? this.link.nextSeq : Number.POSITIVE_INFINITY;
  }

  /**
   * A durable transport's commit of the record staged at `point` resolved (durable.ts): the
   * session acknowledges up to it and the data frames it covers, withheld so far, are written.
   */
  release(point: CommitPoint): void {
    this.link.acknowledgeCommitted(point);
    if (point.nextSeq <= this.#released) return;
    // every data frame from the old bound on was withheld when sent: those below the new one leave
    const from = this.#released;
    this.#released = point.nextSeq;
    this.link.retransmit(from, { release: true });
  }

  /** This peer's counters. */
  stats(): TcpPeerStats {
    return {
      id: this.id,
      connected: this.conn?.state === 'established',
      connections: this.connections,
      session: this.link.stats,
      unacked: this.link.unacked,
      bufferedOutOfOrder: this.link.bufferedOutOfOrder,
    };
  }

  /**
   * Makes `conn` (whose hello the session accepted) this peer's connection: a previous one is
   * closed as replaced (the dialer redialled, believing it dead).
   */
  attach(conn: PeerConnection): void {
    if (this.conn !== undefined && this.conn !== conn) {
      // The dialer redialled: it believes the old connection is dead. The new one wins (only
      // once its handshake succeeded, so a refused newcomer cannot displace a live connection).
      const old = this.conn;
      this.#ctx.stats.closed.replaced++;
      this.detach('replaced by a new connection');
      old.destroy('replaced by a new connection');
    }
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = undefined;
    if (this.dialing === conn) this.dialing = undefined;
    conn.state = 'established';
    this.conn = conn;
    this.#attempt = 0;
    this.connections++;
    this.#blocked = false;
    this.#blockedFrom = undefined;
    this.#ackOwed = false;
    this.#ctx.stats.connections++;
  }

  /** After {@link Peer.attach} and the hellos: resends what the peer lacks, announces `connected`. */
  resume(kind: TcpTransportEvents['connected']['kind']): void {
    const before = this.link.stats.retransmitted;
    this.link.retransmit();
    this.#ctx.events.emit('connected', {
      peer: this.id,
      kind,
      resent: this.link.stats.retransmitted - before,
    });
    this.#ctx.changed();
  }

  /** Forgets the connection (lost, closed or replaced) and announces `disconnected`. */
  detach(reason: string): void {
    this.conn = undefined;
    this.#blocked = false;
    this.#blockedFrom = undefined;
    this.#ackOwed = false;
    this.#ctx.stats.disconnections++;
    this.#ctx.events.emit('disconnected', { peer: this.id, reason });
  }

  /** One frame on the established connection `conn`. */
  onFrame(conn: PeerConnection, f: unknown): void {
    if (!isObject(f)) {
      this.#ctx.stats.malformedFrames++;
      return;
    }
    switch (f.t) {
      case 'data':
      case 'ack': {
        if (f.t === 'data') this.#framesSinceAck++;
        const unacked = this.link.unacked;
        try {
          this.link.receive(f);
        } catch (err) {
          this.#ctx.stats.handlerErrors++;
          this.#ctx.emitError(err instanceof Error ? err : new Error(String(err)));
        }
        // An ack frame, or a data frame's piggybacked ack, freed payloads: flush() may be done.
        if (this.link.unacked < unacked) this.#ctx.changed();
        return;
      }
      case 'ping':
        return;
      case 'bye':
        this.#hooks.gone(this.id);
        conn.destroy(`P${this.id} closed`);
        return;
      case 'refuse':
        // The dialer refused our hello after we had accepted its own (e.g. we restarted).
        conn.refusedByPeer(f);
        return;
      case 'hello':
        conn.closeForInput('protocol', 'a second hello on an established connection');
        return;
      default:
        this.#ctx.stats.malformedFrames++;
    }
  }

  /**
   * After a batch of frames: the cumulative ack they earned, unless a data frame written meanwhile
   * carried it — at once after {@link ACK_EVERY_FRAMES} data frames, else after
   * {@link ACK_DELAY_MS} if no data frame going back carries it first.
   */
  flushAck(): void {
    if (!this.link.ackPending) return;
    if (this.#framesSinceAck >= ACK_EVERY_FRAMES) {
      this.link.flushAck();
      return;
    }
    if (this.#ackTimer !== undefined) return;
    this.#ackTimer = setTimeout(() => {
      this.#ackTimer = undefined;
      this.link.flushAck();
    }, ACK_DELAY_MS);
    this.#ackTimer.unref();
  }

  /** `conn` (of this peer, in any state) closed: forget it, and redial if this side dials. */
  connectionClosed(conn: PeerConnection, wasEstablished: boolean): void {
    if (this.dialing === conn) this.dialing = undefined;
    if (this.conn === conn) this.detach(conn.reason ?? 'connection lost');
    else if (wasEstablished) this.#ctx.stats.disconnections++;
    this.scheduleReconnect();
  }

  /** On the dialing side, dials again after the backoff delay (unless connected or dialing). */
  scheduleReconnect(): void {
    if (this.#ctx.closed || !this.dialer || this.#reconnectTimer !== undefined || this.conn || this.dialing)
      return;
    const delay = this.#ctx.options.backoff.delay(this.#attempt++, this.#jitter);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#hooks.dial(this);
    }, delay);
  }

  /**
   * The transport is closing: cancels a pending redial, and writes the ack still owed now rather
   * than after {@link ACK_DELAY_MS} (the peer may be waiting for it in `flush()` before its own
   * close; it goes before the `bye`).
   */
  stop(): void {
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    if (this.#ackTimer) clearTimeout(this.#ackTimer);
    this.#ackTimer = undefined;
    this.link.flushAck();
  }

  /**
   * Writes a session frame to the connection — unless its socket queues over
   * `maxBufferedBytes`: then nothing more is written to it (data frames stay in the session
   * buffer from the first one not written on, the latest cumulative ack is owed) until it drains.
   */
  #transmit(frame: SessionFrame<unknown>): void {
    if (frame.t === 'data' && frame.seq >= this.#released) return; // release() writes it once committed
    const conn = this.conn;
    if (conn === undefined || conn.state !== 'established') return; // resent after the next handshake
    if (!this.#blocked && conn.socket.writableLength > this.#ctx.options.maxBufferedBytes) {
      this.#blocked = true;
      this.#whenWritable(conn);
    }
    if (this.#blocked) {
      if (frame.t === 'ack') this.#ackOwed = true;
      else this.#blockedFrom = Math.min(this.#blockedFrom ?? frame.seq, frame.seq);
      return;
    }
    this.#framesSinceAck = 0;
    conn.write(
      frame.t === 'ack' ? ackFrame(frame.ack) : dataFrame(frame.seq, frame.ack ?? 0, frame.p as string),
    );
  }

  /**
   * Waits until the socket's queue is back under the bound: on 'drain' when Node signals one
   * (the queue passed the stream's high-water mark), else by polling — a bound below the
   * high-water mark empties without a 'drain' event.
   */
  #whenWritable(conn: PeerConnection): void {
    if (conn.socket.writableNeedDrain) {
      conn.socket.once('drain', () => this.#drained(conn));
      return;
    }
    // The poll must not keep the process alive on its own (the socket does while it is open).
    setTimeout(() => {
      if (this.conn !== conn || conn.state !== 'established') return;
      if (conn.socket.writableLength > this.#ctx.options.maxBufferedBytes) this.#whenWritable(conn);
      else this.#drained(conn);
    }, 1).unref();
  }

  #drained(conn: PeerConnection): void {
    if (this.conn !== conn || !this.#blocked) return;
    this.#blocked = false;
    if (this.#ackOwed) {
      this.#ackOwed = false;
      this.#framesSinceAck = 0;
      conn.write(ackFrame(this.link.hello().next - 1)); // as of the last commit, if durable
    }
    const from = this.#blockedFrom;
    this.#blockedFrom = undefined;
    if (from !== undefined) this.link.retransmit(from);
  }
}
