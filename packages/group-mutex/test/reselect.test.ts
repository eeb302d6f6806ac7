/**
 * Quorum reselection of Maekawa_M (issue 28 §4; S1–S5 of `src/reselect.ts`, README "Quorum
 * reselection"): the scripted scene of a request moved off a dead node (and the same scene stuck
 * without the option), S1 on an entry made after the suspicion, wrong suspicions of live
 * processes (safe, and every process finishes once they stop), the fenced seeded runs with any
 * process crash-stopped (the long version: `fencing.long.test.ts`), and the option's checks.
 */
import { collectReached } from '@critsec/core/kit';
import {
  ConfigurationError,
  type CSState,
  type DurableCSObject,
  groupSpec,
  hasTenure,
  type ProcessId,
  type Suspicions,
} from '@critsec/core';
import { fromQuorums, groupFromCoterie, surficial } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import {
  groupMutex,
  groupMutexDescriptor,
  type MaekawaMDurableState,
  type MaekawaMSnapshot,
} from '../src/index.js';
import { fencedBatch } from './fenced-seeds.js';

/**
 * T_2 of the majorities over the nodes {1, 2, 3}: Q_0 = {1, 2}, Q_1 = {1, 3}, Q_2 = {2, 3},
 * Q_3 = {1, 2}, for both groups; each cartel is {{1, 2}, {1, 3}, {2, 3}}.
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

const inspect = (o: unknown): MaekawaMSnapshot => (o as { inspect(): MaekawaMSnapshot }).inspect();

/** P2 (a node of Q_0) crash-stops at t = 0, just as P0 asks {1, 2} for group 0. */
async function deadNodeScene(reselect: boolean, ttl?: number) {
  const c = createCluster({
    factory: groupMutex({
      system: abc,
      variant: 'M',
      assignment: 'system',
      reselect,
      ...(ttl ? { ttl } : {}),
    }),
    spec: groupSpec(2, 4),
    suspectAfter: 2,
  });
  c.net.crash(2);
  let entered = false;
  // rejected with AbortError when the scene is closed while P0 still waits (without reselect)
  const entry = c.objects[0]!.entry(0).then(
    () => {
      entered = true;
    },
    () => {},
  );
  await c.net.run({ until: 1 });
  const before = inspect(c.objects[0]);
  await c.net.run({ until: 100 });
  return { c, entry, entered, before, after: inspect(c.objects[0]) };
}

describe('Maekawa_M quorum reselection: the scripted scene', () => {
  it('P0 waits on {1, 2} with node 2 dead; once 2 is suspected it withdraws and asks {1, 3} with a new req and the same priority, and enters', async () => {
    const reached = collectReached();
    const { c, entry, entered, before, after } = await deadNodeScene(true);
    reached.stop();
    expect(before.process).toMatchObject({ req: 1, priority: 1, waiting: true });
    expect(entered).toBe(true);
    await entry;
    // S2: req 2, S3: the priority ⟨0, 1⟩ kept; the locks are those of {1, 3}
    expect(after.process).toMatchObject({ req: 2, priority: 1, waiting: false, locked_nodes: [1, 3] });
    expect(reached.counts.get('group-mutex-m:reselected')).toBe(1);
    // node 1 holds P0's retry (req 2, t 1); the lock of the withdrawn attempt was given back
    expect(inspect(c.objects[1]).node.requests).toEqual([[0, 1, 0, 2]]);
    await c.objects[0]!.exit();
    await c.net.run({ until: 200 });
    for (const i of [1, 3]) expect(inspect(c.objects[i]).node).toMatchObject({ requests: [], lock_ps: [] });
    await c.close();
  });

  it('S5, with a ttl: the token is confirmed with {1, 3}, the quorum the retry asks, and renewed there while P0 holds', async () => {
    const { c, entered, after } = await deadNodeScene(true, 12);
    expect(entered).toBe(true);
    expect(after.process).toMatchObject({ req: 2, locked_nodes: [1, 3] });
    const p0 = c.objects[0]!;
    const token = hasTenure(p0) ? p0.tenure()?.token : undefined;
    expect(token).toBe(1);
    const hs = (i: number) =>
      (c.objects[i] as unknown as { durableState(): MaekawaMDurableState }).durableState().node.hs;
    expect([hs(1), hs(3)]).toEqual([1, 1]);
    // 100 time units InCS, ttl 12: the renewals to {1, 3} keep the grant; nothing was reclaimed
    expect(hasTenure(p0) ? p0.tenure()!.remaining() : 0).toBeGreaterThan(0);
    expect(inspect(c.objects[3]).node.lock_ps).toEqual([0]);
    await p0.exit();
    await c.close();
  });

  it('without reselect the same scene is stuck: P0 keeps waiting on the dead node 2', async () => {
    const { c, entered, after } = await deadNodeScene(false);
    expect(entered).toBe(false);
    expect(after.process).toMatchObject({ req: 1, waiting: true, locked_nodes: [1] });
    await c.close();
  });

  it('S1: an entry made once node 2 is suspected asks {1, 3} from the start (one request, no withdrawal)', async () => {
    const c = createCluster({
      factory: groupMutex({ system: abc, variant: 'M', assignment: 'system', reselect: true }),
      spec: groupSpec(2, 4),
      suspectAfter: 2,
    });
    c.net.crash(2);
    await c.net.run({ until: 10 });
    const entry = c.objects[3]!.entry(1);
    await c.net.run({ until: 30 });
    await entry;
    expect(inspect(c.objects[3]).process).toMatchObject({ req: 1, locked_nodes: [1, 3] });
    await c.close();
  });
});

