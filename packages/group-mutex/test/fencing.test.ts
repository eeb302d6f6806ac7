/**
 * Fencing tokens and time-bounded grants of Maekawa_M (issue 28 §1–3): the issue's counterexample
 * (counters 5, 9, 5) across two groups, tokens shared within a group, the message cost, the
 * durable `hs`, the options' checks, and the seeded runs with crash-stop, pauses past the ttl and
 * partitions — with the same faults leaving processes stuck without a ttl, and a store that
 * ignores tokens caught with interleaved effects.
 */
import { ConfigurationError, type CSFactory, groupSpec, hasTenure, TenureExpiredError } from '@critsec/core';
import { fromQuorums, groupFromCoterie, surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { crashSweep } from '@critsec/testing/cs';
import { describe, expect, it } from 'vitest';
import { groupMutex, groupMutexDescriptor, type MaekawaMDurableState } from '../src/index.js';
import { fencedBatch } from './fenced-seeds.js';

/**
 * T_2 of the majorities over the nodes {a, b, c} = {1, 2, 3}; P0 is no node (a paused P0 pauses
 * no node): Q_0 = {a, b}, Q_1 = {a, c}, Q_2 = {b, c}, Q_3 = {a, b}, for both groups.
 */
const abc = groupFromCoterie(
  fromQuorums(4, [
    [1, 2],
    [1, 3],
    [2, 3],
    [1, 2],
  ]),
  2,
);

type Durable = { durableState(): MaekawaMDurableState; close(): Promise<void> };

/** Maekawa_M over `abc` whose nodes start with highest tokens seen `hs` (as recovered from a store). */
function withHighestTokens(hs: readonly number[], ttl: number): CSFactory<number> {
  const inner = groupMutex({ system: abc, variant: 'M', assignment: 'system', ttl });
  return (ctx) => {
    const fresh = inner(ctx) as unknown as Durable;
    const s = fresh.durableState();
    void fresh.close();
    return inner({ ...ctx, recovered: { ...s, node: { ...s.node, hs: hs[ctx.id]! } } });
  };
}

const tokenOf = (c: SimCluster<number>, i: number): number => {
  const cs = c.objects[i]!;
  return (hasTenure(cs) ? cs.tenure()?.token : undefined) ?? -1;
};

describe('fencing tokens of Maekawa_M (issue 28 §2)', () => {
  it('counters 5, 9, 5: group 0 gets 10 through {a, b}; once its lock expires, group 1 gets 11 through {a, c} (the max of counters would give 7)', async () => {
    const c = createCluster({ factory: withHighestTokens([0, 5, 9, 5], 10), spec: groupSpec(2, 4) });
    c.monitor.change = () => null; // P0 outlives its grant: exclusion of the code is not promised
    const [p0, p1] = [c.objects[0]!, c.objects[1]!];
    const tokens: number[] = [];
    const first = p0.entry(0).then(() => {
      tokens.push(tokenOf(c, 0));
      c.clocks.pause(0, 100); // P0 stops InCS (SIGSTOP) past its TTL: no renewal, no UNLOCK
      return hasTenure(p0) ? p0.tenure()! : undefined;
    });
    await c.net.run({ until: 5 });
    const second = p1.entry(1).then(() => {
      tokens.push(tokenOf(c, 1));
      return p1.exit();
    });
    await c.net.run({ until: 60 });
    expect(tokens).toEqual([10, 11]);
    await second;
    const t0 = (await first)!;
    await c.net.run({ until: 200 }); // P0 wakes: its tenure expired
    expect(t0.remaining()).toBeLessThanOrEqual(0);
    expect(t0.signal.reason).toBeInstanceOf(TenureExpiredError);
    expect(() => t0.check()).toThrow(TenureExpiredError);
    await p0.exit();
    await c.net.run();
    expect(c.net.inFlight).toBe(0);
    await c.close();
  });

  it('holders of one group may share a token: P0 and P3 (group 0, both through {a, b}) both get 10', async () => {
    const c = createCluster({ factory: withHighestTokens([0, 5, 9, 5], 10), spec: groupSpec(2, 4) });
    const entered = Promise.all([c.objects[0]!.entry(0), c.objects[3]!.entry(0)]);
    await c.net.run({ until: 8 });
    await entered;
    expect([tokenOf(c, 0), tokenOf(c, 3)]).toEqual([10, 10]);
    await Promise.all([c.objects[0]!.exit(), c.objects[3]!.exit()]);
    await c.net.run();
    await c.close();
  });

  it('the token is durable, and costs one more round trip: 5c messages per uncontended entry instead of 3c', async () => {
    const run = async (fencing: boolean) => {
      const system = surficial(9, 2);
      const c = createCluster({
        factory: groupMutex({ system, variant: 'M', fencing }),
        spec: groupSpec(2, 9),
      });
      const tokens: number[] = [];
      for (let k = 0; k < 4; k++) {
        const entered = c.objects[k]!.entry(k % 2);
        await c.net.run();
        await entered;
        tokens.push(tokenOf(c, k));
        await c.objects[k]!.exit();
        await c.net.run();
      }
      const { sent, byType } = c.net.counters();
      const hs = c.objects.map((o) => (o as unknown as Durable).durableState().node.hs);
      await c.close();
      return { perEntry: sent / 4, byType, tokens, hs };
    };
    const plain = await run(false);
    const fenced = await run(true);
    expect(plain.perEntry).toBe(3 * 3); // c = 3 on the 3×3 grid
    expect(plain.tokens).toEqual([-1, -1, -1, -1]); // no tenure without fencing
    expect(plain.hs.every((h) => h === undefined)).toBe(true); // the durable state is as before
    expect(fenced.perEntry).toBe(5 * 3);
    expect(fenced.byType).toMatchObject({ ' CONFIRM': 12, ' CONFIRMED': 12, ' FENCE_LOCKED': 12 });
    expect(fenced.tokens).toEqual([1, 2, 3, 4]); // a row, a column, a row, a column: each meets the last
    expect(Math.max(...fenced.hs.map((h) => h ?? 0))).toBe(4);
  });

  it('stays ordered across crashes that lose unsynced writes: 20 seeds, 3 crashes each, every entry’s token above every earlier entry’s of another group', async () => {
    const system = surficial(4, 2);
    const inner = groupMutex({ system, variant: 'M', fencing: true });
    let highest = [0, 0]; // per group, the highest token an entry got
    const bad: string[] = [];
    const factory: CSFactory<number> = (ctx) => {
      if (ctx.id === 0 && ctx.recovered === undefined) highest = [0, 0]; // a new seed's cluster
      const cs = inner(ctx);
      let group = -1;
      const entry = cs.entry.bind(cs);
      cs.entry = (g, opts) => {
        group = g;
        return entry(g, opts);
      };
      cs.on('statechange', (state) => {
        const token = state === 'InCS' && hasTenure(cs) ? cs.tenure()?.token : undefined;
        if (token === undefined || group < 0) return; // recovered InCS: no tenure, it exits
        const other = highest[1 - group]!;
        if (token <= other) bad.push(`P${ctx.id} (group ${group}) entered with ${token} after ${other}`);
        highest[group] = Math.max(highest[group]!, token);
      });
      return cs;
    };
    const r = await crashSweep({
      factory,
      spec: groupSpec(2, 4),
      request: (rng) => rng.int(2),
      seeds: 20,
      crashes: { count: 3, loseUnsynced: true },
    });
    expect({ violations: r.violations, stuck: r.stuck, failures: r.failures, bad }).toEqual({
      violations: 0,
      stuck: 0,
      failures: [],
      bad: [],
    });
    expect(r.lostWrites).toBeGreaterThan(0);
  });

  it('refuses a ttl without a clock, fencing or a ttl with Maekawa_S, and bad ttl / margin values', () => {
    const system = surficial(4, 2);
    const ctx = {
      id: 0,
      n: 4,
      endpoint: {} as never,
      initial: ['OutCS', 'OutCS', 'OutCS', 'OutCS'] as const,
    };
    expect(() => groupMutex({ system, variant: 'M', ttl: 5 })(ctx)).toThrow(/needs a clock/);
    expect(() => groupMutex({ system, variant: 'S', ttl: 5 })).toThrow(/variant 'M'/);
    expect(() => groupMutex({ system, variant: 'S', fencing: true })).toThrow(/variant 'M'/);
    for (const bad of [
      { ttl: 0 },
      { ttl: Number.NaN },
      { ttl: 5, driftMargin: 5 },
      { ttl: 5, driftMargin: -1 },
      { driftMargin: 1 },
      { ttl: 5, fencing: false },
    ])
      expect(() => groupMutex({ system, variant: 'M', ...bad })).toThrow(ConfigurationError);
  });
});

describe('the descriptor’s fencing, ttl and driftMargin (critsec simulate group-mutex --ttl 20)', () => {
  const ctx = { weigh: () => {}, readJson: () => null, isFile: () => false } as never;

  it('builds Maekawa_M with tenures from the parameters, and names them in its options', async () => {
    const built = groupMutexDescriptor.build({ ttl: '20', driftMargin: 1 }, 9, ctx);
    expect(built.options).toEqual({ m: 2, variant: 'M', system: 'surficial', ttl: 20, driftMargin: 1 });
    const c = createCluster({ factory: built.factory as CSFactory<number>, spec: groupSpec(2, 9) });
    const p = c.objects[4]!;
    const entered = p.entry(0).then(() => [c.net.now, hasTenure(p) ? p.tenure()!.remaining() : 0]);
    await c.net.run({ until: 10 });
    // REQUEST at 0, FENCE_LOCKED by 2, CONFIRM sent at 2, CONFIRMED by 4: deadline 2 + 20 − 1
    expect(await entered).toEqual([4, 2 + 20 - 1 - 4]);
    await p.exit();
    await c.net.run();
    await c.close();
    expect(groupMutexDescriptor.build({ fencing: 'true' }, 9, ctx).options).toMatchObject({
      fencing: 'true',
    });
  });

  it('refuses a fencing value that is not true or false, a negative ttl, and a ttl with variant S', () => {
    expect(() => groupMutexDescriptor.build({ fencing: 'yes' }, 9, ctx)).toThrow(
      /--fencing must be true or false/,
    );
    expect(() => groupMutexDescriptor.build({ ttl: -1 }, 9, ctx)).toThrow(ConfigurationError);
    expect(() => groupMutexDescriptor.build({ ttl: 5, variant: 'S' }, 9, ctx)).toThrow(/variant 'M'/);
  });
});

describe('time-bounded grants of Maekawa_M: crash-stop, pauses past the ttl, partitions (issue 28 §1, §3)', () => {
  it('40 seeds: 0 interleaved effects at a fencing store, 0 fencing violations, 0 stuck while the quorum is alive', async () => {
    const t = await fencedBatch(1, 40);
    expect({ interleavings: t.interleavings, violations: t.violations, stuck: t.stuck, bad: t.bad }).toEqual({
      interleavings: 0,
      violations: 0,
      stuck: 0,
      bad: [],
    });
    expect(t.expired).toBeGreaterThan(0); // the pauses did outlive locks
    expect(t.rejected).toBeGreaterThan(0); // and stale holders were refused
    expect(t.crashed).toBe(40);
  });

  it('the same faults without a ttl (fencing only) leave processes stuck behind the dead holder', async () => {
    const t = await fencedBatch(1, 10, { ttl: undefined, until: 2_000 });
    expect(t.stuck).toBeGreaterThan(0);
    expect(t.expired).toBe(0);
  });

  it('the same workload at a store that ignores tokens is caught: effects of two groups interleave', async () => {
    const t = await fencedBatch(1, 40, { storeFencing: false });
    expect(t.interleavings).toBeGreaterThan(0);
    expect(t.violations).toBe(0); // the tokens were right; the store did not use them
  });
});
