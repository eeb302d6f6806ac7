/**
 * MessageAttribution with the `'context'` carrier over a SimNetwork: deliveries and timers run
 * in a synchronous slot (no AsyncLocalStorage `run` per delivery, issue 15), invocations in the
 * AsyncLocalStorage. Each case pins where a key must go: a handler's replies and timers, an
 * invocation started inside a handler (and its continuations), a continuation released by a
 * delivery of another invocation, and messages sent outside any invocation.
 */
import type { Message } from '@critsec/core';
import { SimNetwork } from '@critsec/transport-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageAttribution } from '../src/index.js';

const open: { net: SimNetwork; a: MessageAttribution<number> }[] = [];
afterEach(() => {
  for (const { net, a } of open.splice(0)) {
    net.close();
    a.dispose();
  }
});

/** A two-process network under one context attribution; `charged` lists `key TYPE` per send. */
function setup() {
  const a = new MessageAttribution<number>({ carrier: 'context' });
  const net = new SimNetwork({ n: 2, context: a.causalContext() });
  open.push({ net, a });
  const e0 = a.endpoint(net.endpoint(0));
  const e1 = a.endpoint(net.endpoint(1));
  const charged: string[] = [];
  a.onCharge((key, _to, msg) => charged.push(`${key} ${msg.type}`));
  return { a, net, e0, e1, charged };
}

describe('MessageAttribution (context carrier) over the simulator', () => {
  it("charges a handler's replies and the sends of its timers to the invocation that sent the message", async () => {
    const { a, net, e0, e1, charged } = setup();
    const seen: (number | null)[] = [];
    e1.onMessage((from, msg) => {
      seen.push(a.current());
      if (msg.type !== 'PING') return;
      e1.send(from, { type: 'PONG' });
      net.schedule(3, () => {
        seen.push(a.current());
        e1.send(from, { type: 'LATER' });
      });
    });
    e0.onMessage(() => seen.push(a.current()));
    a.run(7, () => e0.send(1, { type: 'PING' }));
    expect(a.current()).toBeNull();
    await net.run();
    expect(charged).toEqual(['7 PING', '7 PONG', '7 LATER']);
    // in the handler, in the timer, and at P0's two deliveries
    expect(seen).toEqual([7, 7, 7, 7]);
    expect(a.current()).toBeNull();
  });

  it('an invocation started inside a handler keeps its own key, across its awaits too', async () => {
    const { a, net, e0, e1, charged } = setup();
    const inner: Promise<void>[] = [];
    e1.onMessage((from, msg) => {
      if (msg.type !== 'GO') return;
      inner.push(
        a.run(9, async () => {
          e1.send(from, { type: 'A' });
          await Promise.resolve();
          e1.send(from, { type: 'B' });
        }),
      );
      // back in the delivery: the slot's key again
      e1.send(from, { type: 'AFTER' });
      expect(a.current()).toBe(4);
    });
    a.run(4, () => e0.send(1, { type: 'GO' }));
    await net.run();
    await Promise.all(inner);
    expect(charged).toEqual(['4 GO', '9 A', '4 AFTER', '9 B']);
  });

  it('a continuation released by a delivery of another invocation stays charged to its own', async () => {
    const { a, net, e0, e1, charged } = setup();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    e0.onMessage((_from, msg) => {
      if (msg.type === 'WAKE') release();
    });
    const waiting = a.run(3, async () => {
      e0.send(1, { type: 'WAIT' });
      await released;
      e0.send(1, { type: 'DONE' });
    });
    e1.onMessage(() => {});
    a.run(5, () => e1.send(0, { type: 'WAKE' }));
    await net.run();
    await waiting;
    expect(charged).toEqual(['3 WAIT', '5 WAKE', '3 DONE']);
    expect(Object.fromEntries(a.byKey)).toEqual({ 3: 2, 5: 1 });
  });

  it('a message sent outside any invocation is handled outside any: its replies are not charged', async () => {
    const { a, net, e0, e1, charged } = setup();
    const seen: (number | null)[] = [];
    e1.onMessage((from, msg: Message) => {
      seen.push(a.current());
      if (msg.type === 'PING') e1.send(from, { type: 'PONG' });
    });
    e0.onMessage(() => seen.push(a.current()));
    e0.send(1, { type: 'PING' });
    a.run(null, () => e0.send(1, { type: 'NOTE' }));
    await net.run();
    expect(charged).toEqual([]);
    expect(seen).toEqual([null, null, null]);
    expect([a.sent, a.delivered]).toEqual([3, 3]);
    expect(a.byKey.size).toBe(0);
  });

  it('counts each delivery once, however many handlers, and a handler gets the message as it was sent', async () => {
    const { a, net, e0, e1 } = setup();
    const got: unknown[] = [];
    e1.onMessage((_from, msg) => got.push(msg));
    e1.onMessage((_from, msg) => got.push(msg));
    const msg = { type: 'PING', n: 1 };
    a.run(1, () => {
      e0.send(1, msg);
      e0.send(1, { type: 'PONG' });
    });
    await net.run();
    expect(got[0]).toBe(msg);
    expect(got).toHaveLength(4);
    expect([a.sent, a.delivered]).toEqual([2, 2]);
  });

  it('a delivery that throws leaves no key behind', async () => {
    const { a, net, e0, e1 } = setup();
    e1.onMessage(() => {
      throw new Error('boom');
    });
    a.run(2, () => e0.send(1, { type: 'PING' }));
    await expect(net.run()).rejects.toThrow(/boom/);
    expect(a.current()).toBeNull();
    e0.send(1, { type: 'FREE' });
    expect(a.byKey.get(2)).toBe(1);
  });
});
