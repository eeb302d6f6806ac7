import { ReliableLink } from '@critsec/transport';
import { describe, expect, it } from 'vitest';
import {
  ackFrame,
  BYE_FRAME,
  DATA_FRAME_OVERHEAD,
  dataFrame,
  HELLO_VERSION,
  helloFrame,
  PING_FRAME,
  refusalOf,
  refuseFrame,
} from '../src/wire.js';

/** The wire protocol is pinned byte for byte: peers of other builds must keep understanding it. */
describe('wire frames', () => {
  it('writes data (with its piggybacked ack), ack, ping and bye frames byte for byte', () => {
    expect(dataFrame(7, 3, '{"c":"cs","m":{"type":"REQ"}}')).toBe(
      '{"t":"data","seq":7,"ack":3,"p":{"c":"cs","m":{"type":"REQ"}}}',
    );
    expect(ackFrame(41)).toBe('{"t":"ack","ack":41}');
    expect(PING_FRAME).toBe('{"t":"ping"}');
    expect(BYE_FRAME).toBe('{"t":"bye"}');
    expect(JSON.parse(dataFrame(1, 0, '{"c":"x","m":{"type":"A","k":[1]}}'))).toEqual({
      t: 'data',
      seq: 1,
      ack: 0,
      p: { c: 'x', m: { type: 'A', k: [1] } },
    });
  });

  it('bounds what a data frame adds to its payload (the size check of send relies on it)', () => {
    const payload = '{"c":"","m":{"type":""}}';
    for (const seq of [0, 1, 99, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      expect(dataFrame(seq, seq, payload).length - payload.length).toBeLessThanOrEqual(DATA_FRAME_OVERHEAD);
    }
    expect(dataFrame(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, '').length).toBe(DATA_FRAME_OVERHEAD);
  });

  it('reads the frames of builds before the piggybacked ack (no ack in data frames) and theirs read ours', () => {
    // What a build with the piggybacked ack sends, received by one before it: that session layer
    // read only seq and p of a data frame, so the extra ack is ignored and the delayed ack frame
    // acknowledges; and a data frame without ack is what an old build sends us.
    const got: unknown[] = [];
    const receiver = new ReliableLink<unknown>({ transmit: () => {}, deliver: (p) => got.push(p) });
    receiver.receive(JSON.parse('{"t":"data","seq":1,"p":{"c":"cs","m":{"type":"REQ"}}}'));
    receiver.receive(JSON.parse(dataFrame(2, 0, '{"c":"cs","m":{"type":"REL"}}')));
    expect(got).toEqual([
      { c: 'cs', m: { type: 'REQ' } },
      { c: 'cs', m: { type: 'REL' } },
    ]);
    expect(receiver.stats.malformed).toBe(0);
  });

  it("says hello with the session layer's resume state, the version and the sender's id", () => {
    const link = new ReliableLink<unknown>({ transmit: () => {}, deliver: () => {}, session: 'S1' });
    expect(HELLO_VERSION).toBe(1);
    expect(helloFrame(link, 3)).toBe('{"t":"hello","session":"S1","next":1,"peer":null,"v":1,"id":3}');
  });

  it('refuses with a reason, and reads a refusal shortened to 500 characters', () => {
    expect(refuseFrame('wrong id')).toBe('{"t":"refuse","reason":"wrong id"}');
    expect(refusalOf({ t: 'refuse', reason: 'peer restarted' })).toBe('peer restarted');
    expect(refusalOf({ t: 'refuse', reason: 'x'.repeat(2_000) })).toBe('x'.repeat(500));
    expect(refusalOf({ t: 'refuse', reason: 42 })).toBe('no reason given');
    expect(refusalOf({ t: 'refuse' })).toBe('no reason given');
  });
});
