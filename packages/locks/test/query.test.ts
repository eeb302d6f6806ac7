import { createRng, type ProtocolClock } from '@critsec/core';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { createLockManager, type Lock, type LockMode, type LockSnapshot } from '../src/index.js';
import { HolderCheck, simLocks } from './sim.js';

describe('query(): the cluster-wide snapshot', () => {
  it("agrees with the monitor's view at quiescent points (held) and with the requests still waiting (pending)", async () => {
    const n = 5;
    const k = 2;
    const isShared = (name: string) => name.startsWith('s');
    const { net, managers } = simLocks(n, 7, { shared: isShared, k });
    const check = new HolderCheck(n, { k, shared: isShared, now: () => net.now });
    const rng = createRng(7);
    const names = ['s0', 's1', 'x0', 'x1', 'x2'];
    const releases: (() => void)[] = [];
    const waiting = new Map<string, { name: string; mode: LockMode; holder: number }>();
    let key = 0;
    for (let point = 0; point < 12; point++) {
      // new requests: each holds until released by a later point
      for (let r = 0; r < 3; r++) {
        const id = rng.int(n);
        const name = names[rng.int(names.length)]!;
        const mode: LockMode = isShared(name) && rng.chance(0.6) ? 'shared' : 'exclusive';
        const me = String(key++);
        waiting.set(me, { name, mode, holder: id });
        void managers[id]!.request(name, { mode }, (lock: Lock) => {
          waiting.delete(me);
          check.enter(id, lock);
          return new Promise<void>((resolve) =>
            releases.push(() => {
              check.exit(id, lock);
              resolve();
            }),
          );
        });
      }
      // release some holders
      for (let r = rng.int(3); r > 0 && releases.length > 0; r--)
        releases.splice(rng.int(releases.length), 1)[0]!();
      await net.run(); // quiescent: nothing in flight
      const q = managers[rng.int(n)]!.query();
      await net.run();
      const snapshot = await q;
      const held = snapshot.held.map(({ name, mode, holder }) => ({ name, mode, holder }));
      expect(held, `point ${point}`).toEqual(check.view());
      expect(snapshot.held.every((h) => h.token === undefined)).toBe(true); // no time-bounded grants yet
      const byName = (a: { name: string; holder: number }, b: { name: string; holder: number }) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : a.holder - b.holder;
      expect(
        snapshot.pending.map(({ name, mode, holder }) => ({ name, mode, holder })),
        `point ${point}`,
      ).toEqual([...waiting.values()].sort(byName));
    }
    expect(check.violations).toEqual([]);
    expect(check.grants).toBeGreaterThan(10);
  });
});

describe('query() and ifAvailable beside a member that is gone (the failure detector)', () => {
  /** 3 managers over a network whose detector suspects a crashed member 5 time units after its crash. */
  function withDetector(seed: number) {
    const n = 3;
    const net = new SimNetwork({ n, seed, delay: uniformDelay(1, 3), suspectAfter: 5 });
    const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
    const managers = Array.from({ length: n }, (_, id) =>
      createLockManager({ endpoint: net.endpoint(id), id, n, clock }),
    );
    return { net, managers };
  }

  it('a query out when a member crashes settles once it is suspected, naming it unreachable', async () => {
    const { net, managers } = withDetector(3);
    let held: unknown;
    void managers[1]!.request('a', () => new Promise<void>((r) => (held = r)));
    await net.run();
    expect(held).toBeTypeOf('function');
    net.crash(2); // before the question: its answer never comes
    let snapshot: LockSnapshot | undefined;
    void managers[0]!.query().then((s) => (snapshot = s));
    await net.run();
    expect(snapshot).toEqual({
      held: [{ name: 'a', mode: 'exclusive', holder: 1, token: undefined }],
      pending: [],
      unreachable: [2],
    });
    // asked again once suspected: not asked at all
    const again = managers[0]!.query();
    await net.run();
    await expect(again).resolves.toMatchObject({ unreachable: [2] });
  });

  it('ifAvailable answers null at once when a member of the quorum is suspected (instead of waiting for it)', async () => {
    const { net, managers } = withDetector(4);
    net.crash(2);
    await net.run(); // suspected from now on
    let got: unknown = 'waiting';
    void managers[0]!.request('b', { ifAvailable: true }, (lock) => (got = lock));
    await net.run();
    // majority(3): P0's quorum is {0, 1}; a name whose quorum holds P2 is asked from P1 ({1, 2})
    expect(got).toMatchObject({ name: 'b', mode: 'exclusive' });
    let fromP1: unknown = 'waiting';
    void managers[1]!.request('c', { ifAvailable: true }, (lock) => (fromP1 = lock));
    await net.run();
    expect(fromP1).toBeNull();
  });
});
