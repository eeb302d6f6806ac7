import { type Message, type ProcessId, ProtocolError, TransportError } from '@critsec/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createEndpoint, defineProtocol } from '../src/index.js';
import { pair } from './endpoint-pair.js';

describe('createEndpoint (channel multiplexing)', () => {
  it('routes by nested channel path and keeps FIFO per channel', () => {
    const { a, b, flush } = pair();
    const got: string[] = [];
    b.channel('lmin').onMessage((from, m) => got.push(`lmin:${from}:${m.type}`));
    b.channel('lmin')
      .channel('mx')
      .onMessage((_f, m) => got.push(`lmin/mx:${m.type}`));
    b.onMessage((_f, m) => got.push(`root:${m.type}`));
    expect(a.channel('lmin').channel('mx').path).toBe('lmin/mx');
    expect(a.channel('lmin')).toBe(a.channel('lmin'));
    a.channel('lmin').send(1, { type: 'A' });
    a.channel('lmin').channel('mx').send(1, { type: 'B' });
    a.send(1, { type: 'C' });
    a.channel('lmin').send(1, { type: 'D' });
    flush();
    expect(got).toEqual(['lmin:0:A', 'lmin/mx:B', 'root:C', 'lmin:0:D']);
  });

  it('holds a message for a channel nobody has listened on yet and drops those for a channel whose handlers left, or after close', async () => {
    const seen: string[] = [];
    const { a, b, flush } = pair({ onUndeliverable: (u) => seen.push(`${u.from}:${u.channel}:${u.reason}`) });
    a.channel('nobody').send(1, { type: 'X' });
    flush();
    expect(b.undeliverable).toBe(0);
    expect(b.held).toBe(1);
    const off = b.channel('nobody').onMessage(() => {});
    await Promise.resolve();
    expect(b.held).toBe(0);
    off();
    a.channel('nobody').send(1, { type: 'Y' });
    flush();
    expect(b.undeliverable).toBe(1);
    expect(seen).toEqual(['0:nobody:no-handler']);
    b.close();
    a.send(1, { type: 'Z' });
    flush();
    expect(seen).toEqual(['0:nobody:no-handler', '0::closed']);
  });

  it('refuses bad channel names and sends after close', () => {
    const { a } = pair();
    expect(() => a.channel('')).toThrow(TransportError);
    expect(() => a.channel('a/b')).toThrow(/without '\/'/);
    a.close();
    expect(() => a.send(1, { type: 'X' })).toThrow(/closed endpoint/);
  });

  it('unsubscribe stops delivery', () => {
    const { a, b, flush } = pair();
    let count = 0;
    const off = b.onMessage(() => count++);
    a.send(1, { type: 'X' });
    flush();
    off();
    a.send(1, { type: 'X' });
    flush();
    expect(count).toBe(1);
    expect(b.undeliverable).toBe(1);
  });
});

describe('defineProtocol (validation at the boundary)', () => {
  const proto = defineProtocol(
    'demo',
    v.variant('type', [
      v.object({ type: v.literal('REQUEST'), ts: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
      v.object({ type: v.literal('RELEASE') }),
    ]),
  );

  it('passes valid messages and drops, counts and reports invalid ones', () => {
    const { a, b, flush } = pair();
    const ok: unknown[] = [];
    const errors: ProtocolError[] = [];
    proto.listen(
      b,
      (from, m) => ok.push([from, m.type]),
      (e) => errors.push(e),
    );
    a.send(1, { type: 'REQUEST', ts: 3 });
    a.send(1, { type: 'REQUEST', ts: -1 });
    a.send(1, { type: 'REQUEST' });
    a.send(1, { type: 'BOGUS' });
    a.send(1, { type: 'RELEASE' });
    a.send(1, null as unknown as Message);
    flush();
    expect(ok).toEqual([
      [0, 'REQUEST'],
      [0, 'RELEASE'],
    ]);
    expect(proto.dropped).toBe(4);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect(errors[0]!.message).toMatch(
      /demo: dropped invalid message from P0 on '': ts: .*\{"type":"REQUEST","ts":-1\}/,
    );
    expect(errors.every((e) => e.from === 0)).toBe(true);
  });

  it('refuses messages from processes outside 0..n-1', () => {
    let receive: ((from: ProcessId, channel: string, msg: Message) => void) | undefined;
    const ep = createEndpoint({
      self: 0,
      peers: [0, 1],
      send() {},
      setReceiver(fn) {
        receive = fn;
      },
    });
    const errors: string[] = [];
    proto.listen(
      ep,
      () => errors.push('handled'),
      (e) => errors.push(e.message),
    );
    receive!(7, '', { type: 'RELEASE' });
    expect(errors).toEqual(['demo: message from unknown process 7']);
  });

  it('routes every message by its own channel, whatever came before (no stale route)', async () => {
    const undeliverable: string[] = [];
    const { a, b, flush } = pair({ onUndeliverable: (u) => undeliverable.push(`${u.channel}:${u.reason}`) });
    const got: string[] = [];
    b.channel('x').onMessage((_f, m) => got.push(`x:${m.type}`));
    for (const [ch, type] of [
      ['x', 'A'],
      ['x', 'B'],
      ['y', 'C'],
      ['x', 'D'],
      ['', 'E'],
      ['x', 'F'],
    ] as const)
      (ch === '' ? a : a.channel(ch)).send(1, { type });
    flush();
    // a channel listened on only after a message for it was held: it gets that one first, on a
    // microtask after the subscription, and the next one behind it
    b.channel('y').onMessage((_f, m) => got.push(`y:${m.type}`));
    a.channel('y').send(1, { type: 'G' });
    a.channel('x').send(1, { type: 'H' });
    flush();
    await Promise.resolve();
    expect(got).toEqual(['x:A', 'x:B', 'x:D', 'x:F', 'x:H', 'y:C', 'y:G']);
    expect(undeliverable).toEqual([]);
    expect(b.held).toBe(1); // E, on the root channel, which nobody listens on
    b.close();
    a.channel('x').send(1, { type: 'I' });
    flush();
    expect(got).toHaveLength(7);
    expect(undeliverable).toEqual(['x:closed']);
  });
});
