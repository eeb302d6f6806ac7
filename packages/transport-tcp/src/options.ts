/**
 * The options of the TCP transport, their defaults and their validation:
 * {@link resolveOptions} turns what a caller passed into the complete, checked settings every
 * other file of the transport reads.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import type { UndeliverableMessage } from '@critsec/transport';
import { Backoff, type ReconnectOptions } from './backoff.js';
import { parseTcpDurableState, type TcpDurableState } from './durable.js';
import { checkMaxFrameBytes, DEFAULT_MAX_FRAME_BYTES } from './framing.js';
import { checkPeers, checkSession, checkShapes, checkTls, intOption, shown } from './option-checks.js';

/** One process of the cluster: its id and where it listens. */
export interface TcpPeer {
  /** The process's id, 0 … n−1. */
  readonly id: ProcessId;
  /** Host name or address it listens on. */
  readonly host: string;
  /** TCP port it listens on. */
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
  /** One warning, a single line starting `critsec P<self>: `. */
  warn(message: string): void;
}

/** Options of `tcpTransport` (times in ms, sizes in bytes). */
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
  /**
   * Time allowed from TCP connect to a completed TLS + hello handshake, in ms (default 5 000).
   * An inbound connection must moreover authenticate within `unauthenticatedTimeoutMs`.
   */
  readonly handshakeTimeoutMs?: number;
  /**
   * Admission control, the pre-handshake timeout: how long an inbound connection may stay
   * unauthenticated — from TCP accept until its client certificate is verified and its hello
   * admitted — before it is closed (counted as `refused['handshake-timeout']`), in milliseconds.
   * Default 1 000 (or `handshakeTimeoutMs` if that is smaller); must be > 0 and
   * ≤ `handshakeTimeoutMs`.
   */
  readonly unauthenticatedTimeoutMs?: number;
  /**
   * Admission control: inbound connections that may be unauthenticated at once (the general
   * slots; default 64; an integer ≥ 1). Beyond it a connection is refused (`refused.capacity`)
   * unless it comes from a configured peer's address and a reserved slot is free.
   */
  readonly maxUnauthenticated?: number;
  /**
   * Admission control: unauthenticated inbound connections one source address may hold at once
   * (default 8; an integer ≥ 1); beyond it they are refused (`refused['source-limit']`). Not
   * applied to configured peers' addresses, which are bounded by the general and reserved slots.
   */
  readonly maxUnauthenticatedPerSource?: number;
  /**
   * Admission control: unauthenticated slots reserved for connections from the address of a peer
   * that dials this process (a lower id), used when the general slots are full — so a flood from
   * other addresses cannot keep the cluster's own links from being re-established. Default
   * 2 per such peer; a non-negative integer. Peers are recognised by the address their `host`
   * resolves to: a peer that dials out from another address is treated as any other source.
   */
  readonly reservedPeerSlots?: number;
  /** A ping is sent after this long without sending anything, in ms (default 1 000). */
  readonly heartbeatIntervalMs?: number;
  /** A connection silent for this long is closed and redialled, in ms (default 5 000; > interval). */
  readonly heartbeatTimeoutMs?: number;
  /**
   * The failure detector (issue 28 §4), in ms (default: `heartbeatTimeoutMs`; in
   * (`heartbeatIntervalMs`, 2³¹ − 1]): a peer whose connection has been down, or established
   * but silent (no complete frame, pings included), for longer than this is suspected
   * (`endpoint.suspicions`), and trusted again once a connection with it is established anew. A
   * peer that announced leaving or said `bye` is suspected at once. Checked every
   * `max(10, heartbeatIntervalMs / 2)` ms on a monotonic clock (`performance.now()`).
   */
  readonly suspectAfterMs?: number;
  /** Reconnection backoff of the dialing side. */
  readonly reconnect?: ReconnectOptions;
  /**
   * What to do when a peer comes back with a new session (it restarted and lost its state):
   * `'refuse'` (default; the algorithms assume no crashes, so its connection is refused and the
   * others wait safely) or `'reset'` (start a fresh session with it; messages the old
   * incarnation had not acknowledged are discarded). See `ReliableLink` in `@critsec/transport`.
   *
   * `'resume'` (issue 27): the members are durable — this transport is too (`durability` of the
   * transport, `durable.ts`): it acknowledges only what its owner committed, withholds the frames
   * of messages sent since the last commit until the commit resolves, and can be rebuilt from
   * `state`; a peer restored from its store comes back with its old session and resumes it
   * (unacknowledged frames resent, duplicates dropped by sequence number), while one with an
   * unknown session is refused as with `'refuse'`. The owner must stage and commit every turn,
   * or nothing leaves.
   */
  readonly onPeerRestart?: 'refuse' | 'reset' | 'resume';
  /**
   * With `onPeerRestart: 'resume'`: the `TcpDurableState` the crashed transport had committed
   * (from its member's store); the transport keeps its session id and every session, so its peers
   * resume. Checked before anything is built. Give no `session` with it (or the same one).
   */
  readonly state?: unknown;
  /** This incarnation's session id, 1 … 64 characters (default: a random UUID per transport). */
  readonly session?: string;
  /** Warnings go here (default `console`); `null` silences them. */
  readonly logger?: TcpLogger | null;
  /** Called for each message that reached no channel handler. */
  readonly onUndeliverable?: (u: UndeliverableMessage) => void;
  /**
   * Messages held, in all, for channels nobody has listened on yet — e.g. a peer's REQUEST that
   * arrives before this process built its CS object — until their first handler subscribes
   * (default 10 000; an integer ≥ 0). Past it a message is dropped and a
   * `HeldMessagesOverflowError` reported through the `error` event.
   */
  readonly maxHeldMessages?: number;
  /**
   * The graceful leave's deadline, ms (default 10 000; an integer in [0, 2³¹ − 1]): how long
   * `close()` keeps serving the peers (this process is still an arbiter in their quorums) until
   * every peer has closed too. `0`: `close()` leaves at once, as a crash would. A `close()` call
   * may give its own.
   */
  readonly lingerMs?: number;
}

