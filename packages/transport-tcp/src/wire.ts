/**
 * The transport's protocol above the framing (framing.ts): what the frames say.
 *
 * Wire protocol (each item one frame):
 * - dialer → acceptor: `{t:'hello', v:1, id, session, next, peer}`; acceptor → dialer: its own
 *   hello, or `{t:'refuse', reason}` and close. `session/next/peer` are the session layer's
 *   resume handshake (`SessionHello` of `@critsec/transport`).
 * - then, both ways: session frames `{t:'data', seq, ack, p:{c: channel, m: message}}` (`ack`:
 *   the piggybacked cumulative ack of the other direction) and `{t:'ack', ack}` (sent only when
 *   no data frame carried the ack within `ACK_DELAY_MS`, peer.ts), heartbeats `{t:'ping'}`, and
 *   `{t:'bye'}` before a deliberate close.
 *
 * Compatibility: hello version 1 is unchanged. Builds before the piggybacked ack wrote data
 * frames without `ack` and an ack frame per read batch; both are still accepted (the session
 * layer reads `ack` when present), and they ignore the `ack` of ours (our delayed ack frames
 * still acknowledge everything), so old and new peers interoperate.
 */
import { type Message, type ProcessId, TransportError } from '@critsec/core';
import type { ReliableLink } from '@critsec/transport';

/** Version of the hello frame; a hello of another version is refused (`bad-hello`). */
export const HELLO_VERSION = 1;
/** Longest channel name (characters) a message may carry, sent or received. */
export const MAX_CHANNEL_LENGTH = 1024;
/** Longest refusal reason (characters) taken from a peer's `refuse` frame. */
const MAX_REASON_LENGTH = 500;

/** True for a plain object (not null, not an array): the shape of every frame. */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The hello frame of process `self`: the session layer's resume handshake with `link`'s state. */
export function helloFrame(link: ReliableLink<unknown>, self: ProcessId): string {
  return JSON.stringify({ ...link.hello(), v: HELLO_VERSION, id: self });
}

/** The heartbeat frame, written after `heartbeatIntervalMs` without writing anything. */
export const PING_FRAME = '{"t":"ping"}';
/** The frame written before a deliberate close. */
export const BYE_FRAME = '{"t":"bye"}';
/**
 * Most bytes a data frame adds around its payload:
 * `{"t":"data","seq":<≤16 digits>,"ack":<≤16 digits>,"p":…}` is at most 63 bytes.
 */
export const DATA_FRAME_OVERHEAD = 63;

/**
 * A session data frame: sequence number `seq`, the piggybacked cumulative ack `ack` of the other
 * direction (every `seq ≤ ack` it sent was delivered; 0 before any) and the payload `p`, already
 * JSON text.
 */
export function dataFrame(seq: number, ack: number, p: string): string {
  return `{"t":"data","seq":${seq},"ack":${ack},"p":${p}}`;
}

/** A session acknowledgement frame: everything up to `ack` has arrived (cumulative). */
export function ackFrame(ack: number): string {
  return `{"t":"ack","ack":${ack}}`;
}

/** A `refuse` frame telling the peer why its connection is closed. */
export function refuseFrame(reason: string): string {
  return JSON.stringify({ t: 'refuse', reason });
}

/** The reason given by a peer's `refuse` frame (shortened). */
export function refusalOf(frame: Record<string, unknown>): string {
  return typeof frame.reason === 'string' ? frame.reason.slice(0, MAX_REASON_LENGTH) : 'no reason given';
}

/**
 * Checks what `send` was given: a channel of at most {@link MAX_CHANNEL_LENGTH} characters and a
 * plain object with a string `type`.
 * @throws TransportError otherwise.
 */
export function checkMessage(channel: unknown, msg: unknown): void {
  if (typeof channel !== 'string' || channel.length > MAX_CHANNEL_LENGTH) {
    throw new TransportError(`channel must be a string of at most ${MAX_CHANNEL_LENGTH} characters`);
  }
  if (!isObject(msg) || typeof msg.type !== 'string') {
    throw new TransportError(`a message must be a plain object with a string 'type', got ${String(msg)}`);
  }
}

/**
 * A message's payload text (`{c, m}` as JSON), checked against the frame size.
 * @throws TransportError when it is not JSON-serializable or its frame exceeds `maxFrameBytes`.
 */
export function encodeMessage(channel: string, msg: Message, maxFrameBytes: number): string {
  let text: string;
  try {
    text = JSON.stringify({ c: channel, m: msg });
  } catch (err) {
    throw new TransportError(
      `message of type '${msg.type}' is not JSON-serializable: ${(err as Error).message}`,
      { cause: err },
    );
  }
  const bytes = Buffer.byteLength(text, 'utf8') + DATA_FRAME_OVERHEAD;
  if (bytes > maxFrameBytes) {
    throw new TransportError(
      `message of type '${msg.type}' encodes to ${bytes} bytes, over the maximum frame size of ` +
        `${maxFrameBytes} bytes; send smaller messages or raise maxFrameBytes`,
    );
  }
  return text;
}
