import { mutexSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { unitDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { crashRecoverySuite, crashSweep } from '../src/cs.js';
import { centralMutex, durableCentralMutex } from '../src/index.js';

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

  it('short restarts: a durable state never outlives its sends, a crash during a recovery does not wedge the process', async () => {
    // before the fixes: seed 3 deadlocked (a commit made later steps durable and the crash dropped
    // their sends), seed 15 wedged (a recovery that resolved after a second crash let the process
    // call its dead object)
    const r = await crashSweep({
      factory: durableCentralMutex(),
      spec,
      seeds: 30,
      delay: unitDelay,
      crashes: { count: 3, restartAfter: [2, 4] },
    });
    expect(r.failures).toEqual([]);
    expect(r.crashes).toBeGreaterThan(45);
  });

  it('the monitor keeps a crashed InCS process InCS until its recovered object has left', async () => {
    let seen = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const cluster = createCluster({
        factory: durableCentralMutex(),
        spec,
        seed,
        crashes: { count: 3, restartAfter: [2, 4] },
        trace: true,
      });
      const r = await runWorkload(cluster, { rounds: 4 });
      await cluster.close();
      expect(r.ok).toBe(true);
      const lines = cluster.net.trace.map((l) => JSON.parse(l) as Record<string, unknown>);
      const last = new Map<unknown, unknown>();
      for (let i = 0; i < lines.length; i++) {
        const l = lines[i]!;
        if (l.s !== undefined) last.set(l.p, l.s);
        if (l.crash === undefined || last.get(l.crash) !== 'InCS') continue;
        seen++;
        // the next state the monitor follows for that process comes only after its restart
        const restart = lines.findIndex((m, j) => j > i && m.restart === l.crash);
        const next = lines.findIndex((m, j) => j > i && m.p === l.crash && m.s !== undefined);
        expect(restart).toBeGreaterThan(i);
        if (next >= 0) expect(next).toBeGreaterThan(restart);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('crashes are refused for the sequential workload and for objects that are not durable', async () => {
    const cluster = createCluster({ factory: durableCentralMutex(), spec, crashes: { count: 1 } });
    await expect(runWorkload(cluster, { kind: 'sequential' })).rejects.toThrow(/concurrent workload/);
    await cluster.close();
    expect(() => createCluster({ factory: centralMutex(), spec, crashes: { count: 1 } })).toThrow(
      /durable CS objects/,
    );
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
