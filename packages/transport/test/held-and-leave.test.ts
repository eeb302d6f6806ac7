import {
  HeldMessagesOverflowError,
  LeaveTimeoutError,
  type Message,
  PeerDepartedError,
  type ProcessId,
  TransportError,
} from '@critsec/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEndpoint, type EndpointOptions, type Link, type RootEndpoint } from '../src/index.js';

/** n in-memory links whose deliveries the test flushes by hand (FIFO per link); `gone(p)` reports P_p closed to everyone. */
function cluster(n: number, options: EndpointOptions = {}) {
  const queue: [ProcessId, ProcessId, string, Message][] = [];
  const receivers: ((from: ProcessId, channel: string, msg: Message) => void)[] = [];
  const goneHooks: ((peer: ProcessId) => void)[] = [];
  const peers = Array.from({ length: n }, (_, i) => i);
  const link = (self: ProcessId): Link => ({
    self,
    peers,
    send(to, channel, msg) {
      queue.push([self, to, channel, msg]);
    },
    setReceiver(fn) {
      receivers[self] = fn;
    },
    setPeerGone(fn) {
      goneHooks[self] = fn;
    },
  });
  const eps: RootEndpoint[] = peers.map((id) => createEndpoint(link(id), options));
  const flush = () => {
    while (queue.length > 0) {
      const [from, to, ch, msg] = queue.shift()!;
      receivers[to]!(from, ch, msg);
    }
  };
  const gone = (p: ProcessId) => {
    for (const [id, hook] of goneHooks.entries()) if (id !== p) hook(p);
  };
  return { eps, flush, gone, queue };
}

const settled = async (p: Promise<unknown>) => {
  let state = 'pending';
  p.then(
    () => {
      state = 'resolved';
    },
    () => {
      state = 'rejected';
    },
  );
  await new Promise((r) => setImmediate(r));
  return state;
};

