import type { Message } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { SimNetwork, uniformDelay } from '../src/index.js';

const msg = (k: number): Message => ({ type: 'M', k });
const kOf = (m: Message) => (m as Message & { k: number }).k;

describe('crash and restart', () => {
  it('a crashed process receives nothing; its link waits in order; the restart delivers it in order', async () => {
    const net = new SimNetwork({ n: 2, trace: true });
    const got: number[] = [];
    net.endpoint(1).onMessage((_f, m) => got.push(kOf(m)));
    net.endpoint(0).send(1, msg(1));
    await net.run();
    net.crash(1);
    for (let k = 2; k <= 4; k++) net.endpoint(0).send(1, msg(k));
    await net.run();
    expect(got).toEqual([1]);
    expect(net.inFlight).toBe(3);
    const fresh = net.restart(1);
    const again: number[] = [];
    fresh.onMessage((_f, m) => again.push(kOf(m)));
    net.endpoint(0).send(1, msg(5)); // arrives after the waiting ones
    await net.run();
    expect(again).toEqual([2, 3, 4, 5]);
    expect(got).toEqual([1]); // the old subscription is gone
    expect(net.inFlight).toBe(0);
    expect(net.crashCounters()).toMatchObject({ crashes: 1, restarts: 1, parked: 3, redelivered: 0 });
    expect(net.trace.some((l) => l.includes('"crash":1'))).toBe(true);
  });

  it("a crashed incarnation's sends are dropped, also after the restart", async () => {
    const net = new SimNetwork({ n: 2 });
    const got: number[] = [];
    net.endpoint(0).onMessage((_f, m) => got.push(kOf(m)));
    const old = net.endpoint(1);
    net.crash(1);
    old.send(0, msg(1));
    const fresh = net.restart(1);
    old.send(0, msg(2));
    fresh.send(0, msg(3));
    await net.run();
    expect(got).toEqual([3]);
    expect(net.crashCounters().droppedSends).toBe(2);
    expect(net.endpoint(1)).toBe(fresh);
  });

  it('acknowledge after commit: a message handed over but not acknowledged is delivered again after the crash', async () => {
    const net = new SimNetwork({ n: 2, delay: uniformDelay(0.5, 2), seed: 7 });
    net.ackAfterCommit(1);
    const got: number[] = [];
    net.endpoint(1).onMessage((_f, m) => got.push(kOf(m)));
    for (let k = 1; k <= 4; k++) net.endpoint(0).send(1, msg(k));
    await net.run();
    expect(got).toEqual([1, 2, 3, 4]);
    expect(net.handedOver(1)).toBe(4);
    net.acknowledge(1, 2); // the commit covered the steps of messages 1 and 2 only
    net.crash(1);
    expect(net.inFlight).toBe(2);
    net.endpoint(0).send(1, msg(5));
    const again: number[] = [];
    net.restart(1).onMessage((_f, m) => again.push(kOf(m)));
    await net.run();
    expect(again).toEqual([3, 4, 5]);
    expect(net.crashCounters().redelivered).toBe(2);
    expect(net.counters().delivered).toBe(net.counters().sent);
  });

  it('restart refuses a process that is up; crash refuses one that is down', () => {
    const net = new SimNetwork({ n: 2 });
    expect(() => net.restart(0)).toThrow(/not crashed/);
    net.crash(0);
    expect(() => net.crash(0)).toThrow(/already crashed/);
    expect(() => net.crash(5)).toThrow(/no process 5/);
  });

  it('a run without crashes is traced exactly as before (no note, no timer)', async () => {
    const net = new SimNetwork({ n: 3, trace: true });
    net.endpoint(1).onMessage(() => {});
    net.endpoint(0).send(1, msg(1));
    await net.run();
    expect(net.trace.join('\n')).not.toMatch(/crash|restart/);
  });
});
