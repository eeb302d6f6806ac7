/**
 * What the TCP transport reports: why connections are refused or closed, its events, and its
 * per-peer and transport-wide counters.
 */
import type { ProcessId } from '@critsec/core';
import type { SessionStats } from '@critsec/transport';
import type { FrameErrorKind } from './framing.js';

/**
 * Why an incoming or outgoing connection was refused. `source-limit`: its source address already
 * held `maxUnauthenticatedPerSource` unauthenticated connections; `capacity`: every
 * unauthenticated slot (and, for a configured peer's address, every reserved slot) was taken.
 */
export type RefusalReason =
  | 'tls'
  | 'certificate'
  | 'handshake-timeout'
  | 'unknown-peer'
  | 'wrong-id'
  | 'wrong-direction'
  | 'peer-restarted'
  | 'bad-hello'
  | 'refused-by-peer'
  | 'source-limit'
  | 'capacity';

/** Why an established connection was closed by this side. */
export type CloseReason = FrameErrorKind | 'heartbeat-timeout' | 'protocol' | 'replaced';

/** Events of a `TcpTransport`. */
export interface TcpTransportEvents {
  /** A connection with `peer` completed its handshake (`kind` from the session layer). */
  connected: {
    /** The peer. */
    peer: ProcessId;
    /** A new session, the old one resumed, or a fresh one after the peer restarted (`onPeerRestart: 'reset'`). */
    kind: 'new' | 'resumed' | 'reset';
    /** Messages the peer had not acknowledged, sent again on this connection. */
    resent: number;
  };
  /** The connection with `peer` is gone (it will be redialled by the lower id). */
  disconnected: {
    /** The peer. */
    peer: ProcessId;
    /** Why the connection was lost, closed or replaced, in words. */
    reason: string;
  };
  /** A connection was refused (counted in `stats.refused`). */
  refused: {
    /** The peer, when known (an outgoing connection, or a hello that named one). */
    peer: ProcessId | undefined;
    /** Why. */
    reason: RefusalReason;
    /** Details in words. */
    detail: string;
  };
  /** A non-fatal problem: an invalid message dropped, a handler that threw, a peer refusing us. */
  error: Error;
}

/** Per-peer counters. */
export interface TcpPeerStats {
  /** The peer's id. */
  readonly id: ProcessId;
  /** Whether a connection with it is established now. */
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
  /** Frames decoded from all connections (handshake frames included). */
  framesIn: number;
  /** Frames written to all connections. */
  framesOut: number;
  /** Bytes read from all connections (length prefixes included). */
  bytesIn: number;
  /** Bytes written to all connections (length prefixes included). */
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
  /** Inbound connections not yet authenticated, and what admission control did with them. */
  unauthenticated: UnauthenticatedStats;
}

/**
 * Admission control's counters (inbound connections before authentication: a verified client
 * certificate and an admitted hello; in insecure mode, an admitted hello).
 */
export interface UnauthenticatedStats {
  /** Unauthenticated connections open right now (general and reserved slots). */
  open: number;
  /** The most that were open at once. */
  peak: number;
  /** Connections admitted into a general slot. */
  admitted: number;
  /** Connections from a configured peer's address admitted into a reserved slot (the general slots were full). */
  reserved: number;
  /** Connections authenticated (they left the unauthenticated pool as a peer's connection). */
  authenticated: number;
  /** Frames dropped from connections before authentication (e.g. a `refuse` frame before the hello). */
  junkFrames: number;
}

/** Fresh transport-wide counters, every one zero. */
export function createTransportStats(): TcpTransportStats {
  return {
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
      'source-limit': 0,
      capacity: 0,
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
    unauthenticated: { open: 0, peak: 0, admitted: 0, reserved: 0, authenticated: 0, junkFrames: 0 },
  };
}
