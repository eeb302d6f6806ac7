/**
 * Length-prefixed framing for the TCP transport: every frame is a 4-byte unsigned big-endian
 * length followed by that many bytes of UTF-8 JSON. The length is checked against the maximum
 * frame size *before* anything is allocated for the body, so a hostile or corrupt length
 * (e.g. 2³²−1) costs nothing but the closed connection.
 */
import { TransportError } from '@critsec/core';

/** Bytes of the length prefix. */
const FRAME_HEADER_BYTES = 4;
/** Default maximum frame body size in bytes (64 KiB): protocol messages are tiny. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024;
/** The largest frame body size that can be configured (the prefix is 32-bit; we cap at 16 MiB). */
const MAX_CONFIGURABLE_FRAME_BYTES = 16 * 1024 * 1024;

/** Why a byte stream was rejected. */
export type FrameErrorKind = 'oversize' | 'bad-length' | 'undecodable';

/** A framing or decoding failure: the connection carrying it must be closed. */
export class FrameError extends TransportError {
  /** What was wrong: the stream cannot be resynchronised after any of them. */
  readonly kind: FrameErrorKind;
  /** A framing error of `kind`. */
  constructor(kind: FrameErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/**
 * Encodes `text` (a JSON document) as one frame.
 * @throws TransportError when the body is over `maxFrameBytes`.
 */
export function encodeFrame(text: string, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const len = Buffer.byteLength(text, 'utf8');
  if (len > maxFrameBytes) {
    throw new TransportError(
      `frame of ${len} bytes is over the maximum frame size of ${maxFrameBytes} bytes; ` +
        `send smaller messages or raise maxFrameBytes`,
    );
  }
  const buf = Buffer.allocUnsafe(FRAME_HEADER_BYTES + len);
  buf.writeUInt32BE(len, 0);
  buf.write(text, FRAME_HEADER_BYTES, len, 'utf8');
  return buf;
}

/**
 * Validates a configured maximum frame size; returns it.
 * @throws TransportError unless it is an integer in 64 … 16 MiB.
 */
export function checkMaxFrameBytes(value: number): number {
  if (!Number.isSafeInteger(value) || value < 64 || value > MAX_CONFIGURABLE_FRAME_BYTES) {
    throw new TransportError(
      `maxFrameBytes must be an integer in 64 … ${MAX_CONFIGURABLE_FRAME_BYTES}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Incremental decoder of a byte stream into JSON frames. Feed it socket chunks with
 * {@link FrameDecoder.push}; it returns the complete frames' parsed values. It holds at most one
 * partial frame: `buffered ≤ 4 + maxFrameBytes + (one chunk)`. On a zero or oversized length, or
 * a body that is not JSON, it stops: `push` returns the frames decoded *before* the bad one and
 * sets {@link FrameDecoder.error}; the stream cannot be resynchronised, so later pushes return
 * nothing and the owner closes the connection.
 */
export class FrameDecoder {
  /** The largest frame body accepted, in bytes. */
  readonly maxFrameBytes: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #need = -1; // body length of the frame being read, or -1 while reading a header
  #error: FrameError | undefined;
  /** Complete frames decoded so far. */
  frames = 0;

  /** @throws TransportError for a `maxFrameBytes` outside 64 … 16 MiB. */
  constructor(maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {
    this.maxFrameBytes = checkMaxFrameBytes(maxFrameBytes);
  }

  /** Bytes held waiting for the rest of a frame. */
  get buffered(): number {
    return this.#size;
  }

  /** Why the stream was rejected, once it was. */
  get error(): FrameError | undefined {
    return this.#error;
  }

  /**
   * Adds bytes; returns the values of the frames they complete, in order — up to the first bad
   * frame, if any (then {@link FrameDecoder.error} is set). Never throws.
   */
  push(chunk: Buffer): unknown[] {
    const out: unknown[] = [];
    if (this.#error) return out;
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#size += chunk.length;
    }
    for (;;) {
      if (this.#need < 0) {
        if (this.#size < FRAME_HEADER_BYTES) break;
        const len = this.#take(FRAME_HEADER_BYTES).readUInt32BE(0);
        if (len === 0)
          return this.#fail(out, 'bad-length', 'frame with length 0 (a frame carries one JSON value)');
        if (len > this.maxFrameBytes) {
          return this.#fail(
            out,
            'oversize',
            `frame length ${len} bytes is over the maximum frame size of ${this.maxFrameBytes} bytes`,
          );
        }
        this.#need = len;
      }
      if (this.#size < this.#need) break;
      const body = this.#take(this.#need);
      this.#need = -1;
      let value: unknown;
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch (err) {
        return this.#fail(
          out,
          'undecodable',
          `frame of ${body.length} bytes is not JSON: ${(err as Error).message}`,
        );
      }
      this.frames++;
      out.push(value);
    }
    return out;
  }

  #fail(out: unknown[], kind: FrameErrorKind, message: string): unknown[] {
    this.#error = new FrameError(kind, message);
    this.#chunks = [];
    this.#size = 0;
    return out;
  }

  /** Removes and returns the first `n ≤ size` buffered bytes. */
  #take(n: number): Buffer {
    const first = this.#chunks[0]!;
    let out: Buffer;
    if (first.length === n) {
      this.#chunks.shift();
      out = first;
    } else if (first.length > n) {
      out = first.subarray(0, n);
      this.#chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let off = 0;
      while (off < n) {
        const c = this.#chunks[0]!;
        const k = Math.min(c.length, n - off);
        c.copy(out, off, 0, k);
        off += k;
        if (k === c.length) this.#chunks.shift();
        else this.#chunks[0] = c.subarray(k);
      }
    }
    this.#size -= n;
    return out;
  }
}
