import type { Endpoint, Message } from '@critsec/core';
import { exponentialDelay, SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import {
  addressingTests,
  streamTests,
  type TransportTestFn,
  transportCompliance,
  transportContext,
} from '../src/transport.js';

const simSetup =
  (options: { faults?: { drop: number; duplicate: number } } = {}) =>
  async (n: number) => {
    const net = new SimNetwork({ n, seed: 4, delay: exponentialDelay(1), ...options });
    return {
      endpoints: net.endpoints(),
      drive: async (done: () => boolean) => {
        await net.run({ stopWhen: done });
      },
      teardown: async () => net.close(),
    };
  };

describe('the simulated network passes the transport compliance suite', () => {
  transportCompliance({ it, name: 'sim', setup: simSetup() });
  transportCompliance({
    it,
    name: 'sim with faults below the session layer',
    setup: simSetup({ faults: { drop: 0.2, duplicate: 0.2 } }),
  });
});

/** An endpoint whose sends (on every channel) go through `send` instead. */
function intercept(ep: Endpoint, send: (inner: Endpoint, to: number, msg: Message) => void): Endpoint {
  return new Proxy(ep, {
    get(target, prop) {
      if (prop === 'send') return (to: number, msg: Message) => send(target, to, msg);
      if (prop === 'channel') return (name: string) => intercept(target.channel(name), send);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Drops every `every`-th send of the endpoint and its channels. */
function lossy(ep: Endpoint, every: number): Endpoint {
  let sent = 0;
  return intercept(ep, (inner, to, msg) => {
    if (++sent % every !== 0) inner.send(to, msg);
  });
}

describe('the transport suite has teeth, and is its concerns composed behind one setup object', () => {
  /** Registers a suite on a fake `it`: titles in order, and the test bodies to run. */
  const collect = (register: (it: TransportTestFn) => void) => {
    const tests: [string, () => Promise<void>][] = [];
    register((name, fn) => tests.push([name, fn]));
    return tests;
  };

  it('registers the same three titles, in order, as the concerns composed by hand', () => {
    const setup = { name: 'x', setup: simSetup() };
    const whole = collect((it) => transportCompliance({ ...setup, it }));
    expect(whole.map(([name]) => name)).toEqual([
      'x: every (from, to, channel) stream arrives complete, in order, exactly once — self included',
      'x: peers and path are reported; an unknown peer is refused with TransportError',
      'x: a message for a channel nobody listens on does not disturb the others',
    ]);
    const byHand = collect((it) => {
      const ctx = transportContext({ ...setup, it });
      streamTests(ctx);
      addressingTests(ctx);
    });
    expect(byHand.map(([name]) => name)).toEqual(whole.map(([name]) => name));
  });

  /** The suite's tests on the simulated network with every endpoint wrapped; teardowns counted. */
  const onWrapped = (name: string, wrap: (ep: Endpoint, n: number) => Endpoint) => {
    const torn = { count: 0 };
    const tests = collect((it) =>
      transportCompliance({
        it,
        name,
        setup: async (n) => {
          const t = await simSetup()(n);
          const teardown = async () => {
            torn.count++;
            await t.teardown();
          };
          return { endpoints: t.endpoints.map((ep) => wrap(ep, n)), drive: t.drive, teardown };
        },
      }),
    );
    return { tests, torn };
  };

  it('a transport that loses one message in 97 fails the stream test, and is torn down', async () => {
    const { tests, torn } = onWrapped('lossy', (ep) => lossy(ep, 97));
    const err = await tests[0]![1]().catch((e: unknown) => e);
    expect(String(err)).toMatch(/out of order or duplicated: \d+>\d+\/\S+: got seq \d+, expected \d+/);
    expect(torn.count).toBe(1);
    for (const [, fn] of tests.slice(1)) await fn();
    expect(torn.count).toBe(3);
  });

  it('an endpoint that swallows sends to unknown peers fails the addressing test', async () => {
    // sends to an unknown peer vanish instead of throwing
    const { tests } = onWrapped('quiet', (ep, n) =>
      intercept(ep, (inner, to, msg) => (to < n ? inner.send(to, msg) : undefined)),
    );
    const err = await tests[1]![1]().catch((e: unknown) => e);
    expect(String(err)).toMatch(/send to an unknown peer gave undefined/);
  });
});
