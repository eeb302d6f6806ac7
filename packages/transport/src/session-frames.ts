/**
 * The vocabulary of the reliable-FIFO session layer (`session.ts`, DESIGN.md 3.2): its frames,
 * the resume handshake's hello, options, counters and handshake outcomes, and the checks a
 * frame from below must pass before `ReliableLink` trusts any field of it.
 */
import { type JsonValue, TransportError } from '@critsec/core';

/** A frame of the session layer, as handed to and taken from the unreliable layer below. */
export type SessionFrame<P> =
  | {
      /** A payload; `seq` starts at 1 per direction and session. */
      t: 'data';
      /** The frame's sequence number. */
      seq: number;
      /** The payload. */
      p: P;
      /**
       * Optional piggybacked cumulative acknowledgement (as in an `ack` frame): every `seq ≤ ack`
       * of the other direction was delivered. Written only with `piggybackAcks`; always read.
       */
      ack?: number;
    }
  | {
      /** Cumulative acknowledgement: every `seq ≤ ack` was delivered. */
      t: 'ack';
      /** Every `seq ≤ ack` of the other direction was delivered. */
      ack: number;
    };

/**
 * The resume handshake message each side sends when a connection (re)opens, before any
 * {@link SessionFrame}; the peer passes it to `ReliableLink.handshake`.
 *
 * Session identity. Each side has a `session` id naming its *incarnation* (its in-memory
 * sequence state). On every (re)connection both sides exchange a {@link SessionHello}
 * (`session`, `next` = its `nextExpected`, `peer` = the peer session it holds state for) and
 * pass the peer's to `ReliableLink.handshake`:
 * - same peer session as before → **resume**: frames the peer already has (`seq < next`) are
 *   freed, the rest are resent; nothing is lost, duplicated or reordered above the layer;
 * - a *different* peer session → the peer restarted with fresh state (e.g. killed and started
 *   again). Its old sequence numbers mean nothing any more, so it is never silently
 *   mis-sequenced: by default (`onPeerRestart: 'refuse'`) the handshake is refused and nothing
 *   from the new incarnation is delivered; with `'reset'` both directions start over at seq 1,
 *   payloads still unacknowledged by the old incarnation are discarded (counted in
 *   `stats.discarded`) and `stats.resets` is incremented. The critsec algorithms assume no
 *   crashes (the papers' model), so a restarted process cannot in general rejoin a running
 *   protocol safely: `'reset'` is for applications that recover from restarts themselves.
 *
 * A member restarted from its store (the `state` option of `ReliableLink`) keeps its session,
 * so its peers resume with it; one whose store is lost or from another incarnation presents a
 * new session and is refused like any restarted peer (`'peer-restarted'`, naming the way out).
 */
export interface SessionHello {
  /** The discriminant. */
  readonly t: 'hello';
  /** The sender's session (incarnation) id. */
  readonly session: string;
  /** The sender's `nextExpected`: every `seq < next` of the receiver's current session was delivered. */
  readonly next: number;
  /** The receiver's session the sender holds state for, or `null` if it never heard from it. */
  readonly peer: string | null;
}

