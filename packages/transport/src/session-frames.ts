/**
 * The vocabulary of the reliable-FIFO session layer (`session.ts`, DESIGN.md 3.2): its frames,
 * the resume handshake's hello, options, counters and handshake outcomes, and the checks a
 * frame from below must pass before `ReliableLink` trusts any field of it.
 */
import { TransportError } from '@critsec/core';

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
export const MAX_SESSION_LENGTH = 64;

export function isSeq(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 1;
}

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function isSessionId(x: unknown): x is string {
  return typeof x === 'string' && x.length >= 1 && x.length <= MAX_SESSION_LENGTH;
}

export function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TransportError(`ReliableLink: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function randomSessionId(): string {
  return globalThis.crypto.randomUUID();
}
