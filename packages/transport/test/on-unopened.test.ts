import { TransportError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { pair } from './endpoint-pair.js';

describe('RootEndpoint.onUnopened (channels created on demand)', () => {
  it('lets a message for a never-opened channel under the prefix open it and be delivered at once', () => {
    const { a, b, flush } = pair();
    const got: string[] = [];
    const calls: string[] = [];
    b.onUnopened('locks', (rest, from) => {
      calls.push(`${rest}<-P${from}`);
      b.channel('locks')
        .channel(rest)
        .onMessage((f, m) => got.push(`${rest}:${f}:${m.type}`));
    });
    a.channel('locks').channel('x:a').send(1, { type: 'A' });
    a.channel('locks').channel('x:a').send(1, { type: 'B' });
    a.channel('other').send(1, { type: 'C' });
    flush();
    expect(calls).toEqual(['x:a<-P0']); // once: the second message found a handler
    expect(got).toEqual(['x:a:0:A', 'x:a:0:B']);
    expect(b.held).toBe(1); // 'other' is not under the prefix: held as before
  });

  it('reopens a channel whose handlers all left instead of dropping its message', () => {
    const { a, b, flush } = pair();
    const got: string[] = [];
    const off = b
      .channel('locks')
      .channel('n')
      .onMessage((_f, m) => got.push(`first:${m.type}`));
    a.channel('locks').channel('n').send(1, { type: 'A' });
    flush();
    off();
    let reopened = 0;
    b.onUnopened('locks', (rest) => {
      reopened++;
      b.channel('locks')
        .channel(rest)
        .onMessage((_f, m) => got.push(`second:${m.type}`));
    });
    a.channel('locks').channel('n').send(1, { type: 'B' });
    flush();
    expect(got).toEqual(['first:A', 'second:B']);
    expect(reopened).toBe(1);
    expect(b.undeliverable).toBe(0);
  });

  it('holds or drops as before when the hook opens nothing, and stops once removed', () => {
    const { a, b, flush } = pair();
    let calls = 0;
    const remove = b.onUnopened('locks', () => {
      calls++;
    });
    a.channel('locks').channel('x').send(1, { type: 'A' });
    flush();
    expect([calls, b.held]).toEqual([1, 1]);
    remove();
    a.channel('locks').channel('x').send(1, { type: 'B' });
    flush();
    expect([calls, b.held]).toEqual([1, 2]);
    expect(() => b.onUnopened('', () => {})).toThrow(TransportError);
    expect(() => b.onUnopened('a/', () => {})).toThrow(TransportError);
  });

  it('offers the channels held before the hook was set to it when it is set', async () => {
    const { a, b, flush } = pair();
    a.channel('locks').channel('early').send(1, { type: 'A' });
    a.channel('locks').channel('early').send(1, { type: 'B' });
    a.channel('elsewhere').send(1, { type: 'C' });
    flush();
    expect(b.held).toBe(3);
    const got: string[] = [];
    const offered: string[] = [];
    b.onUnopened('locks', (rest, from) => {
      offered.push(`${rest}<-P${from}`);
      b.channel('locks')
        .channel(rest)
        .onMessage((_f, m) => got.push(m.type as string));
    });
    expect(offered).toEqual(['early<-P0']);
    await Promise.resolve();
    expect(got).toEqual(['A', 'B']);
    expect(b.held).toBe(1);
  });
});
