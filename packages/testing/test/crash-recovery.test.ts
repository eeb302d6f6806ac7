import { mutexSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { crashRecoverySuite, crashSweep } from '../src/cs.js';
import { durableCentralMutex } from '../src/index.js';

const spec = mutexSpec(5);

describe('crash mode of the compliance suite, on the durable central mutex', () => {
  crashRecoverySuite({
    it,
    name: 'durable central mutex (n = 5)',
    factory: durableCentralMutex(),
    spec,
    seeds: 40,
  });

  it('crashes losing unsynced writes do lose writes, drop held sends and redeliver unacknowledged messages', async () => {
    const r = await crashSweep({
      factory: durableCentralMutex(),
      spec,
      seeds: 40,
      crashes: { count: 3, loseUnsynced: true },
    });
    expect(r.failures).toEqual([]);
    expect(r.crashes).toBeGreaterThan(60);
    expect(r.lostWrites).toBeGreaterThan(0);
    expect(r.droppedSends).toBeGreaterThan(0);
    expect(r.redelivered).toBeGreaterThan(0);
    expect(r.cutCalls).toBeGreaterThan(0);
  });

  it('crashes once synced lose nothing', async () => {
    const r = await crashSweep({
      factory: durableCentralMutex(),
      spec,
      seeds: 40,
      crashes: { count: 3, loseUnsynced: false },
    });
    expect(r.failures).toEqual([]);
    expect(r.crashes).toBeGreaterThan(60);
    expect(r.lostWrites).toBe(0);
    expect(r.droppedSends).toBe(0);
  });

  it("catches a coordinator that forgets the grant's holder (violation or stuck)", async () => {
    const r = await crashSweep({
      factory: durableCentralMutex({ forget: 'grantedTo' }),
      spec,
      seeds: 40,
      hold: 4, // the holder is still InCS when the coordinator is back
      crashes: { count: 3, loseUnsynced: false, restartAfter: [0, 1] },
    });
    expect(r.violations + r.stuck).toBeGreaterThan(0);
  });

  it('catches a requester that forgets its waiting request (violation or stuck)', async () => {
    const r = await crashSweep({
      factory: durableCentralMutex({ forget: 'waiting' }),
      spec,
      seeds: 40,
      crashes: { count: 3, loseUnsynced: true },
    });
    expect(r.violations + r.stuck).toBeGreaterThan(0);
  });

  it('a run with crashes replays exactly from its seed', async () => {
    const run = async () => {
      const cluster = createCluster({
        factory: durableCentralMutex(),
        spec,
        seed: 9,
        crashes: { count: 3 },
        trace: true,
      });
      const r = await runWorkload(cluster, { rounds: 4 });
      await cluster.close();
      return { trace: cluster.net.trace.join('\n'), crashes: r.crashes };
    };
    const a = await run();
    expect(a.crashes?.crashes).toBeGreaterThan(0);
    expect(await run()).toEqual(a);
  });
});
