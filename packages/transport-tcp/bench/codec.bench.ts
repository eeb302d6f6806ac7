/**
 * Issue 15's codec question, measured on the frames the transport actually writes: JSON (what
 * the wire uses: the payload stringified once at `send`, the data frame built around it, one
 * `JSON.parse` of the whole body at the receiver) against the two maintained binary codecs
 * msgpackr and cbor-x (the whole frame object packed at transmit, unpacked at receipt; msgpackr
 * also with its record extension, which describes an object shape inside the message).
 *
 * The frames: Maekawa's REQUEST / LOCKED / RELEASE (`{type, req, ts}`) on channel `cs` as data
 * frames with a piggybacked ack, and a standalone ack frame — the mix of an uncontended round.
 * Each codec encodes and decodes the mix `ITER` times (length prefix included, as
 * `encodeFrame` / `FrameDecoder` do); the figure is ns per frame (encode + decode), the median
 * of `REPS` runs, with the bytes per frame on the wire.
 *
 * Run: node --conditions=@critsec/source --import tsx bench/codec.bench.ts   (from packages/transport-tcp)
 */
import { Decoder as CborDecoder, Encoder as CborEncoder } from 'cbor-x';
import { Packr } from 'msgpackr';
import { ackFrame, dataFrame } from '../src/wire.js';

const ITER = Number(process.env.ITER ?? 100_000);
const REPS = 7;

interface Frame {
  t: 'data' | 'ack';
  seq?: number;
  ack: number;
  p?: { c: string; m: Record<string, unknown> };
}

/** An uncontended round's frames at seq / ts values of a long run. */
const MIX: Frame[] = [
  { t: 'data', seq: 40_001, ack: 40_000, p: { c: 'cs', m: { type: 'REQUEST', req: 120_003, ts: 120_003 } } },
  { t: 'data', seq: 40_002, ack: 40_001, p: { c: 'cs', m: { type: 'LOCKED', req: 120_003, ts: 120_004 } } },
  { t: 'data', seq: 40_003, ack: 40_002, p: { c: 'cs', m: { type: 'RELEASE', req: 120_003, ts: 120_005 } } },
  { t: 'ack', ack: 40_003 },
];

interface Codec {
  name: string;
  /** Encodes a frame as written to the socket (length prefix included). */
  encode(f: Frame): Buffer;
  /** Decodes the body of a frame (after the length prefix). */
  decode(body: Buffer): unknown;
}

function prefixed(body: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(4 + body.length);
  buf.writeUInt32BE(body.length, 0);
  buf.set(body, 4);
  return buf;
}

const json: Codec = {
  name: 'JSON (the wire today)',
  encode(f) {
    // As the transport does it: the payload stringified once at send, the frame around it.
    const text = f.t === 'ack' ? ackFrame(f.ack) : dataFrame(f.seq!, f.ack, JSON.stringify(f.p));
    const len = Buffer.byteLength(text, 'utf8');
    const buf = Buffer.allocUnsafe(4 + len);
    buf.writeUInt32BE(len, 0);
    buf.write(text, 4, len, 'utf8');
    return buf;
  },
  decode: (body) => JSON.parse(body.toString('utf8')),
};

function msgpackr(useRecords: boolean): Codec {
  // One encoder and one decoder per connection direction, as a transport would keep them.
  const enc = new Packr({ useRecords, moreTypes: false });
  const dec = new Packr({ useRecords, moreTypes: false });
  return {
    name: `msgpackr${useRecords ? ' (records)' : ''}`,
    encode: (f) => prefixed(enc.pack(f)),
    decode: (body) => dec.unpack(body),
  };
}

function cbor(): Codec {
  const enc = new CborEncoder({ useRecords: false });
  const dec = new CborDecoder({ useRecords: false });
  return {
    name: 'cbor-x',
    encode: (f) => prefixed(enc.encode(f)),
    decode: (body) => dec.decode(body),
  };
}

function run(codec: Codec): { ns: number; bytes: number } {
  let bytes = 0;
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITER; i++) {
    for (const f of MIX) {
      const buf = codec.encode(f);
      bytes += buf.length;
      const v = codec.decode(buf.subarray(4)) as Frame;
      sink += v.ack;
    }
  }
  const ns = Number(process.hrtime.bigint() - t0) / (ITER * MIX.length);
  if (sink === 0) throw new Error('unreachable');
  return { ns, bytes: bytes / (ITER * MIX.length) };
}

const codecs = [json, msgpackr(false), msgpackr(true), cbor()];
// Round trip check: every codec gives back the frames.
for (const c of codecs) {
  for (const f of MIX) {
    const back = JSON.stringify(c.decode(c.encode(f).subarray(4)));
    if (back !== JSON.stringify(JSON.parse(JSON.stringify(f)))) {
      // Key order may differ for JSON's hand-built frame; compare parsed.
      const a = c.decode(c.encode(f).subarray(4)) as Frame;
      if (a.ack !== f.ack || a.seq !== f.seq || JSON.stringify(a.p) !== JSON.stringify(f.p))
        throw new Error(`${c.name} does not round-trip ${JSON.stringify(f)}: ${back}`);
    }
  }
}
const results = new Map<string, { ns: number[]; bytes: number }>(
  codecs.map((c) => [c.name, { ns: [], bytes: 0 }]),
);
for (let r = 0; r < REPS; r++) {
  // Interleaved: each repetition runs every codec once, so the machine's load hits them alike.
  for (const c of codecs) {
    const { ns, bytes } = run(c);
    const entry = results.get(c.name)!;
    entry.ns.push(ns);
    entry.bytes = bytes;
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(results.get(json.name)!.ns);
console.log(
  `codec micro-benchmark: ${ITER} × ${MIX.length} frames (an uncontended round's mix), median of ${REPS}`,
);
console.log('| codec | ns per frame (encode + decode) | × JSON | bytes per frame |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, { ns, bytes }] of results) {
  const m = median(ns);
  console.log(`| ${name} | ${m.toFixed(0)} | ${(m / base).toFixed(2)} | ${bytes.toFixed(1)} |`);
}