/** Default of {@link TcpTransportOptions.lingerMs}, in ms. */
const DEFAULT_LINGER_MS = 10_000;

/** Default of {@link TcpTransportOptions.maxBufferedBytes}: 1 MiB. */
const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
/** Default of {@link TcpTransportOptions.handshakeTimeoutMs}, in ms. */
const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;
/** Default of {@link TcpTransportOptions.heartbeatIntervalMs}, in ms. */
const DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;
/** Default of {@link TcpTransportOptions.heartbeatTimeoutMs}, in ms. */
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 5_000;
/** Default of {@link TcpTransportOptions.unauthenticatedTimeoutMs}, in ms. */
const DEFAULT_UNAUTHENTICATED_TIMEOUT_MS = 1_000;
/** Default of {@link TcpTransportOptions.maxUnauthenticated}. */
const DEFAULT_MAX_UNAUTHENTICATED = 64;
/** Default of {@link TcpTransportOptions.maxUnauthenticatedPerSource}. */
const DEFAULT_MAX_UNAUTHENTICATED_PER_SOURCE = 8;
/** Default reserved slots per peer that dials this process ({@link TcpTransportOptions.reservedPeerSlots}). */
const DEFAULT_RESERVED_PER_DIALER = 2;
/** Hosts accepted in insecure mode. */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/** The complete settings of one transport: {@link TcpTransportOptions} with every default filled in. */
export interface ResolvedOptions {
  readonly self: ProcessId;
  readonly peers: readonly TcpPeer[];
  /** Mutual TLS on (the default); false in insecure mode. */
  readonly secure: boolean;
  /** The credentials (defined whenever `secure`). */
  readonly tls: TcpTlsOptions | undefined;
  readonly listenHost: string | undefined;
  readonly maxFrameBytes: number;
  readonly maxBufferedBytes: number;
  readonly handshakeTimeoutMs: number;
  readonly unauthenticatedTimeoutMs: number;
  readonly maxUnauthenticated: number;
  readonly maxUnauthenticatedPerSource: number;
  readonly reservedPeerSlots: number;
  readonly heartbeatIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly suspectAfterMs: number;
  /** The dialer's reconnection schedule, shared by every peer it dials. */
  readonly backoff: Backoff;
  readonly onPeerRestart: 'refuse' | 'reset';
  /** `onPeerRestart: 'resume'`: sessions acknowledge on commit, frames wait for their commit. */
  readonly durable: boolean;
  /** The state to restore (checked), with `durable`. */
  readonly restored: TcpDurableState | undefined;
  readonly maxUnacked: number | undefined;
  readonly maxOutOfOrder: number | undefined;
  readonly session: string;
  readonly logger: TcpLogger | null;
  readonly onUndeliverable: ((u: UndeliverableMessage) => void) | undefined;
  readonly maxHeldMessages: number | undefined;
  readonly lingerMs: number;
}

/**
 * Checks `o` and fills in the defaults (a fresh random session id unless one is given).
 * @throws ConfigurationError for a bad peer list, missing TLS credentials (security is on by
 * default), insecure mode with a non-loopback host, bad timeouts or a bad reconnect schedule.
 * @throws TransportError for a `maxFrameBytes` outside 64 … 16 MiB.
 */
