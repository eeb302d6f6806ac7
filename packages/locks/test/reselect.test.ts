/**
 * Quorum reselection through the manager (issue 28 §4 over issue 29): a member crash-stopped in
 * the simulator (its failure detector on) — with `reselect` every name keeps granting on the
 * others, without it the names whose requester's quorum holds the member are stuck; the
 * `ifAvailable` probe asks the quorum the entry would ask; reclaimed names rebuild; the options
 * refused (shared names: `test/reselect-shared.test.ts`).
 */
import type { ProtocolClock } from '@critsec/core';
import { majority, uniformHKArbiter } from '@critsec/coteries';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { createLockManager, type LockManagerOptions, LockOptionsError } from '../src/index.js';
import { HolderCheck } from './sim.js';

const N = 5;
const DEAD = 4;
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f'];

/** n managers over a network whose detector suspects a crashed member 2 time units after its crash. */
function cluster(seed: number, options: Partial<LockManagerOptions> = {}, n = N) {
  const net = new SimNetwork({ n, seed, delay: uniformDelay(1, 3), suspectAfter: 2 });
  const clock: ProtocolClock = { now: () => net.now, setTimer: (d, fn) => net.schedule(d, fn) };
  const managers = Array.from({ length: n }, (_, id) =>
    createLockManager({ endpoint: net.endpoint(id), id, n, clock, ...options }),
  );
  return { net, managers };
}

/**
 * Member {@link DEAD} crash-stops while the others take every name `rounds` times (contending);
 * returns which (member, name) request loops did not finish once nothing is left to happen.
 */
async function crashRun(seed: number, options: Partial<LockManagerOptions>, rounds = 2) {
  const { net, managers } = cluster(seed, options);
  const check = new HolderCheck(N, { now: () => net.now });
  const unfinished = new Set<string>();
  const loops = managers.slice(0, DEAD).flatMap((m, id) =>
    NAMES.map(async (name) => {
      unfinished.add(`${id}:${name}`);
      for (let r = 0; r < rounds; r++) {
        await m.request(name, async (lock) => {
          check.enter(id, lock);
          await net.sleep(1);
          check.exit(id, lock);
        });
      }
      unfinished.delete(`${id}:${name}`);
    }),
  );
  net.schedule(3, () => net.crash(DEAD));
  await net.run();
  return { unfinished: [...unfinished].sort(), check, managers, net, loops };
}

