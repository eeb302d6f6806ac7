import { createRng } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import type { Lock, LockMode } from '../src/index.js';
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
