/**
 * Crash recovery of Maekawa_M and Maekawa_S (issue 27; `src/durable-m.ts`, `src/durable-s.ts`,
 * `durableState()` and `recover()` of `src/maekawa-m.ts` and `src/maekawa-s.ts`): the durable
 * state round-trips exactly after every event of seeded runs with aborts; a process swapped for an
 * object rebuilt from its durable state (a crash and restart with nothing lost) keeps the cluster
 * safe and live; recovery withdraws a waiting request and leaves a held CS; a recovered state that
 * is not this process's is refused with a typed error.
 */
import { ConfigurationError, CSMICError, groupSpec, isDurableCSObject } from '@critsec/core';
import { grid, groupFromCoterie, surficial } from '@critsec/coteries';
import { createCluster, runWorkload } from '@critsec/harness';
import { deliverAll, queuedList } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex, groupMutexDescriptor } from '../src/index.js';
import { durable, roundTripFactory, swapRestoreRun } from './durable-run.js';
import { anyGroup } from './helpers.js';

const VARIANTS = ['M', 'S'] as const;
const systems = [
  ['surficial(9,2)', surficial(9, 2)],
  ['T_2(grid(9))', groupFromCoterie(grid(9), 2)],
] as const;

describe('durableState() round-trips after every event (seeded runs with aborts)', () => {
  for (const variant of VARIANTS) {
    it(`Maekawa_${variant} on surficial(9,2): 30 seeds, the copy built from it equals the original`, async () => {
      const system = surficial(9, 2);
      const found: string[] = [];
      const checks = { count: 0 };
      const factory = roundTripFactory(groupMutex({ system, variant }), found, checks);
      for (let seed = 1; seed <= 30 && found.length === 0; seed++) {
        const cluster = createCluster({ factory, spec: groupSpec(2, 9), seed });
        const r = await runWorkload(cluster, {
          rounds: 3,
          request: anyGroup(2),
          abort: { probability: 0.3, within: 3 },
        });
        await cluster.close();
        if (!r.ok) found.push(`seed ${seed}: ${r.failure ?? 'not ok'}`);
      }
      expect(found).toEqual([]);
      expect(checks.count).toBeGreaterThan(3_000);
    });
  }
});

describe('swap-restore: processes rebuilt from their durable state mid-run', () => {
  for (const variant of VARIANTS) {
    for (const [name, system] of systems) {
      it(`Maekawa_${variant}, ${name}: 100 seeds, 4 swaps each — 0 violations, every process completes`, async () => {
        const factory = groupMutex({ system, variant });
        const bad: string[] = [];
        let cut = 0;
        for (let seed = 1; seed <= 100 && bad.length === 0; seed++) {
          const r = await swapRestoreRun(factory, system.n, system.m, seed, 4);
          cut += r.cut;
          if (r.violations > 0 || r.stuck.length > 0 || r.problems.length > 0)
            bad.push(`seed ${seed}: ${r.violations} violations, stuck ${r.stuck}, ${r.problems.join('; ')}`);
        }
        expect(bad).toEqual([]);
        expect(cut).toBeGreaterThan(40); // the swaps do cut waiting entries and held CSs
      });
    }
  }
});