describe('createLockManager({ reselect }): a member crash-stopped', () => {
  const quorumHoldsDead = (id: number) => majority(N).quorumOf(id).includes(DEAD);

  it('with reselect every name keeps granting on the others; without, the names asked through its quorum are stuck', async () => {
    const on = await crashRun(11, { reselect: true });
    expect(on.unfinished).toEqual([]);
    expect(on.check.violations).toEqual([]);
    expect(on.check.grants).toBe(DEAD * NAMES.length * 2);

    const off = await crashRun(11, {});
    expect(off.check.violations).toEqual([]);
    expect(off.unfinished.length).toBeGreaterThan(0);
    // every stuck loop is at a member whose quorum holds the dead member (or behind one at a shared arbiter)
    const stuckMembers = new Set(off.unfinished.map((s) => Number(s.split(':')[0])));
    expect([...stuckMembers].some(quorumHoldsDead)).toBe(true);
    for (const id of [0, 1, 2, 3].filter(quorumHoldsDead))
      expect(off.unfinished.filter((s) => s.startsWith(`${id}:`)).length, `P${id}`).toBeGreaterThan(0);
  });

  it('with a ttl too, a name the dead member held comes back to the others within it', async () => {
    for (const ttl of [20, undefined]) {
      const { net, managers } = cluster(13, { reselect: true, ...(ttl === undefined ? {} : { ttl }) });
      let holding = false;
      void managers[DEAD]!.request('a', () => new Promise<void>(() => (holding = true))); // holds 'a' forever
      await net.run({ until: 15 }); // granted; with a ttl it renews until it crashes
      expect(holding).toBe(true);
      net.crash(DEAD);
      const got: number[] = [];
      const others = managers.slice(0, DEAD).map((m, id) => m.request('a', () => void got.push(id)));
      await net.run({ until: 1_000 });
      if (ttl === undefined) expect(got, 'no ttl: the dead holder keeps its locks').toEqual([]);
      else {
        await Promise.all(others);
        expect(got.sort()).toEqual([0, 1, 2, 3]);
      }
    }
  });

  it('names reclaimed after reselection are rebuilt from their kept state and keep granting', async () => {
    const run = await crashRun(12, { reselect: true }, 1);
    expect(run.unfinished).toEqual([]);
    for (const m of run.managers.slice(0, DEAD)) m.reclaimIdle();
    expect(run.managers.slice(0, DEAD).map((m) => m.live)).toEqual([0, 0, 0, 0]);
    const again = run.managers
      .slice(0, DEAD)
      .flatMap((m, id) => NAMES.map((name) => m.request(name, () => `${id}:${name}`)));
    await run.net.run();
    expect((await Promise.all(again)).length).toBe(DEAD * NAMES.length);
  });

  it('ifAvailable asks the quorum the entry would ask: granted with reselect where it answered null without', async () => {
    for (const [reselect, expected] of [
      [true, { name: 'c', mode: 'exclusive' }],
      [false, null],
    ] as const) {
      const { net, managers } = cluster(4, { reselect }, 3);
      net.crash(2);
      await net.run(); // suspected from now on
      let got: unknown = 'waiting';
      // majority(3): P1's quorum is {1, 2}; with reselection the probe and the entry ask {0, 1}
      void managers[1]!.request(
        'c',
        { ifAvailable: true },
        (lock) => (got = lock && { name: lock.name, mode: lock.mode }),
      );
      await net.run();
      expect(got, `reselect ${reselect}`).toEqual(expected);
    }
  });

  it('refuses reselect over a coterie with one quorum, with shared names over an arbiter with one quorum for some h (the default k = n − 1), or not a boolean', () => {
    const net = new SimNetwork({ n: 3 });
    const endpoint = net.endpoint(0);
    const refused = (o: Partial<LockManagerOptions>, n = 3) => {
      const ep = n === 3 ? endpoint : new SimNetwork({ n }).endpoint(0);
      try {
        createLockManager({ endpoint: ep, id: 0, n, ...o });
      } catch (err) {
        expect(err).toBeInstanceOf(LockOptionsError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(o)}`);
    };
    // the default uniformHKArbiter(n, n − 1): its 1-unit quorum is every member
    expect(refused({ reselect: true, shared: ['db'] })).toMatch(
      /uniform \(h,k\)-arbiter k=2 n=3 has a single one for h = 1 \(\{0, 1, 2\}\) with k = 2, n = 3: pass k ≤ n − 2 = 1 .*or an arbiter with alternatives/,
    );
    expect(refused({ reselect: true, shared: () => false, k: 4 }, 5)).toMatch(
      /h = 1 .*k = 4, n = 5: pass k ≤ n − 2 = 3/,
    );
    // an arbiter given: checked at creation too
    expect(refused({ reselect: true, shared: ['db'], k: 2, arbiter: uniformHKArbiter(3, 2) })).toMatch(
      /k=2 n=3 has a single one for h = 1/,
    );
    expect(refused({ reselect: true }, 2)).toMatch(
      /majority n=2.* single one; coteries with alternatives: majority\(n\) and tree\(n\) for n ≥ 3/,
    );
    expect(refused({ reselect: 'on' as never })).toMatch(/reselect must be a boolean/);
    // accepted: an empty shared list, reselect off with shared names, and reselect with shared names and k ≤ n − 2
    for (const [o, n] of [
      [{ reselect: true, shared: [] }, 3],
      [{ reselect: false, shared: ['db'] }, 3],
      [{ reselect: true, shared: ['db'], k: 1 }, 3],
      [{ reselect: true, shared: () => true, k: 3 }, 5],
    ] as const) {
      expect(() =>
        createLockManager({ endpoint: new SimNetwork({ n }).endpoint(0), id: 0, n, ...o }),
      ).not.toThrow();
    }
  });
});
