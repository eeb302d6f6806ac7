/**
 * Admission of connections: dialing a peer over mutual TLS (its certificate must name the peer
 * dialed), accepting a socket from the listener (its certificate must name exactly one
 * process), and the hello exchange (wire.ts) that decides — by certificate, peer list, the
 * "lower id dials" rule and the session layer's resume handshake — whether a connection becomes
 * its peer's connection or is refused with a `refuse` frame. Until a connection has
 * authenticated (its certificate's process, claimed in its hello, is a peer of ours) it is told
 * nothing but {@link GENERIC_REFUSAL}, and what it sends besides a hello is dropped and counted.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { ProcessId } from '@critsec/core';
import { type Admission, connectionKey } from './admission.js';
import { processIdFromSubjectAltName } from './certs.js';
import { Connection, remoteOf } from './connection.js';
import type { TransportContext } from './context.js';
import { classifyTlsError } from './listener.js';
import type { TcpTlsOptions } from './options.js';
import type { Peer, PeerConnection } from './peer.js';
import type { RefusalReason } from './stats.js';
import { HELLO_VERSION, helloFrame, isObject, refuseFrame } from './wire.js';

/**
 * The only reason a connection that has not authenticated is told: who is a peer, which
 * sessions exist and why exactly it failed stay on this side (stats, log, `refused` event).
 */
const GENERIC_REFUSAL = 'connection refused';

/** What an authenticated peer is told when the session layer refuses its hello (no session ids). */
function sessionRefusal(kind: 'peer-restarted' | 'malformed' | 'inconsistent'): string {
  if (kind === 'peer-restarted') {
    return (
      'the peer restarted and lost its state; critsec algorithms assume no crashes, so its new ' +
      'session is refused (restart it from its own store, which resumes its sessions, or restart the whole cluster)'
    );
  }
  return kind === 'malformed' ? 'malformed session hello' : 'the session resume is inconsistent';
}

/** Socket errors of an unreachable or vanished peer: redialled, not counted as refusals. */
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

/** The TLS client options for dialing `peer`: TLS 1.3, the cluster CA, and the peer's identity. */
function tlsDialOptions(creds: TcpTlsOptions, peer: Peer): tls.ConnectionOptions {
  const { host, port } = peer.addr;
  return {
    host,
    port,
    ca: creds.ca,
    cert: creds.cert,
    key: creds.key,
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
  };
}

/** Dials peers, accepts sockets, and runs the hello handshake on both kinds of connection. */
export class Handshake {
  readonly #ctx: TransportContext;
  readonly #peers: ReadonlyMap<ProcessId, Peer>;
  readonly #connections: Set<PeerConnection>;
  readonly #admission: Admission;
  /** Inbound connections still in their admission slot, by connection. */
  readonly #keys = new WeakMap<PeerConnection, string>();

  /**
   * @param peers every other process, by id
   * @param connections the transport's live connections (each new one adds itself)
   * @param admission the listener's admission control (inbound connections leave it on their hello)
   */
  constructor(
    ctx: TransportContext,
    peers: ReadonlyMap<ProcessId, Peer>,
    connections: Set<PeerConnection>,
    admission: Admission,
  ) {
    this.#ctx = ctx;
    this.#peers = peers;
    this.#connections = connections;
    this.#admission = admission;
  }

  /** Takes a socket from the listener: refused unless its certificate names one process (TLS). */
  accept(socket: net.Socket): void {
    if (this.#ctx.closed) {
      socket.destroy();
      return;
    }
    const conn = this.#newConnection(socket, false, undefined);
    this.#keys.set(conn, connectionKey(socket));
    if (this.#ctx.options.secure) {
      const tlsSocket = socket as tls.TLSSocket;
      const id = processIdFromSubjectAltName(tlsSocket.getPeerCertificate()?.subjectaltname);
      if (typeof id === 'string') {
        this.#ctx.refuseUnauthenticated('certificate', `connection from ${remoteOf(socket)}: ${id}`);
        conn.destroy(id);
        return;
      }
      conn.certId = id;
    }
  }

  /** Dials `peer` (unless closed, connected or already dialing) and sends the hello once connected. */
  dial(peer: Peer): void {
    const ctx = this.#ctx;
    if (ctx.closed || peer.conn !== undefined || peer.dialing !== undefined) return;
    const { host, port } = peer.addr;
    const secure = ctx.options.secure;
    const socket = secure ? tls.connect(tlsDialOptions(ctx.options.tls!, peer)) : net.connect({ host, port });
    const conn = this.#newConnection(socket, true, peer);
    conn.certId = peer.id;
    peer.dialing = conn;
    const sendHello = () => conn.write(helloFrame(peer.link, ctx.self));
    socket.once(secure ? 'secureConnect' : 'connect', sendHello);
    socket.once('error', (err: Error & { code?: string }) => {
      // Unreachable or reset peers are simply redialled; TLS failures are refusals.
      if (conn.state !== 'handshake' || !secure || NETWORK_ERRORS.has(err.code ?? '')) return;
      if (/identity check failed/.test(err.message)) ctx.refuse(peer.id, 'wrong-id', err.message);
      else
        ctx.refuse(peer.id, classifyTlsError(err), `dialing P${peer.id} at ${host}:${port}: ${err.message}`);
    });
  }