/** surficial(4, 2) in controlled mode: P1's group-0 quorum is {2, 3}, its group-1 quorum {1, 3}. */
function controlled(variant: 'M' | 'S') {
  return createCluster({
    factory: groupMutex({ system: surficial(4, 2), variant }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
}

describe('recover()', () => {
  for (const variant of VARIANTS) {
    const factory = groupMutex({ system: surficial(4, 2), variant });
    const rebuild = (c: ReturnType<typeof controlled>, id: number) => {
      const saved = JSON.parse(JSON.stringify(durable(c.objects[id]!).durableState())) as never;
      void c.objects[id]!.close();
      const ctx = {
        id,
        n: 4,
        endpoint: c.net.endpoint(id),
        initial: Array(4).fill('OutCS'),
        recovered: saved,
      };
      return durable(factory(ctx));
    };

    it(`Maekawa_${variant}: a fresh object resolves at once and sends nothing`, async () => {
      const c = controlled(variant);
      await durable(c.objects[0]!).recover();
      expect(c.net.pending()).toEqual([]);
    });

    it(`Maekawa_${variant}: recovered InCS — UNLOCK to every node of Q, then OutCS; the nodes are free`, async () => {
      const c = controlled(variant);
      const p1 = c.objects[1]!.entry(0);
      await c.net.settle();
      await deliverAll(c.net);
      await p1;
      const cs = rebuild(c, 1);
      expect(cs.state).toBe('InCS');
      await cs.recover();
      expect(cs.state).toBe('OutCS');
      expect(queuedList(c.net)).toEqual(['1→2 UNLOCK', '1→3 UNLOCK']);
      await deliverAll(c.net);
      for (const i of [2, 3]) {
        expect(
          (c.objects[i] as unknown as { inspect(): { node: { lock_ps: unknown[] } } }).inspect().node.lock_ps,
        ).toEqual([]);
      }
    });

    it(`Maekawa_${variant}: recovered waiting — withdrawn (UNLOCK to Q), a late grant handed back or ignored; another process then enters`, async () => {
      const c = controlled(variant);
      void c.objects[1]!.entry(0).catch(() => undefined);
      await c.net.settle();
      const cs = rebuild(c, 1);
      expect(cs.state).toBe('OutCS');
      expect(
        (cs as unknown as { inspect(): { process: { waiting: boolean } } }).inspect().process.waiting,
      ).toBe(true);
      await cs.recover();
      expect(queuedList(c.net).filter((e) => e.startsWith('1→') && e.endsWith('UNLOCK'))).toEqual([
        '1→2 UNLOCK',
        '1→3 UNLOCK',
      ]);
      await deliverAll(c.net);
      const p3 = c.objects[3]!.entry(1);
      await c.net.settle();
      await deliverAll(c.net);
      await p3;
      expect(c.objects[3]!.state).toBe('InCS');
      expect(c.firstViolation).toBeNull();
    });

    it(`Maekawa_${variant}: entry() before recover() withdraws the recovered request first; recover() during it rejects with CSMICError`, async () => {
      const c = controlled(variant);
      void c.objects[1]!.entry(0).catch(() => undefined);
      await c.net.settle();
      const cs = rebuild(c, 1);
      const again = cs.entry(1);
      await expect(cs.recover()).rejects.toBeInstanceOf(CSMICError);
      await c.net.settle();
      const sent = queuedList(c.net);
      expect(sent.indexOf('1→2 UNLOCK')).toBeGreaterThanOrEqual(0);
      await deliverAll(c.net);
      await again;
      expect(cs.state).toBe('InCS');
      expect(c.firstViolation).toBeNull();
    });
  }
});

describe('a recovered state that is not this process’s is refused with ConfigurationError', () => {
  for (const variant of VARIANTS) {
    const factory = groupMutex({ system: surficial(4, 2), variant });
    const good = () => {
      const c = controlled(variant);
      return JSON.parse(JSON.stringify(durable(c.objects[2]!).durableState())) as Record<string, unknown>;
    };
    const build = (recovered: unknown, id = 2) =>
      factory({
        id,
        n: 4,
        endpoint: controlled(variant).net.endpoint(id),
        initial: Array(4).fill('OutCS'),
        recovered: recovered as never,
      });
    const cases: [string, (s: Record<string, unknown>) => unknown, number?][] = [
      ['not an object', () => 'hello'],
      ['another format', (s) => ({ ...s, format: 'critsec/maekawa@1' })],
      ['another process', (s) => s, 1],
      ['another number of groups', (s) => ({ ...s, m: 3 })],
      ['an unknown field', (s) => ({ ...s, extra: 1 })],
      ['InCS without the locks', (s) => ({ ...s, state: 'InCS' })],
    ];
    for (const [what, change, id] of cases) {
      it(`Maekawa_${variant}: ${what}`, () => {
        expect(() => build(change(good()), id)).toThrow(ConfigurationError);
      });
    }
    it(`Maekawa_${variant}: a node holding a request of a process whose quorum does not hold it`, () => {
      const s = good() as { node: Record<string, unknown> };
      const bad =
        variant === 'M'
          ? { ...s, node: { ...s.node, requests: [[0, 1, 0, 1]], lock_ps: [0], lock_group: 0 } }
          : { ...s, node: { ...s.node, lock_ps: [[0, 0, 1]], lock_group: 0 } };
      // surficial(4, 2): P0's quorum for group 0 is {0, 1}, which does not hold node 2
      expect(() => build(bad)).toThrow(/quorum does not hold this node/);
    });
    it(`Maekawa_${variant}: the good state itself is accepted`, () => {
      expect(build(good()).state).toBe('OutCS');
    });
  }
});

describe('the descriptor', () => {
  it('says group-mutex supports crash recovery; both variants build durable objects', () => {
    expect(groupMutexDescriptor.crashRecovery).toBe(true);
    for (const variant of VARIANTS) {
      const c = controlled(variant);
      expect(c.objects.every((o) => isDurableCSObject(o))).toBe(true);
    }
  });
});
