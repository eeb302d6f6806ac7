/**
 * Bad input (issue: "typed errors or dropped-and-counted messages; never a deadlock of the
 * others"): configuration errors before any message is sent, bad groups at entry, malformed and
 * forged messages dropped and reported, and valid messages with extreme field values delivered
 * mid-run (ts = req = sn = CLOCK_MAX) after which the cluster still finishes its workload without
 * a single invalid message.
 */
import { ConfigurationError, groupSpec, type Message } from '@critsec/core';
import { grid, groupFromCoterie, type GroupQuorumSystem, surficial } from '@critsec/coteries';
import { createCluster, runWorkload, type SimCluster } from '@critsec/harness';
import { CLOCK_MAX } from '@critsec/transport';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { groupMutex, subgroupAssignment } from '../src/index.js';
import { anyGroup } from './helpers.js';

const system = surficial(4, 2);

describe('configuration', () => {
  it('rejects a value that is not a group quorum system', () => {
    expect(() => groupMutex({ system: {} as GroupQuorumSystem, variant: 'M' })).toThrow(ConfigurationError);
    expect(() => groupMutex(undefined as never)).toThrow(/system must be a GroupQuorumSystem/);
  });

  it('rejects cartels whose quorums of different groups do not intersect, naming them', () => {
    const bad = {
      ...system,
      n: 2,
      m: 2,
      cartels: [[[0]], [[1]]],
      quorumOf: () => [0],
    } as unknown as GroupQuorumSystem;
    expect(() => groupMutex({ system: bad, variant: 'S' })).toThrow(
      /Q_\{0,0\} = \{0\} and Q_\{1,0\} = \{1\} do not intersect/,
    );
  });

  it('rejects a bad variant, maxLocks < 1 or not an integer, and an unknown assignment', () => {
    expect(() => groupMutex({ system, variant: 'X' as 'M' })).toThrow(/variant must be 'M' or 'S', got "X"/);
    for (const maxLocks of [0, -1, 1.5, Number.NaN, [1], [1, 0]]) {
      expect(() => groupMutex({ system, variant: 'M', maxLocks })).toThrow(/maxLocks must be an integer ≥ 1/);
    }
    expect(() => groupMutex({ system, variant: 'M', maxLocks: [1, 2] })).not.toThrow();
    expect(() => groupMutex({ system, variant: 'M', assignment: 'any' as 'system' })).toThrow(
      /assignment must be 'subgroups' or 'system'/,
    );
  });

  it('rejects a cluster of another size and an initial configuration with a process InCS', () => {
    const net = new SimNetwork({ n: 4 });
    const f = groupMutex({ system, variant: 'M' });
    expect(() => f({ id: 0, n: 5, endpoint: net.endpoint(0), initial: Array(5).fill('OutCS') })).toThrow(
      /has n = 4 processes but the cluster has n = 5/,
    );
    expect(() =>
      f({ id: 0, n: 4, endpoint: net.endpoint(0), initial: ['OutCS', 'InCS', 'OutCS', 'OutCS'] }),
    ).toThrow(/every process OutCS.*P1 InCS/);
    expect(net.counters().sent).toBe(0);
  });

  it('subgroupAssignment: surficial(4, 2) has degree 2 per cartel and max[g] = ⌈4/2⌉; T_m(grid) degree 1', () => {
    const s = subgroupAssignment(system);
    expect(s.degree).toEqual([2, 2]);
    expect(s.maxLocks).toEqual([2, 2]);
    for (let g = 0; g < 2; g++) {
      const [a, b] = s.quora[g]!.map((j) => system.cartels[g]![j]!);
      expect(a!.filter((x) => b!.includes(x))).toEqual([]); // pairwise disjoint
    }
    const t = subgroupAssignment(groupFromCoterie(grid(9), 3));
    expect(t.degree).toEqual([1, 1, 1]);
    expect(t.maxLocks).toEqual([9, 9, 9]);
  });
});

describe('entry(group) with a bad group', () => {
  for (const variant of ['M', 'S'] as const) {
    it(`Maekawa_${variant}: rejects with ConfigurationError, sends nothing, and the object stays usable`, async () => {
      const c = createCluster({ factory: groupMutex({ system, variant }), spec: groupSpec(2, 4) });
      for (const g of [-1, 2, 1.5, Number.NaN, '0' as unknown as number]) {
        await expect(c.objects[0]!.entry(g)).rejects.toThrow(/group must be an integer 0\.\.1/);
      }
      expect(c.net.counters().sent).toBe(0);
      expect(c.objects[0]!.state).toBe('OutCS');
      const r = await runWorkload(c, { rounds: 2, request: anyGroup(2) });
      expect(r.ok, r.failure ?? '').toBe(true);
    });
  }
});

