import type { Message } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { SimNetwork } from '../src/index.js';

const msg = (k: number): Message => ({ type: 'M', k });
const kOf = (m: Message) => (m as Message & { k: number }).k;

describe('pause and resume (issue 28)', () => {
  it('a paused process keeps its subscription; its messages wait in order and arrive after the resume', async () => {
    const net = new SimNetwork({ n: 2, trace: true });
    const got: [number, number][] = [];
    net.endpoint(1).onMessage((_f, m) => got.push([kOf(m), net.now]));
    net.endpoint(0).send(1, msg(1));
    await net.run();
    net.setPaused(1, true);
    net.setPaused(1, true); // idempotent
    net.endpoint(0).send(1, msg(2));
    net.endpoint(0).send(1, msg(3));
    net.schedule(10, () => net.setPaused(1, false)); // at 1 + 10
    net.schedule(10, () => net.endpoint(0).send(1, msg(4)));
    await net.run();
    expect(got).toEqual([
      [1, 1],
      [2, 11],
      [3, 11],
      [4, 12],
    ]);
    expect(net.crashCounters()).toMatchObject({ crashes: 0, parked: 2 });
    expect(net.trace.some((l) => l.includes('"pause":1'))).toBe(true);
  });

  it('a crash ends a pause: the messages wait for the restart, the resume delivers nothing', async () => {
    const net = new SimNetwork({ n: 2 });
    net.setPaused(1, true);
    net.endpoint(0).send(1, msg(1));
    await net.run();
    net.crash(1);
    net.setPaused(1, false);
    await net.run();
    expect(net.inFlight).toBe(1);
    const got: number[] = [];
    net.restart(1).onMessage((_f, m) => got.push(kOf(m)));
    await net.run();
    expect(got).toEqual([1]);
  });
});
