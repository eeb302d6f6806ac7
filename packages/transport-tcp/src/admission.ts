/**
 * Admission control of the listener (issue 15, connection-slot exhaustion): every inbound TCP
 * connection is unauthenticated until its client certificate is verified and its hello admitted
 * (handshake.ts). While it is, it holds one of a bounded number of slots — at most
 * `maxUnauthenticatedPerSource` per source address, `maxUnauthenticated` in all, plus
 * `reservedPeerSlots` kept for the addresses of the peers that dial this process — and it is
 * closed after `unauthenticatedTimeoutMs`. A flood of idle connections from elsewhere can then
 * neither hold a slot for long nor take the ones the cluster's own links need.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type net from 'node:net';
import type { TransportContext } from './context.js';

/** Refused connections held unread before they are closed, per slot (general and reserved). */
const HELD_PER_SLOT = 4;

/** One unauthenticated connection in its slot. */
interface Slot {
  readonly socket: net.Socket;
  readonly source: string;
  readonly reserved: boolean;
  readonly timer: NodeJS.Timeout;
}

/** The address `a` as written by Node, with an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) unmapped. */
function normalizeAddress(a: string | undefined): string {
  if (a === undefined) return '?';
  return a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

/** The key of a live connection: its remote address and port (unique per listener). */
export function connectionKey(socket: net.Socket): string {
  return `${normalizeAddress(socket.remoteAddress)}|${socket.remotePort ?? '?'}`;
}

/** The slots of one listener's unauthenticated connections. */
export class Admission {
  readonly #ctx: TransportContext;
  readonly #slots = new Map<string, Slot>();
  readonly #perSource = new Map<string, number>();
  /** Addresses of the peers that dial this process (literal hosts, then what their names resolve to). */
  readonly #peerAddresses = new Set<string>();
  #general = 0;
  #reserved = 0;
  /** Refused connections held unread until they are closed. */
  readonly #held = new Set<net.Socket>();

  constructor(ctx: TransportContext) {
    this.#ctx = ctx;
    for (const p of this.#dialers()) this.#peerAddresses.add(normalizeAddress(p.host));
  }

  /**
   * Resolves the host names of the dialing peers (a name that does not resolve is skipped).
   * Never rejects.
   */
  async resolvePeers(): Promise<void> {
    const named = this.#dialers().filter((p) => isIP(p.host) === 0);
    await Promise.all(
      named.map(async (p) => {
        try {
          for (const a of await lookup(p.host, { all: true }))
            this.#peerAddresses.add(normalizeAddress(a.address));
        } catch {
          // Unresolvable now: connections from that peer are admitted as from any other source.
        }
      }),
    );
  }

  /**
   * Admits a new inbound socket into a slot and arms its timeout, or refuses it (counted,
   * reported without flooding the log, and destroyed). Returns whether it was admitted.
   */
  admit(socket: net.Socket): boolean {
    const o = this.#ctx.options;
    const stats = this.#ctx.stats.unauthenticated;
    const key = connectionKey(socket);
    if (socket.remoteAddress === undefined || this.#slots.has(key)) {
      // Already reset by its client (no address left): nothing to admit, no slot to take.
      socket.destroy();
      return false;
    }
    const source = normalizeAddress(socket.remoteAddress);
    const fromPeer = this.#peerAddresses.has(source);
    const held = this.#perSource.get(source) ?? 0;
    let reserved = false;
    if (!fromPeer && held >= o.maxUnauthenticatedPerSource) {
      return this.#refuse(
        socket,
        'source-limit',
        `${source} already holds ${held} unauthenticated connections`,
      );
    }
    if (this.#general >= o.maxUnauthenticated) {
      if (!fromPeer || this.#reserved >= o.reservedPeerSlots) {
        return this.#refuse(socket, 'capacity', `all ${this.#general} unauthenticated slots are taken`);
      }
      reserved = true;
    }
    const timer = setTimeout(() => this.#timedOut(key), o.unauthenticatedTimeoutMs);
    timer.unref();
    this.#slots.set(key, { socket, source, reserved, timer });
    this.#perSource.set(source, held + 1);
    if (reserved) {
      this.#reserved++;
      stats.reserved++;
    } else {
      this.#general++;
      stats.admitted++;
    }
    stats.open = this.#slots.size;
    stats.peak = Math.max(stats.peak, stats.open);
    socket.once('close', () => this.#free(key, socket));
    return true;
  }

  /** The connection `key` authenticated: it leaves its slot (idempotent). */
  authenticated(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#free(key, slot.socket);
    this.#ctx.stats.unauthenticated.authenticated++;
  }

  /** Closes every unauthenticated connection (the transport is closing). */
  close(): void {
    for (const slot of [...this.#slots.values()]) slot.socket.destroy();
    for (const socket of [...this.#held]) socket.destroy();
  }

  #dialers() {
    return this.#ctx.options.peers.filter((p) => p.id < this.#ctx.self);
  }

  /**
   * Refuses `socket`: counted and reported, then closed — after `unauthenticatedTimeoutMs`
   * unread (it costs a descriptor, no TLS and no reading) while fewer than
   * {@link HELD_PER_SLOT}× the slots are held so, at once otherwise (and always at once for a
   * peer's address, so that a peer retries on its own schedule). A flood that reopens whatever
   * is closed then cannot make the listener spend its time accepting and closing.
   */
  #refuse(socket: net.Socket, reason: 'source-limit' | 'capacity', detail: string): false {
    const source = normalizeAddress(socket.remoteAddress);
    this.#ctx.refuseUnauthenticated(reason, `connection from ${source}: ${detail}`);
    const o = this.#ctx.options;
    const bound = HELD_PER_SLOT * (o.maxUnauthenticated + o.reservedPeerSlots);
    if (this.#peerAddresses.has(source) || this.#held.size >= bound) {
      socket.destroy();
      return false;
    }
    socket.pause();
    const timer = setTimeout(() => socket.destroy(), o.unauthenticatedTimeoutMs);
    timer.unref();
    this.#held.add(socket);
    socket.once('close', () => {
      this.#held.delete(socket);
      clearTimeout(timer);
    });
    return false;
  }

  #timedOut(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#free(key, slot.socket);
    this.#ctx.refuseUnauthenticated(
      'handshake-timeout',
      `connection from ${slot.source}: not authenticated within ${this.#ctx.options.unauthenticatedTimeoutMs} ms`,
    );
    slot.socket.destroy();
  }

  #free(key: string, socket: net.Socket): void {
    const slot = this.#slots.get(key);
    if (slot === undefined || slot.socket !== socket) return;
    clearTimeout(slot.timer);
    this.#slots.delete(key);
    const held = (this.#perSource.get(slot.source) ?? 1) - 1;
    if (held > 0) this.#perSource.set(slot.source, held);
    else this.#perSource.delete(slot.source);
    if (slot.reserved) this.#reserved--;
    else this.#general--;
    this.#ctx.stats.unauthenticated.open = this.#slots.size;
  }
}
