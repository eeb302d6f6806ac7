import { type CSFactory, type CSObject, mutexSpec, type ProtocolClock } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../src/index.js';

/** A do-nothing CS object that keeps its context's clock. */
function recordingFactory(clocks: ProtocolClock[]): CSFactory {
  return (ctx) => {
    clocks[ctx.id] = ctx.clock!;
    return {
      id: ctx.id,
      state: 'OutCS',
      pending: null,
      takesRequest: false,
      on: () => () => {},
      close: async () => {},
    } as unknown as CSObject;
  };
}

describe('process clocks and pauses (issue 28 §1)', () => {
  it('every process gets the virtual clock; a paused process’s timers fire at the resume, in order; others on time', async () => {
    const clocks: ProtocolClock[] = [];
    const c = createCluster({ factory: recordingFactory(clocks), spec: mutexSpec(2) });
    const fired: [string, number][] = [];
    clocks[0]!.setTimer(3, () => fired.push(['a', clocks[0]!.now()]));
    clocks[0]!.setTimer(5, () => fired.push(['b', clocks[0]!.now()]));
    const cancelled = clocks[0]!.setTimer(4, () => fired.push(['never', clocks[0]!.now()]));
    clocks[1]!.setTimer(3, () => fired.push(['other', clocks[1]!.now()]));
    expect(c.clocks.pause(0, 10)).toBe(true);
    expect(c.clocks.pause(0, 10)).toBe(false); // already paused
    cancelled();
    await c.net.run();
    expect(fired).toEqual([
      ['other', 3],
      ['a', 10],
      ['b', 10],
    ]);
    expect(c.clocks.stats).toEqual({ pauses: 1, lateTimers: 2 });
    await c.close();
  });

  it('seeded pauses are drawn from the seed; a crash drops the crashed incarnation’s timers', async () => {
    const clocks: ProtocolClock[] = [];
    const c = createCluster({
      factory: recordingFactory(clocks),
      spec: mutexSpec(3),
      seed: 5,
      pauses: { count: 4, duration: [1, 2], window: 10 },
    });
    let fired = 0;
    clocks[2]!.setTimer(50, () => fired++);
    c.clocks.crashed(2);
    await c.net.run();
    expect(fired).toBe(0);
    expect(c.clocks.stats.pauses).toBeGreaterThan(0);
    expect(() =>
      createCluster({
        factory: recordingFactory([]),
        spec: mutexSpec(2),
        pauses: { count: -1, duration: [1, 2] },
      }),
    ).toThrow(/pauses.count/);
    await c.close();
  });
});
