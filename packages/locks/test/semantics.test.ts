import { AbortError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { SimNetwork } from '@critsec/transport-sim';
import type { ProtocolClock } from '@critsec/core';
import { createLockManager, type Lock, LockTimeoutError } from '../src/index.js';
import { HolderCheck, rejection, simLocks } from './sim.js';

describe('request(name, [options,] callback) over the simulator', () => {
  it('runs the callback while held, returns its result, releases on throw; one name excludes, two names do not block each other', async () => {
    const { net, managers } = simLocks(5, 1);
    const check = new HolderCheck(5);
    const log: string[] = [];
    const hold = (id: number, name: string) =>
      managers[id]!.request(name, async (lock) => {
        check.enter(id, lock);
        log.push(`${net.now}:P${id}+${name}`);
        await net.sleep(10);
        check.exit(id, lock);
        return `${name}@P${id}`;
      });
    const a = [0, 1, 2].map((id) => hold(id, 'a'));
    const b = [3, 4].map((id) => hold(id, 'b'));
    const thrown = rejection(
      managers[2]!.request('c', () => {
        throw new Error('boom');
      }),
    );
    await net.run();
    expect(await Promise.all(a)).toEqual(['a@P0', 'a@P1', 'a@P2']);
    expect(await Promise.all(b)).toEqual(['b@P3', 'b@P4']);
    expect(String(await thrown)).toContain('boom');
    expect(check.violations).toEqual([]);
    // 'b' was granted while 'a' was held: the first grants of both happen before the first release
    const firstA = log.find((l) => l.endsWith('+a'))!;
    const firstB = log.find((l) => l.endsWith('+b'))!;
    expect(Number(firstB.split(':')[0])).toBeLessThan(Number(firstA.split(':')[0]) + 10);
    // the throwing callback released 'c': it can be taken again
    const again = managers[4]!.request('c', (l) => l.name);
    await net.run();
    expect(await again).toBe('c');
    const q = managers[0]!.query();
    await net.run();
    expect(await q).toEqual({ held: [], pending: [], unreachable: [] });
  });

  it('shared holders run together (at most k), an exclusive holder alone', async () => {
    const k = 3;
    const { net, managers } = simLocks(5, 2, { shared: ['db'], k });
    const check = new HolderCheck(5, { k, shared: (n) => n === 'db' });
    const runs = managers.flatMap((m, id) =>
      [0, 1].map((r) =>
        m.request('db', { mode: id === 0 && r === 1 ? 'exclusive' : 'shared' }, async (lock: Lock) => {
          check.enter(id, lock);
          await net.sleep(5);
          check.exit(id, lock);
        }),
      ),
    );
    await net.run();
    await Promise.all(runs);
    expect(check.violations).toEqual([]);
    expect(check.grants).toBe(10);
    expect(check.maxShared).toBe(k); // concurrency happened, up to k
  });

  it('ifAvailable: the lock when free, null while it is held or this member already waits', async () => {
    const { net, managers } = simLocks(3, 3);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const first = managers[0]!.request('a', { ifAvailable: true }, async (lock) => {
      expect(lock?.name).toBe('a');
      await held;
      return 'got';
    });
    await net.run();
    const other = managers[1]!.request('a', { ifAvailable: true }, (lock) => lock);
    const same = managers[0]!.request('a', { ifAvailable: true }, (lock) => lock);
    await net.run();
    expect(await other).toBeNull();
    expect(await same).toBeNull();
    release();
    expect(await first).toBe('got');
    await net.run();
    const later = managers[1]!.request('a', { ifAvailable: true }, (lock) => lock?.mode ?? null);
    await net.run();
    expect(await later).toBe('exclusive');
  });

  it('abort and timeout withdraw a waiting request and leave nothing held or queued anywhere', async () => {
    const { net, managers } = simLocks(5, 4, { shared: ['s'], k: 2 });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const holder = managers[0]!.request('x', () => held);
    const holderS = managers[0]!.request('s', () => held);
    await net.run();
    const ac = new AbortController();
    const aborted = rejection(managers[1]!.request('x', { signal: ac.signal }, () => 'no'));
    const timedOut = rejection(managers[2]!.request('x', { timeout: 20 }, () => 'no'));
    const timedOutS = rejection(managers[3]!.request('s', { timeout: 15 }, () => 'no'));
    const queuedLocally = rejection(managers[0]!.request('x', { timeout: 5 }, () => 'no'));
    net.schedule(7, () => ac.abort());
    await net.run();
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(await timedOut).toBeInstanceOf(LockTimeoutError);
    expect(await timedOutS).toBeInstanceOf(LockTimeoutError);
    expect(await queuedLocally).toBeInstanceOf(LockTimeoutError);
    release();
    await holder;
    await holderS;
    await net.run();
    for (const m of managers) expect(m.reclaimIdle()).toBeGreaterThanOrEqual(0);
    for (const m of managers) expect(m.live).toBe(0); // every instance idle: nothing held or queued
    const q = managers[4]!.query();
    await net.run();
    expect(await q).toEqual({ held: [], pending: [], unreachable: [] });
    // and the names still work
    const after = [1, 2, 3].map((id) => managers[id]!.request(id === 3 ? 's' : 'x', () => id));
    await net.run();
    expect(await Promise.all(after)).toEqual([1, 2, 3]);
  });

  it('a member whose manager is created after the first messages for a name arrived serves them', async () => {
    const net = new SimNetwork({ n: 3, seed: 1 });
    const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
    const make = (id: number) => createLockManager({ endpoint: net.endpoint(id), id, n: 3, clock });
    const p1 = make(1);
    const got = p1.request('a', () => 'granted'); // majority(3): Q_1 = {1, 2}; P2 has no manager yet
    await net.run();
    expect(net.endpoint(2).held).toBeGreaterThan(0);
    make(0);
    make(2); // P2's manager offers the held REQUEST's channel to its hook: the instance is built
    let result: string | undefined;
    void got.then((r) => {
      result = r;
    });
    await net.run();
    await Promise.resolve();
    expect(result).toBe('granted'); // (before the fix, the REQUEST stayed held and P1 waited forever)
  });
});