/** Options of a `ReliableLink`. */
export interface ReliableLinkOptions<P> {
  /**
   * Hands a frame to the unreliable layer below (it may be lost, duplicated, reordered). Must
   * not throw; it is called synchronously from `send`, `receive`, `retransmit` and `resume`.
   */
  transmit(frame: SessionFrame<P>): void;
  /** Delivers a payload above: in order, exactly once. */
  deliver(payload: P): void;
  /**
   * Bound on buffered unacknowledged payloads (a count). `send` beyond it throws
   * `TransportError`. Default 10 000.
   */
  maxUnacked?: number;
  /**
   * Bound on buffered out-of-order frames at the receiver (a count); frames beyond it are
   * dropped (counted in `stats.overflow`) and the sender resends them. Default 1 024.
   */
  maxOutOfOrder?: number;
  /** This side's session (incarnation) id, 1–64 characters. Default: a random UUID. */
  session?: string;
  /**
   * What `ReliableLink.handshake` does when the peer presents a different session than
   * the one this link holds state for (the peer restarted): `'refuse'` (default) or `'reset'`.
   */
  onPeerRestart?: 'refuse' | 'reset';
  /**
   * When true (default) every data frame received is answered at once with a cumulative ack.
   * When false the owner calls `ReliableLink.flushAck` (e.g. once per batch of frames
   * read from a socket), which sends one ack covering everything delivered since the last.
   */
  autoAck?: boolean;
  /**
   * When true, every data frame transmitted (sent or resent) carries the cumulative ack of the
   * other direction (`ack` = `nextExpected − 1`), which settles any ack pending — so with
   * `autoAck: false` a standalone ack frame is only needed when no data flows back before the
   * owner's next {@link ReliableLink.flushAck}. Default false (frames as before; the simulator's
   * recorded traces depend on them). A piggybacked ack is accepted on receipt either way.
   */
  piggybackAcks?: boolean;
  /**
   * When true, the link acknowledges only what is durable (issue 27): no ack frame, piggybacked
   * ack or hello `next` ever covers a frame delivered after the last {@link CommitPoint} whose
   * commit the owner reported with `ReliableLink.acknowledgeCommitted` (a crash before the commit
   * must make the sender resend), and `retransmit`/`resume` resend only payloads sent before it
   * (later ones are still in the owner's outbox). `acknowledgeCommitted` sends the ack the
   * commit earned; an ack frame sent on arrival (`autoAck`) or by `flushAck` only repeats the
   * last committed one (which still tells a sender of duplicates what is durable), so
   * `autoAck: false` saves frames. Default false (acks as soon as delivered).
   */
  ackOnCommit?: boolean;
  /**
   * A state to restart from, as `ReliableLink.durableState` exported it (after a crash): the
   * link keeps its session id, so the peer resumes. Checked field by field; the payloads must
   * be JSON values. Give no `session` with it (or the same one). Default: a fresh link.
   */
  state?: LinkState<P>;
}

/** The version of the {@link LinkState} format (its `v` field). */
export const LINK_STATE_VERSION = 1;

/**
 * What of a {@link ReliableLink} survives a crash, as JSON (a `JSON.stringify` round trip
 * restores it exactly when the payloads `P` are JSON values). Ahead-of-order frames the
 * receiver had buffered are not kept: the sender still holds them and resends them.
 */
export interface LinkState<P = JsonValue> {
  /** The format version: 1. */
  readonly v: 1;
  /** This side's session (incarnation) id: a restored link keeps it, so its peer resumes. */
  readonly session: string;
  /** The peer session the link holds state for, or `null` before the first handshake. */
  readonly peer: string | null;
  /** Receiving half: the next `seq` to deliver, as of the commit point (see `ackOnCommit`). */
  readonly nextExpected: number;
  /** Sending half: the `seq` the next `send` gets. */
  readonly nextSeq: number;
  /** Sending half: every `seq ≤ ackedUpTo` is acknowledged by the peer. */
  readonly ackedUpTo: number;
  /** Sending half: the payloads `ackedUpTo + 1 … nextSeq − 1`, in `seq` order, for resending. */
  readonly unacked: readonly {
    /** The payload's sequence number. */
    readonly seq: number;
    /** The payload. */
    readonly p: P;
  }[];
}

/**
 * A point of a link's history the durable layer stages a record at (`ReliableLink.commitPoint`):
 * what the receiving half had delivered and the sending half had sent. Once the record is
 * committed, `ReliableLink.acknowledgeCommitted(point)` acknowledges up to it.
 */
export interface CommitPoint {
  /** The receiver's `nextExpected` at the point: every `seq` below it may be acknowledged once committed. */
  readonly nextExpected: number;
  /** The sender's `nextSeq` at the point: every `seq` below it is durable once committed. */
  readonly nextSeq: number;
}