/** Sends `msg` as from `from` to `to` at virtual time `at`. */
function inject(c: SimCluster<number>, at: number, from: number, to: number, msg: Message): void {
  c.net.schedule(at, () => c.net.endpoint(from).send(to, msg), 'inject');
}

describe('malformed and forged messages are dropped and reported; the others finish', () => {
  for (const variant of ['M', 'S'] as const) {
    it(`Maekawa_${variant}`, async () => {
      const c = createCluster({ factory: groupMutex({ system, variant }), spec: groupSpec(2, 4), seed: 5 });
      const bad: Message[] = [
        { type: 'REQUEST', req: -1, ts: 1, g: 0 },
        { type: 'LOCKED' },
        { type: 'BOGUS', req: 1, ts: 1 },
        { type: 'UNLOCK', req: 1, ts: CLOCK_MAX + 1, flag: true },
        { type: 'GRANT', g: 0.5, sn: 1 },
        { type: 'REQUEST', p: 99, g: 0, sn: 1 },
        // valid shapes, wrong content: a group that does not exist, a node outside the quorum
        variant === 'M' ? { type: 'REQUEST', req: 1, ts: 1, g: 2 } : { type: 'REQUEST', p: 0, g: 2, sn: 1 },
        variant === 'M' ? { type: 'REQUEST', req: 1, ts: 1, g: 0 } : { type: 'REQUEST', p: 1, g: 0, sn: 1 },
      ];
      // P1's group-0 quorum is {2, 3}: node 0 is not in it
      for (const [k, msg] of bad.entries()) inject(c, 1 + k, 1, 0, msg);
      const r = await runWorkload(c, { rounds: 3, request: anyGroup(2) });
      expect(r.ok, r.failure ?? '').toBe(true);
      expect(c.errors.length).toBe(bad.length);
      expect(c.errors.every((e) => e.process === 0)).toBe(true);
    });
  }
});

describe('valid messages with extreme values mid-run: no invalid message follows, the workload finishes', () => {
  const matrix: [string, GroupQuorumSystem][] = [
    ['surficial(4,2)', system],
    ['T_2(grid(9))', groupFromCoterie(grid(9), 2)],
  ];
  for (const [label, sys] of matrix) {
    for (const variant of ['M', 'S'] as const) {
      it(`${label}, Maekawa_${variant}: 40 seeds × 4 injections`, async () => {
        const { assignment } = subgroupAssignment(sys);
        const quorum = (p: number, g: number) => sys.cartels[g]![assignment[p]![g]!]!;
        for (let seed = 1; seed <= 40; seed++) {
          const c = createCluster({
            factory: groupMutex({ system: sys, variant }),
            spec: groupSpec(2, sys.n),
            seed,
          });
          const rng = c.net.rng('inject');
          for (let k = 0; k < 4; k++) {
            c.net.schedule(rng.next() * 20, () => {
              const j = rng.int(sys.n);
              const g = rng.int(2);
              const Q = quorum(j, g);
              const node = Q[rng.int(Q.length)]!;
              const idle = c.objects[j]!.state === 'OutCS' && c.objects[j]!.pending === null;
              const ep = c.net.endpoint(j);
              const pick = rng.int(idle ? 4 : 3);
              if (variant === 'M') {
                const ts = CLOCK_MAX;
                const req = CLOCK_MAX;
                // LOCKED and INQUIRE from a node of one of j's quorums (a stranger's are reported:
                // test/sender-before-clock.test.ts)
                if (pick === 0) c.net.endpoint(node).send(j, { type: 'LOCKED', req, ts });
                else if (pick === 1) c.net.endpoint(node).send(j, { type: 'INQUIRE', req, ts });
                else if (pick === 2) ep.send(node, { type: 'UNLOCK', req, ts, flag: rng.int(2) === 1 });
                else ep.send(node, { type: 'REQUEST', req, ts, g }); // j idle: a later REQUEST of j supersedes it
              } else {
                const sn = CLOCK_MAX;
                if (pick === 0) c.net.endpoint(Q[Q.length - 1]!).send(j, { type: 'GRANT', g, sn });
                else if (pick === 1) ep.send(node, { type: 'UNLOCK', g, sn });
                else if (pick === 2) c.net.endpoint(Q[Q.length - 1]!).send(j, { type: 'GRANT', g, sn: 0 });
                else ep.send(Q[0]!, { type: 'REQUEST', p: j, g, sn });
              }
            });
          }
          const r = await runWorkload(c, { rounds: 3, request: anyGroup(2) });
          expect(r.ok, `seed ${seed}: ${r.failure ?? r.violation?.message ?? ''}`).toBe(true);
          expect(
            c.errors.map((e) => e.error.message),
            `seed ${seed}`,
          ).toEqual([]);
        }
      });
    }
  }
});
