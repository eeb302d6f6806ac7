/**
 * Quorum reselection for shared names (h-out-of-k's `reselect` through the manager, issue 28 §4):
 * a member crash-stopped in the simulator (its failure detector on) — with `reselect` shared names
 * keep granting shared and exclusive holders on the others, without it the loops whose quorums
 * hold the dead member are stuck; the `ifAvailable` probe asks the quorum the entry would ask;
 * reclaimed names rebuild; the default k = n − 1 refused.
 */
import type { ProtocolClock } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { createLockManager, type LockManagerOptions, type LockMode } from '../src/index.js';
import { HolderCheck } from './sim.js';

const N = 5;
/** k ≤ n − 2: the uniform (h,k)-arbiter has another quorum for every h (h = 1: 4 of 5, h = 3: 3 of 5). */
const K = 3;
const DEAD = 4;
const NAMES = ['a', 'b', 'c'];
const isShared = () => true;

/** n managers, every name shared, over a network whose detector suspects a crashed member 2 time units after its crash. */
function cluster(seed: number, options: Partial<LockManagerOptions>) {
  const net = new SimNetwork({ n: N, seed, delay: uniformDelay(1, 3), suspectAfter: 2 });
  const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
  const managers = Array.from({ length: N }, (_, id) =>
    createLockManager({ endpoint: net.endpoint(id), id, n: N, clock, k: K, shared: NAMES, ...options }),
  );
  return { net, managers };
}

/**
 * Member {@link DEAD} crash-stops at time 3 while the others take every name `rounds` times,
 * contending, shared then exclusive (member 3 the other way round); returns the (member, name) loops that did not finish
 * once nothing is left to happen.
 */
async function crashRun(seed: number, options: Partial<LockManagerOptions>, rounds = 2) {
  const { net, managers } = cluster(seed, options);
  const check = new HolderCheck(N, { k: K, shared: isShared, now: () => net.now });
  const unfinished = new Set<string>();
  const modes = new Map<LockMode, number>([
    ['shared', 0],
    ['exclusive', 0],
  ]);
  for (const [id, m] of managers.slice(0, DEAD).entries()) {
    for (const name of NAMES) {
      unfinished.add(`${id}:${name}`);
      void (async () => {
        for (let r = 0; r < rounds; r++) {
          const mode: LockMode = (r + (id === 3 ? 1 : 0)) % 2 === 0 ? 'shared' : 'exclusive';
          await m.request(name, { mode }, async (lock) => {
            check.enter(id, lock);
            modes.set(mode, modes.get(mode)! + 1);
            await net.sleep(1);
            check.exit(id, lock);
          });
        }
        unfinished.delete(`${id}:${name}`);
      })();
    }
  }
  net.schedule(3, () => net.crash(DEAD));
  await net.run();
  return { unfinished: [...unfinished].sort(), check, modes, managers, net };
}

describe('createLockManager({ reselect, shared }): a member crash-stopped', () => {
  it('with reselect shared names keep granting shared and exclusive holders; without, the loops asked through its quorums are stuck', async () => {
    const on = await crashRun(21, { reselect: true });
    expect(on.unfinished).toEqual([]);
    expect(on.check.violations).toEqual([]);
    expect(on.check.grants).toBe(DEAD * NAMES.length * 2);
    expect([...on.modes.values()]).toEqual([12, 12]);
    expect(on.check.maxShared).toBeGreaterThanOrEqual(2);

    const off = await crashRun(21, {});
    expect(off.check.violations).toEqual([]);
    expect(off.unfinished.length).toBeGreaterThan(0);
  });

  it('names reclaimed after reselection are rebuilt from their kept state and keep granting', async () => {
    const run = await crashRun(22, { reselect: true }, 1);
    expect(run.unfinished).toEqual([]);
    const live = run.managers.slice(0, DEAD);
    for (const m of live) m.reclaimIdle();
    expect(live.map((m) => m.live)).toEqual([0, 0, 0, 0]);
    const again = live.flatMap((m, id) =>
      NAMES.map((name) =>
        m.request(name, { mode: id % 2 === 0 ? 'exclusive' : 'shared' }, (lock) => `${id}:${lock.mode}`),
      ),
    );
    await run.net.run();
    expect((await Promise.all(again)).length).toBe(DEAD * NAMES.length);
    expect(run.check.violations).toEqual([]);
  });

  it('ifAvailable asks the quorum the entry would ask: granted with reselect where it answered null without', async () => {
    const arbiter = uniformHKArbiter(N, K);
    expect([1, K].map((h) => arbiter.quorumOf(0, h).length)).toEqual([4, 3]); // the README's sizes
    // a member whose fixed quorums for 1 unit and for k units both hold the dead member
    const id = [0, 1, 2, 3].find(
      (i) => arbiter.quorumOf(i, 1).includes(DEAD) && arbiter.quorumOf(i, K).includes(DEAD),
    )!;
    expect(id).toBeDefined();
    for (const reselect of [true, false]) {
      const { net, managers } = cluster(4, { reselect });
      net.crash(DEAD);
      await net.run(); // suspected from now on
      const got: unknown[] = [];
      for (const mode of ['shared', 'exclusive'] as const) {
        void managers[id]!.request('a', { mode, ifAvailable: true }, (lock) =>
          got.push(lock === null ? null : lock.mode),
        );
        await net.run();
      }
      expect(got, `reselect ${reselect}`).toEqual(reselect ? ['shared', 'exclusive'] : [null, null]);
    }
  });
});