export function resolveOptions(o: TcpTransportOptions): ResolvedOptions {
  validateOptions(o);
  const maxFrameBytes = checkMaxFrameBytes(o.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
  const backoff = new Backoff(o.reconnect);
  const restored = restoredState(o);
  return {
    ...resolveAdmission(o),
    self: o.self,
    peers: o.peers,
    secure: o.insecure !== true,
    tls: o.tls,
    listenHost: o.listenHost,
    maxFrameBytes,
    maxBufferedBytes: o.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    handshakeTimeoutMs: o.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
    heartbeatIntervalMs: o.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
    heartbeatTimeoutMs: o.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    suspectAfterMs: o.suspectAfterMs ?? o.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    backoff,
    onPeerRestart: o.onPeerRestart === 'reset' ? 'reset' : 'refuse',
    durable: o.onPeerRestart === 'resume',
    restored,
    maxUnacked: o.maxUnacked,
    maxOutOfOrder: o.maxOutOfOrder,
    session: checkSession(o.session === undefined ? restored?.session : o.session),
    logger: o.logger === undefined ? console : o.logger,
    onUndeliverable: o.onUndeliverable,
    maxHeldMessages: o.maxHeldMessages,
    lingerMs: o.lingerMs ?? DEFAULT_LINGER_MS,
  };
}

function validateOptions(o: TcpTransportOptions): void {
  checkShapes(o);
  checkPeers(o);
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
  } else {
    checkTls(o.tls);
  }
  const hbI = o.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  const hbT = o.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
  if (typeof hbI !== 'number' || typeof hbT !== 'number' || !(hbI > 0) || !(hbT > hbI)) {
    throw new ConfigurationError(
      `tcpTransport: need 0 < heartbeatIntervalMs < heartbeatTimeoutMs, got ${shown(hbI)} and ${shown(hbT)}`,
    );
  }
  const sa = o.suspectAfterMs ?? hbT;
  if (typeof sa !== 'number' || !(sa > hbI && sa <= 2 ** 31 - 1)) {
    throw new ConfigurationError(
      `tcpTransport: suspectAfterMs must be a number of ms in (heartbeatIntervalMs = ${shown(hbI)}, 2^31 − 1] ` +
        `(a quiet peer is pinged every heartbeatIntervalMs; a shorter bound would suspect it), got ${shown(sa)}`,
    );
  }
  const ht = o.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  if (typeof ht !== 'number' || !(ht > 0)) {
    throw new ConfigurationError(`tcpTransport: handshakeTimeoutMs must be > 0, got ${shown(ht)}`);
  }
  const mb = o.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  if (!(Number.isSafeInteger(mb) && mb >= 1024)) {
    throw new ConfigurationError(
      `tcpTransport: maxBufferedBytes must be an integer ≥ 1024, got ${String(mb)}`,
    );
  }
}

/**
 * The `state` option, checked: only with `onPeerRestart: 'resume'`, of this process and its peers.
 * @throws ConfigurationError for a `state` without `'resume'`; TransportError for a bad state.
 */
function restoredState(o: TcpTransportOptions): TcpDurableState | undefined {
  if (o.state === undefined) return undefined;
  if (o.onPeerRestart !== 'resume') {
    throw new ConfigurationError(
      "tcpTransport: state (a restored durable state) needs onPeerRestart: 'resume'",
    );
  }
  const st = parseTcpDurableState(
    o.state,
    o.self,
    o.peers.map((p) => p.id),
  );
  if (o.session !== undefined && o.session !== st.session) {
    throw new ConfigurationError(
      `tcpTransport: session ${o.session} differs from the restored state's ${st.session}; give no session with a state`,
    );
  }
  return st;
}

/** The admission-control settings, checked, with their defaults. */
function resolveAdmission(
  o: TcpTransportOptions,
): Pick<
  ResolvedOptions,
  'unauthenticatedTimeoutMs' | 'maxUnauthenticated' | 'maxUnauthenticatedPerSource' | 'reservedPeerSlots'
> {
  const ht = o.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const ut = o.unauthenticatedTimeoutMs ?? Math.min(DEFAULT_UNAUTHENTICATED_TIMEOUT_MS, ht);
  if (!(typeof ut === 'number' && ut > 0 && ut <= ht)) {
    throw new ConfigurationError(
      `tcpTransport: unauthenticatedTimeoutMs must be > 0 and ≤ handshakeTimeoutMs (${ht}), got ${shown(ut)}`,
    );
  }
  const dialers = o.peers.filter((p) => p.id < o.self).length;
  return {
    unauthenticatedTimeoutMs: ut,
    maxUnauthenticated: intOption('maxUnauthenticated', o.maxUnauthenticated, DEFAULT_MAX_UNAUTHENTICATED, 1),
    maxUnauthenticatedPerSource: intOption(
      'maxUnauthenticatedPerSource',
      o.maxUnauthenticatedPerSource,
      DEFAULT_MAX_UNAUTHENTICATED_PER_SOURCE,
      1,
    ),
    reservedPeerSlots: intOption(
      'reservedPeerSlots',
      o.reservedPeerSlots,
      DEFAULT_RESERVED_PER_DIALER * dialers,
      0,
    ),
  };
}
