import type { Message } from '@critsec/core';
import type { SessionFrame } from '@critsec/transport';
import { describe, expect, it } from 'vitest';
import { Arrivals } from '../src/arrival.js';
import { FrameCounters } from '../src/counters.js';
import type { Envelope, FrameEvent, QueuedEvent } from '../src/events.js';
import { FaultyLink } from '../src/faulty-link.js';
import {
  constantDelay,
  type DelayModel,
  exponentialDelay,
  SimNetwork,
  uniformDelay,
  unitDelay,
} from '../src/index.js';
import { createRng } from '@critsec/core';
import { Scheduler } from '../src/scheduler.js';

const arrivals = (delay: DelayModel, fifo: boolean, seed = 5) =>
  new Arrivals({ n: 3, clock: { now: 10 }, rng: createRng(seed), delay, linkDelay: undefined, fifo });

const isSorted = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);

describe('arrival times: delay, then the FIFO clamp', () => {
  it('clamps each (from, to, channel) link behind its last arrival, and only that link', () => {
    const a = arrivals(exponentialDelay(2), true);
    const onA = Array.from({ length: 50 }, () => a.at(0, 1, 'a'));
    const onB = Array.from({ length: 50 }, () => a.at(0, 1, 'b'));
    expect(isSorted(onA)).toBe(true);
    expect(isSorted(onB)).toBe(true);
    // the links are independent: b's first message is not held behind a's last
    expect(onB[0]).toBeLessThan(onA[49]!);
    expect(Math.min(...onA)).toBeGreaterThan(10);
  });

  it('without FIFO, later transmissions overtake earlier ones', () => {
    const times = Array.from({ length: 50 }, () => arrivals(uniformDelay(0, 5), false).at(0, 1, 'a'));
    expect(new Set(times).size).toBe(1); // same seed, fresh generator: the same draw
    const a = arrivals(uniformDelay(0, 5), false);
    expect(isSorted(Array.from({ length: 50 }, () => a.at(0, 1, 'a')))).toBe(false);
  });

  it('a constant delay arrives in send order, on every link, without a clamp', () => {
    const a = arrivals(constantDelay(3), true);
    expect([a.at(0, 1, 'a'), a.at(2, 1), a.at(0, 1, 'a')]).toEqual([13, 13, 13]);
  });
});

describe('the faulty raw link', () => {
  const rawLink = (reorder: boolean, drop = 0, duplicate = 0) => {
    const events: QueuedEvent[] = [];
    const got: number[] = [];
    const scheduler = new Scheduler();
    const counters = new FrameCounters();
    const rng = createRng(11);
    const link = new FaultyLink({
      faults: { drop, duplicate, reorder },
      rng,
      arrivals: new Arrivals({
        n: 2,
        clock: scheduler,
        rng,
        delay: exponentialDelay(1),
        linkDelay: undefined,
        fifo: !reorder,
      }),
      scheduler,
      sink: { enqueue: (ev) => events.push(ev) },
      counters,
      up: { receive: (_from, _to, frame) => got.push(frame.t === 'data' ? frame.seq : -1) },
    });
    const send = link.path(0, 1);
    for (let seq = 1; seq <= 200; seq++)
      send({ t: 'data', seq, p: {} as Envelope } as SessionFrame<Envelope>);
    for (const ev of [...events].sort((x, y) => x.time - y.time || x.seq - y.seq))
      link.arrive(ev as FrameEvent);
    return { got, counters };
  };

  it('lets frames overtake each other unless reorder is false', () => {
    expect(isSorted(rawLink(true).got)).toBe(false);
    const inOrder = rawLink(false).got;
    expect(inOrder).toHaveLength(200);
    expect(isSorted(inOrder)).toBe(true);
  });

  it('loses and doubles frames, and counts them', () => {
    const { got, counters } = rawLink(true, 0.25, 0.25);
    expect(counters.sent).toBe(200);
    expect(counters.dropped).toBeGreaterThan(25);
    expect(counters.duplicated).toBeGreaterThan(20);
    expect(got).toHaveLength(200 - counters.dropped + counters.duplicated);
  });
});

/** Every process forwards what it gets to a random peer until `left` runs out. */
async function gossipTrace(net: SimNetwork): Promise<string[]> {
  const rng = net.rng('g');
  for (let i = 0; i < net.n; i++) {
    const ep = net.endpoint(i);
    ep.onMessage((_from, msg) => {
      const left = (msg as Message & { left: number }).left;
      if (left > 0) ep.send(rng.int(net.n), { type: 'HOP', left: left - 1 });
    });
  }
  for (let i = 0; i < net.n; i++) net.endpoint(i).send(rng.int(net.n), { type: 'HOP', left: 20 });
  await net.run();
  return net.trace;
}

describe('the session layer over a faithful raw link is transparent', () => {
  it('same sends and deliveries, at the same times, as direct links', async () => {
    const direct = await gossipTrace(new SimNetwork({ n: 5, delay: unitDelay, trace: true }));
    const session = await gossipTrace(new SimNetwork({ n: 5, delay: unitDelay, trace: true, faults: {} }));
    expect(session.filter((l) => !l.includes('"retransmit"'))).toEqual(direct);
    expect(direct.length).toBeGreaterThan(200);
  });

  it('asks linkDelay once per frame put on the wire, not per copy', async () => {
    let asked = 0;
    const net = new SimNetwork({
      n: 3,
      seed: 4,
      linkDelay: () => {
        asked++;
        return uniformDelay(0.5, 2);
      },
      faults: { drop: 0.2, duplicate: 1 },
    });
    await gossipTrace(net);
    const f = net.faultCounters();
    expect(f.framesDuplicated).toBe(f.framesSent - f.framesDropped);
    expect(asked).toBe(f.framesSent - f.framesDropped);
  });
});

describe('the delivery policies', () => {
  it('timed: events of one instant happen in the order they were created', async () => {
    const net = new SimNetwork({ n: 2, trace: true });
    const order: string[] = [];
    net.endpoint(1).onMessage((_from, m) => order.push(m.type));
    net.schedule(1, () => order.push('t1'));
    net.endpoint(0).send(1, { type: 'M' });
    net.schedule(1, () => order.push('t2'));
    await net.run();
    expect(order).toEqual(['t1', 'M', 't2']);
  });

  it('controlled: cancelled timers are neither listed nor counted by deliver(index)', async () => {
    const net = new SimNetwork({ n: 2, mode: 'controlled' });
    const fired: string[] = [];
    net.schedule(1, () => fired.push('a'), 'a');
    const cancelB = net.schedule(1, () => fired.push('b'), 'b');
    net.schedule(1, () => fired.push('c'), 'c');
    net.endpoint(0).send(1, { type: 'M' });
    cancelB();
    expect(net.pending().map((p) => (p.kind === 'timer' ? p.label : p.msg.type))).toEqual(['M', 'a', 'c']);
    expect(net.snapshot().timers).toEqual(['a', 'c']);
    await net.deliver(2);
    expect(fired).toEqual(['c']);
    expect(net.now).toBe(1);
    await expect(net.run()).rejects.toThrow(/timed mode/);
    await expect(new SimNetwork({ n: 1 }).deliver(0)).rejects.toThrow(/controlled mode/);
  });
});