/** A wrong failure detector shared by every process: live processes suspected at random until `until`, then none. */
class WrongSuspicions {
  #suspected: ReadonlySet<ProcessId> = new Set();
  readonly #listeners = new Set<() => void>();
  readonly suspicions: Suspicions = {
    suspected: () => this.#suspected,
    onChange: (f) => {
      this.#listeners.add(f);
      return () => this.#listeners.delete(f);
    },
  };

  start(net: SimNetwork, n: number, until: number): void {
    const rng = net.rng('wrong-suspicions');
    const flip = () => {
      this.#suspected = net.now >= until ? new Set() : new Set([rng.int(n), rng.int(n)]);
      for (const f of this.#listeners) f();
      if (net.now < until) net.schedule(1 + rng.next() * 3, flip);
    };
    net.schedule(1, flip);
  }
}

describe('Maekawa_M quorum reselection: wrong suspicions', () => {
  it('surficial(9, 2), live processes suspected at random for 60 time units: 30 seeds, never two groups InCS, every process finishes', async () => {
    const reached = collectReached();
    const system = surficial(9, 2);
    for (let seed = 1; seed <= 30; seed++) {
      const wrong = new WrongSuspicions();
      const inner = groupMutex({ system, variant: 'M', reselect: true });
      const c = createCluster({
        factory: (ctx) => inner({ ...ctx, suspicions: wrong.suspicions }),
        spec: groupSpec(2, 9),
        seed,
      });
      wrong.start(c.net, 9, 60);
      const r = await runWorkload(c, { rounds: 3, think: 2, hold: 1, request: (rng) => rng.int(2) });
      expect({ seed, violation: r.violation, stuck: r.stuck }).toEqual({ seed, violation: null, stuck: [] });
      await c.close();
    }
    reached.stop();
    expect(reached.counts.get('group-mutex-m:reselected') ?? 0).toBeGreaterThan(30);
  });
});

describe('Maekawa_M quorum reselection with a ttl: crash-stop of any process, pauses, partitions', () => {
  it('40 seeds: 0 interleaved effects, 0 fencing violations, 0 stuck while a quorum avoiding the crashed is alive', async () => {
    const reached = collectReached();
    const t = await fencedBatch(1, 40, { reselect: true });
    reached.stop();
    expect({ interleavings: t.interleavings, violations: t.violations, stuck: t.stuck }).toEqual({
      interleavings: 0,
      violations: 0,
      stuck: 0,
    });
    expect(t.crashed).toBe(40);
    expect(reached.counts.get('group-mutex-m:reselected') ?? 0).toBeGreaterThan(0);
  });
});

describe('Maekawa_M quorum reselection: the option', () => {
  const system = surficial(4, 2);
  it('is refused for Maekawa_S, when not a boolean, and at a restart from a durable state', () => {
    expect(() => groupMutex({ system, variant: 'S', reselect: true })).toThrow(/variant 'M'/);
    expect(() => groupMutex({ system, variant: 'M', reselect: 'yes' as never })).toThrow(ConfigurationError);
    const factory = groupMutex({ system, variant: 'M', reselect: true });
    const initial: CSState[] = Array(4).fill('OutCS');
    const ctx = { id: 0, n: 4, endpoint: new SimNetwork({ n: 4 }).endpoint(0), initial };
    const saved = (factory(ctx) as unknown as DurableCSObject).durableState();
    const endpoint = new SimNetwork({ n: 4 }).endpoint(0);
    expect(() => factory({ ...ctx, endpoint, recovered: saved })).toThrow(/not supported with reselect/);
  });

  it('the descriptor parameter reselect=on|off', () => {
    const ctx = { weigh: () => {}, readJson: () => ({}), isFile: () => false } as never;
    expect(groupMutexDescriptor.build({ reselect: 'on' }, 9, ctx).options).toMatchObject({ reselect: 'on' });
    expect(groupMutexDescriptor.build({}, 9, ctx).options).not.toHaveProperty('reselect');
    expect(() => groupMutexDescriptor.build({ reselect: 'yes' }, 9, ctx)).toThrow(ConfigurationError);
    expect(() => groupMutexDescriptor.build({ reselect: 'on', variant: 'S' }, 9, ctx)).toThrow(
      ConfigurationError,
    );
  });
});