describe('messages for a channel nobody has listened on yet are held (issue 26)', () => {
  it('hands them over in order on a microtask after the first subscription, later ones behind them', async () => {
    const { eps, flush } = cluster(2);
    const [a, b] = eps as [RootEndpoint, RootEndpoint];
    for (const k of [1, 2, 3]) a.channel('cs').channel('mx').send(1, { type: 'REQUEST', k });
    flush();
    expect(b.held).toBe(3);
    expect(b.undeliverable).toBe(0);
    const got: string[] = [];
    b.channel('cs') // the node is created after the messages arrived
      .channel('mx')
      .onMessage((from, m) => got.push(`${from}:${m.k}`));
    expect(got).toEqual([]); // never inside onMessage (a constructor subscribing is not re-entered)
    a.channel('cs').channel('mx').send(1, { type: 'REQUEST', k: 4 });
    flush(); // arrives before the held ones are handed over: it queues behind them
    expect(got).toEqual([]);
    await Promise.resolve();
    expect(got).toEqual(['0:1', '0:2', '0:3', '0:4']);
    expect(b.held).toBe(0);
    a.channel('cs').channel('mx').send(1, { type: 'REQUEST', k: 5 });
    flush();
    expect(got.at(-1)).toBe('0:5'); // straight through again
  });

  it('past maxHeldMessages, drops the message and throws HeldMessagesOverflowError naming the channel', () => {
    const seen: string[] = [];
    const { eps, flush } = cluster(2, {
      maxHeldMessages: 2,
      onUndeliverable: (u) => seen.push(`${u.channel}:${u.reason}`),
    });
    const [a, b] = eps as [RootEndpoint, RootEndpoint];
    a.channel('x').send(1, { type: 'A' });
    a.channel('y').send(1, { type: 'B' });
    a.channel('x').send(1, { type: 'C' });
    let caught: unknown;
    try {
      flush();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(HeldMessagesOverflowError);
    expect(caught).toBeInstanceOf(TransportError);
    expect((caught as HeldMessagesOverflowError).channel).toBe('x');
    expect((caught as HeldMessagesOverflowError).limit).toBe(2);
    expect((caught as Error).message).toMatch(
      /P0 on channel 'x'.*2 messages are held already.*raise maxHeldMessages/,
    );
    expect(b.held).toBe(2);
    expect(b.undeliverable).toBe(1);
    expect(seen).toEqual(['x:overflow']);
    expect(() => createEndpoint({ ...fakeLink(), self: 0 }, { maxHeldMessages: -1 })).toThrow(TransportError);
  });

  it('a handler that throws on a held message does not stop the others (onHandlerError gets it)', async () => {
    const errors: unknown[] = [];
    const { eps, flush } = cluster(2, { onHandlerError: (e) => errors.push(e) });
    const [a, b] = eps as [RootEndpoint, RootEndpoint];
    a.send(1, { type: 'A' });
    a.send(1, { type: 'B' });
    flush();
    const got: string[] = [];
    b.onMessage((_f, m) => {
      got.push(m.type);
      if (m.type === 'A') throw new Error('boom');
    });
    await Promise.resolve();
    expect(got).toEqual(['A', 'B']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom']);
  });
});

function fakeLink(): Link {
  return { self: 0, peers: [0, 1], send() {}, setReceiver() {} };
}

describe('RootEndpoint.leave: the graceful leave (issue 26)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('announces LEAVING, keeps delivering and sending, and resolves once every peer announced leaving too', async () => {
    const { eps, flush } = cluster(3);
    const [p0, p1, p2] = eps as [RootEndpoint, RootEndpoint, RootEndpoint];
    const served: string[] = [];
    p0.channel('cs').onMessage((from, m) => {
      served.push(`${from}:${m.type}`);
      p0.channel('cs').send(from, { type: 'LOCKED' });
    });
    const replies: string[] = [];
    p1.channel('cs').onMessage((from, m) => replies.push(`${from}:${m.type}`));
    const leaving = p0.leave({ lingerMs: 60_000 });
    flush();
    // P0 is leaving but still an arbiter: P1's REQUEST is answered
    p1.channel('cs').send(0, { type: 'REQUEST' });
    flush();
    expect(served).toEqual(['1:REQUEST']);
    expect(replies).toEqual(['0:LOCKED']);
    expect(await settled(leaving)).toBe('pending');
    const leaving1 = p1.leave({ lingerMs: 60_000 });
    flush();
    expect(await settled(leaving)).toBe('pending'); // P2 has not announced leaving
    const leaving2 = p2.leave({ lingerMs: 60_000 });
    expect(p2.leave()).toBe(leaving2); // idempotent
    flush();
    await Promise.all([leaving, leaving1, leaving2]);
    expect(p0.departures.aborted).toBe(false);
    expect(p0.undeliverable + p1.undeliverable + p2.undeliverable).toBe(0);
  });

  it('after lingerMs rejects with LeaveTimeoutError naming the peers still running and the way out', async () => {
    vi.useFakeTimers();
    const { eps, flush } = cluster(3);
    const [p0, p1] = eps as [RootEndpoint, RootEndpoint];
    const leaving = p0.leave({ lingerMs: 5_000 });
    void p1.leave({ lingerMs: 60_000 });
    flush();
    const outcome = leaving.then(
      () => undefined,
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await Promise.race([outcome, Promise.resolve('pending')])).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const err = await outcome;
    expect(err).toBeInstanceOf(LeaveTimeoutError);
    expect((err as LeaveTimeoutError).waitingFor).toEqual([2]);
    expect((err as LeaveTimeoutError).lingerMs).toBe(5_000);
    expect((err as Error).message).toMatch(
      /P0 left after lingering 5000 ms, but P2 had not announced leaving.*close them too, or leave with a longer lingerMs/,
    );
    await expect(p0.leave({ lingerMs: -1 })).rejects.toThrow(LeaveTimeoutError); // the same leave
    await expect(eps[2]!.leave({ lingerMs: Number.NaN })).rejects.toThrow(/lingerMs must be a number of ms/);
  });

  it('a LEAVING the link refuses (e.g. its unacknowledged bound) does not stop the leave', async () => {
    const receivers: ((from: ProcessId, channel: string, msg: Message) => void)[] = [];
    const ep = createEndpoint({
      self: 0,
      peers: [0, 1, 2],
      send(to) {
        if (to === 1) throw new TransportError('P0 has 10000 unacknowledged messages for P1');
      },
      setReceiver(fn) {
        receivers[0] = fn;
      },
    });
    const leaving = ep.leave({ lingerMs: 60_000 });
    receivers[0]!(1, '/control', { type: 'LEAVING' });
    receivers[0]!(2, '/control', { type: 'LEAVING' });
    receivers[0]!(2, '/control', { type: 'BOGUS' });
    await leaving;
    expect(ep.undeliverable).toBe(1);
    expect(ep.held).toBe(0);
  });

  it('stops waiting for a peer that is gone; a process still running learns the departure on `departures`', async () => {
    const { eps, flush, gone } = cluster(3);
    const [p0, p1, p2] = eps as [RootEndpoint, RootEndpoint, RootEndpoint];
    const leaving1 = p1.leave({ lingerMs: 60_000 });
    flush();
    expect(p2.departures.aborted).toBe(false);
    gone(0); // P0 closed without a graceful leave
    // P2 had not announced leaving: its calls that need P0 must not hang
    expect(p2.departures.aborted).toBe(true);
    expect(p2.departures.reason).toBeInstanceOf(PeerDepartedError);
    expect((p2.departures.reason as PeerDepartedError).peer).toBe(0);
    expect((p2.departures.reason as Error).message).toMatch(/P0 left for good while P2 was still running/);
    expect(p1.departures.aborted).toBe(false); // P1 is leaving: nothing of it waits for P0
    expect(await settled(leaving1)).toBe('pending');
    const leaving2 = p2.leave({ lingerMs: 60_000 });
    flush();
    await Promise.all([leaving1, leaving2]);
    expect(p0.held).toBe(0);
  });
});