/** Counters of one `ReliableLink` (all message counts). */
export interface SessionStats {
  /** Payloads accepted by `send`. */
  sent: number;
  /** Payloads delivered above. */
  delivered: number;
  /** Data frames received again (already delivered or already buffered): dropped. */
  duplicates: number;
  /** Data frames received ahead of order and buffered. */
  outOfOrder: number;
  /** Frames (or hellos) of the wrong shape or with impossible numbers: dropped. */
  malformed: number;
  /** Data frames transmitted again by `retransmit`/`resume`. */
  retransmitted: number;
  /** Ack frames transmitted. */
  acksSent: number;
  /** Ahead-of-order data frames dropped because `maxOutOfOrder` was reached. */
  overflow: number;
  /** Unacknowledged payloads discarded by a session reset (the peer restarted). */
  discarded: number;
  /** Session resets (peer restarts accepted under `onPeerRestart: 'reset'`). */
  resets: number;
}

/** What `ReliableLink.handshake` concluded. */
export type HandshakeResult =
  | {
      /** `'new'`: first contact; `'resumed'`: same peer session; `'reset'`: peer restarted, started over. */
      readonly ok: true;
      /** How the sessions met (see `ok`). */
      readonly kind: 'new' | 'resumed' | 'reset';
      /** Data frames resent by the handshake. */
      readonly resent: number;
    }
  | {
      /** Refused: nothing changed; the owner should close the connection. */
      readonly ok: false;
      /** Why it was refused: the peer restarted (under `onPeerRestart: 'refuse'`), a malformed hello, or a hello inconsistent with this side's state. */
      readonly kind: 'peer-restarted' | 'malformed' | 'inconsistent';
      /** Why, for logs and for the peer. */
      readonly reason: string;
    };

export const DEFAULT_MAX_UNACKED = 10_000;
export const DEFAULT_MAX_OUT_OF_ORDER = 1_024;
const MAX_SESSION_LENGTH = 64;
export const MALFORMED_HELLO = 'malformed session hello (expected {t, session, next, peer})';

export function isSeq(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 1;
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function isSessionId(x: unknown): x is string {
  return typeof x === 'string' && x.length >= 1 && x.length <= MAX_SESSION_LENGTH;
}

export function isHello(x: unknown): x is SessionHello {
  return (
    isObject(x) &&
    x.t === 'hello' &&
    isSessionId(x.session) &&
    isSeq(x.next) &&
    (x.peer === null || isSessionId(x.peer))
  );
}

export function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TransportError(`ReliableLink: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function checkOnPeerRestart(x: unknown): 'refuse' | 'reset' {
  if (x === undefined) return 'refuse';
  if (x !== 'refuse' && x !== 'reset') {
    throw new TransportError(
      `ReliableLink: onPeerRestart must be 'refuse' or 'reset', got ${JSON.stringify(x)}`,
    );
  }
  return x;
}

export function checkSession(x: unknown): string {
  if (!isSessionId(x)) {
    throw new TransportError(
      `ReliableLink: session must be a string of 1–${MAX_SESSION_LENGTH} characters, got ${JSON.stringify(x)}`,
    );
  }
  return x;
}

export function unackedBoundError(unacked: number, maxUnacked: number): TransportError {
  return new TransportError(
    `ReliableLink: ${unacked} payloads sent to the peer are still unacknowledged, the bound ` +
      `maxUnacked = ${maxUnacked} is reached (the peer is unreachable or not keeping up); ` +
      `wait for it to reconnect and acknowledge, or raise maxUnacked`,
  );
}

export function randomSessionId(): string {
  return globalThis.crypto.randomUUID();
}

export function emptyStats(): SessionStats {
  return {
    sent: 0,
    delivered: 0,
    duplicates: 0,
    outOfOrder: 0,
    malformed: 0,
    retransmitted: 0,
    acksSent: 0,
    overflow: 0,
    discarded: 0,
    resets: 0,
  };
}
