import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, FrameError } from '../src/framing.js';

function concat(frames: Buffer[]): Buffer {
  return Buffer.concat(frames);
}

/** Splits `buf` at the given cut points. */
function split(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(buf.subarray(prev, p));
    prev = p;
  }
  out.push(buf.subarray(prev));
  return out;
}

describe('length-prefixed framing', () => {
  it('round-trips frames however the stream is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (values, cuts) => {
          const texts = values.map((v) => JSON.stringify(v));
          const stream = concat(texts.map((t) => encodeFrame(t)));
          const d = new FrameDecoder();
          const got: unknown[] = [];
          for (const chunk of split(stream, cuts)) got.push(...d.push(chunk));
          expect(got.map((g) => JSON.stringify(g))).toEqual(texts);
          expect(d.buffered).toBe(0);
          expect(d.frames).toBe(values.length);
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });

  it('rejects a length over the maximum before allocating, including 2^32 - 1', () => {
    const d = new FrameDecoder(1024);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(0xffffffff, 0);
    expect(d.push(header)).toEqual([]);
    expect(d.error).toBeInstanceOf(FrameError);
    expect(d.error?.kind).toBe('oversize');
    expect(d.error?.message).toMatch(/4294967295 bytes is over the maximum frame size of 1024 bytes/);
    expect(d.buffered).toBe(0);
    // Poisoned: nothing more is decoded from this stream.
    expect(d.push(encodeFrame('{"ok":1}'))).toEqual([]);
    expect(d.buffered).toBe(0);
  });

  it('returns the frames before a bad one, then stops', () => {
    const d = new FrameDecoder();
    const stream = Buffer.concat([
      encodeFrame('1'),
      encodeFrame('[2]'),
      Buffer.from([0, 0, 0, 2]),
      Buffer.from('}{'),
      encodeFrame('3'),
    ]);
    expect(d.push(stream)).toEqual([1, [2]]);
    expect(d.error?.kind).toBe('undecodable');
    expect(d.frames).toBe(2);
  });

  it('rejects length 0 and bodies that are not JSON, with the kind of error', () => {
    const kinds: (string | undefined)[] = [];
    for (const bytes of [
      Buffer.from([0, 0, 0, 0]),
      Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from('{x}')]),
    ]) {
      const d = new FrameDecoder();
      d.push(bytes);
      kinds.push(d.error?.kind);
    }
    expect(kinds).toEqual(['bad-length', 'undecodable']);
    expect(() => encodeFrame('x'.repeat(2000), 1024)).toThrow(
      /2000 bytes is over the maximum frame size of 1024/,
    );
    expect(() => new FrameDecoder(10)).toThrow(/maxFrameBytes must be an integer in 64/);
  });

  it('fuzz: 200,000 random frames and byte streams never crash it and never grow its buffer past the bound', () => {
    let a = 99;
    const rnd = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const max = 4096;
    let decoded = 0;
    const errors = { oversize: 0, 'bad-length': 0, undecodable: 0 };
    let d = new FrameDecoder(max);
    let maxBuffered = 0;
    for (let i = 0; i < 200_000; i++) {
      const kind = rnd();
      let bytes: Buffer;
      if (kind < 0.6) {
        // A well-formed frame with a random JSON-ish or garbage body.
        const body =
          rnd() < 0.5
            ? JSON.stringify({ t: 'data', seq: Math.floor(rnd() * 1e6), p: { c: 'x', m: { type: 'T' } } })
            : Buffer.from(
                Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 256)),
              ).toString('latin1');
        bytes = encodeFrame(body, max);
      } else {
        // Random bytes, sometimes with a random length prefix.
        bytes = Buffer.from(
          Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => Math.floor(rnd() * 256)),
        );
      }
      decoded += d.push(bytes).length;
      if (d.error) {
        errors[d.error.kind]++;
        d = new FrameDecoder(max); // the connection is closed; a new one starts clean
      }
      maxBuffered = Math.max(maxBuffered, d.buffered);
    }
    expect(maxBuffered).toBeLessThanOrEqual(4 + max + 64);
    expect(decoded).toBeGreaterThan(10_000);
    expect(errors.oversize + errors['bad-length'] + errors.undecodable).toBeGreaterThan(10_000);
    expect(errors.undecodable).toBeGreaterThan(0);
  });
});