  #newConnection(socket: net.Socket, outbound: boolean, peer: Peer | undefined): PeerConnection {
    return new Connection<Peer>({
      ctx: this.#ctx,
      registry: this.#connections,
      socket,
      outbound,
      peer,
      onHandshakeFrame: (conn, frame) => this.#onHandshakeFrame(conn, frame),
    });
  }

  #onHandshakeFrame(conn: PeerConnection, f: unknown): void {
    if (isObject(f) && f.t === 'refuse') {
      if (conn.outbound)
        conn.refusedByPeer(f); // the peer we dialed (its certificate checked) refused us
      else this.#junk(conn, 'a refuse frame before the hello');
      return;
    }
    if (!isObject(f) || f.t !== 'hello' || f.v !== HELLO_VERSION || !Number.isSafeInteger(f.id)) {
      const why = `expected a hello frame (v${HELLO_VERSION}) first`;
      if (conn.outbound) this.#ctx.refuse(conn.peer!.id, 'bad-hello', why);
      else this.#ctx.refuseUnauthenticated('bad-hello', `connection from ${remoteOf(conn.socket)}: ${why}`);
      this.#reject(conn, GENERIC_REFUSAL);
      return;
    }
    const claimed = f.id as number;
    if (conn.outbound) {
      const peer = conn.peer!;
      if (claimed !== peer.id) {
        this.#ctx.refuse(
          peer.id,
          'wrong-id',
          `P${peer.id} at ${remoteOf(conn.socket)} claims to be P${claimed}`,
        );
        this.#reject(conn, GENERIC_REFUSAL);
        return;
      }
      this.#establish(conn, peer, f);
      return;
    }
    const peer = this.#admit(conn, claimed);
    if (peer === undefined) return;
    const key = this.#keys.get(conn);
    if (key !== undefined) this.#admission.authenticated(key);
    conn.peer = peer;
    this.#establish(conn, peer, f);
  }

  /** Unauthenticated input other than a hello: counted, reported without flooding, and closed. */
  #junk(conn: PeerConnection, what: string): void {
    this.#ctx.stats.unauthenticated.junkFrames++;
    this.#ctx.warnUnauthenticated(`dropped ${what} from ${remoteOf(conn.socket)}; closing it`);
    conn.destroy(what);
  }

  /**
   * Inbound: the claim must match the certificate, name a known peer, and respect the dialer
   * rule. Returns the peer, or refuses and rejects the connection.
   */
  #admit(conn: PeerConnection, claimed: number): Peer | undefined {
    const self = this.#ctx.self;
    const from = `connection from ${remoteOf(conn.socket)}`;
    if (conn.certId !== undefined && claimed !== conn.certId) {
      const why = `the hello claims P${claimed}, but the certificate names P${conn.certId}`;
      this.#ctx.refuseUnauthenticated('wrong-id', `${from}: ${why}`, conn.certId);
      this.#reject(conn, GENERIC_REFUSAL);
      return undefined;
    }
    const peer = this.#peers.get(claimed);
    if (peer === undefined) {
      const why = `P${claimed} is not a peer of P${self} (peers: ${this.#ctx.peerIds.join(', ')})`;
      this.#ctx.refuseUnauthenticated('unknown-peer', `${from}: ${why}`);
      this.#reject(conn, GENERIC_REFUSAL);
      return undefined;
    }
    if (peer.dialer) {
      // Authenticated (the certificate names a peer), so it may know what it did wrong.
      const why = `P${claimed} dialed P${self}, but the lower id dials (P${self} dials P${claimed})`;
      this.#ctx.refuse(claimed, 'wrong-direction', why);
      this.#reject(conn, why);
      return undefined;
    }
    return peer;
  }

  #establish(conn: PeerConnection, peer: Peer, hello: Record<string, unknown>): void {
    const result = peer.link.handshake(hello, { resend: false });
    if (!result.ok) {
      const reason: RefusalReason = result.kind === 'peer-restarted' ? 'peer-restarted' : 'bad-hello';
      this.#ctx.refuse(peer.id, reason, result.reason);
      this.#reject(conn, sessionRefusal(result.kind));
      return;
    }
    peer.attach(conn);
    if (!conn.outbound) conn.write(helloFrame(peer.link, this.#ctx.self));
    peer.resume(result.kind);
  }

  /** Refuses a connection in handshake: tells the peer `reason` (public), then closes. */
  #reject(conn: PeerConnection, reason: string): void {
    conn.write(refuseFrame(reason));
    conn.destroy(reason, true);
  }
}
