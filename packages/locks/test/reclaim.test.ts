import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CSFactory, Endpoint } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { Instances } from '../src/instances.js';
import { simLocks } from './sim.js';

describe('idle names are reclaimed without losing state another member relies on', () => {
  it('an instance whose arbiter holds a grant for another member is kept; exclusion holds across reclaims', async () => {
    const { net, managers } = simLocks(5, 3);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const log: string[] = [];
    const first = managers[0]!.request('a', async () => {
      log.push('P0 in');
      await held;
      log.push('P0 out');
    });
    await net.run();
    const reclaimed = managers.map((m) => m.reclaimIdle());
    // P0 holds; its quorum's arbiters (majority: 3 of 5) granted it: not idle, kept live (the
    // other members never heard of 'a': no instance at all)
    expect(reclaimed).toEqual([0, 0, 0, 0, 0]);
    const quorum = majority(5).quorumOf(0);
    expect(managers.map((m) => m.live)).toEqual(
      managers.map((_, id) => (id === 0 || quorum.includes(id) ? 1 : 0)),
    );
    const second = managers[4]!.request('a', () => log.push('P4 in'));
    await net.run();
    expect(log).toEqual(['P0 in']); // P4 waits: the grants survived the reclaim attempt
    release();
    await first;
    await net.run();
    await second;
    expect(log).toEqual(['P0 in', 'P0 out', 'P4 in']);
    for (const m of managers) m.reclaimIdle();
    expect(managers.map((m) => m.live)).toEqual([0, 0, 0, 0, 0]);
    // rebuilt on demand, from the kept state, everywhere
    const third = managers[2]!.request('a', () => 'again');
    await net.run();
    expect(await third).toBe('again');
  });

  it('a rebuilt instance resumes from the kept durable state exactly (clocks, tags, done(p))', async () => {
    const n = 3;
    const net = new SimNetwork({ n, seed: 1 });
    const factory = maekawa({ coterie: majority(n) }) as CSFactory<unknown>;
    const sets = net.endpoints().map(
      (ep, id) =>
        new Instances({
          endpoint: (ep as Endpoint).channel('locks'),
          id,
          n,
          factories: { x: factory, s: factory },
          kindOf: () => 'x',
          onSend: () => {},
          onError: (e) => {
            throw e;
          },
          inUse: () => false,
        }),
    );
    for (let id = 0; id < n; id++)
      net.endpoint(id).onUnopened('locks', (rest, from) => sets[id]!.unopened(rest, from));
    for (let round = 0; round < 3; round++) {
      for (const id of [0, 1, 2]) {
        const cs = sets[id]!.get('x', 'a').cs;
        const p = cs.entry({});
        await net.run();
        await p;
        await cs.exit();
        await net.run();
      }
    }
    const before = sets.map((s) => JSON.stringify(s.get('x', 'a').cs.durableState()));
    expect(JSON.parse(before[0]!).sn).toBeGreaterThan(0);
    expect(sets.map((s) => s.reclaimIdle())).toEqual([['x:a'], ['x:a'], ['x:a']]);
    expect(sets.map((s) => s.kept.get('x:a'))).toEqual(before);
    // a message for the reclaimed name rebuilds P1's and P2's instances from what they kept
    const cs0 = sets[0]!.get('x', 'a').cs;
    expect(JSON.stringify(cs0.durableState())).toBe(before[0]);
    const p = cs0.entry({});
    await net.run();
    await p;
    const after = sets.map(
      (s) => s.live.get('x:a')?.cs.durableState() as { sn: number; arbiter: { done: unknown[] } },
    );
    for (const [id, d] of after.entries()) {
      if (d === undefined) continue; // not in P0's quorum
      expect(d.sn, `P${id}`).toBeGreaterThan(JSON.parse(before[id]!).sn); // the clock went on, not from 0
      expect(d.arbiter.done.length, `P${id}`).toBeGreaterThanOrEqual(
        JSON.parse(before[id]!).arbiter.done.length,
      );
    }
    await cs0.exit();
  });

  it('past maxLiveNames, idle instances are reclaimed as new ones are built; memory per idle name measured', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const NAMES = 2_000;
    const { net, managers } = simLocks(3, 5, { maxLiveNames: 16 });
    const warm = managers[0]!.request('warm', () => 0);
    await net.run();
    await warm;
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    for (let i = 0; i < NAMES; i += 100) {
      const batch = Array.from({ length: 100 }, (_, j) =>
        managers[(i + j) % 3]!.request(`name-${i + j}`, () => 1),
      );
      await net.run();
      await Promise.all(batch);
      expect(Math.max(...managers.map((m) => m.live))).toBeLessThanOrEqual(16 + 100);
    }
    for (const m of managers) m.reclaimIdle();
    gc();
    const heap1 = process.memoryUsage().heapUsed;
    expect(managers.map((m) => m.live)).toEqual([0, 0, 0]);
    const kept = managers.reduce((s, m) => s + m.kept, 0);
    expect(kept).toBeGreaterThanOrEqual(NAMES * 2); // each name: its requester and its majority quorum of 2 (of 3)
    const perName = (heap1 - heap0) / kept;
    console.log(`memory per idle name and member: ${perName.toFixed(0)} bytes (${kept} kept states, n = 3)`);
    expect(perName).toBeLessThan(2_048);
  });

  it("every instance gets the membership's failure detector (the root endpoint's suspicions) in its context", () => {
    const net = new SimNetwork({ n: 3, seed: 1 });
    const seen: unknown[] = [];
    const inner = maekawa({ coterie: majority(3) }) as CSFactory<unknown>;
    const spy: CSFactory<unknown> = (ctx) => {
      seen.push(ctx.suspicions);
      return inner(ctx);
    };
    const root = net.endpoint(0);
    const set = new Instances({
      endpoint: root.channel('locks'),
      id: 0,
      n: 3,
      factories: { x: spy, s: spy },
      kindOf: () => 'x',
      onSend: () => {},
      onError: () => {},
      inUse: () => false,
      suspicions: root.suspicions,
    });
    set.get('x', 'a');
    expect(seen).toEqual([root.suspicions]);
    expect(root.suspicions).toBeDefined();
  });
});
