/**
 * What the options of `groupMutex` change in a run (README "API"): `assignment: 'system'` makes
 * each process acquire `system.quorumOf(i, g)` instead of its subgroup's quorum (Sec. 4.2.1);
 * `maxLocks` given per group bounds how many processes of each group are InCS at once when every
 * process shares one quorum (T_m(C), degree 1); `subgroupAssignment` says whether its degree search
 * finished; an initial configuration with processes InCS names all of them.
 */
import { groupSpec } from '@critsec/core';
import { grid, groupFromCoterie, surficial } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { groupMutex, subgroupAssignment } from '../src/index.js';
import { enter } from './helpers.js';

/** Where P_i's first REQUEST for group g goes (Maekawa_M multicasts it to its whole quorum). */
function requestTargets(assignment: 'subgroups' | 'system', i: number, g: number): number[] {
  const c = createCluster({
    factory: groupMutex({ system: surficial(4, 2), variant: 'M', assignment }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
  void enter(c, i, g);
  return c.net
    .pending()
    .flatMap((e) => (e.kind === 'message' && e.msg.type === 'REQUEST' ? [e.to] : []))
    .sort((a, b) => a - b);
}

describe('assignment', () => {
  it("'system' uses system.quorumOf(i, g); the default uses the subgroup's quorum", () => {
    const system = surficial(4, 2);
    expect(system.quorumOf(1, 0)).toEqual([0, 1]);
    expect(requestTargets('system', 1, 0)).toEqual([0, 1]);
    expect(requestTargets('subgroups', 1, 0)).toEqual([2, 3]); // subgroup 1 mod 2 of cartel 0
  });
});

describe('maxLocks per group', () => {
  it('T_2(grid(9)), maxLocks [1, 3], all nine ask one group: 1 InCS at a time for group 0, 3 for group 1', async () => {
    const system = groupFromCoterie(grid(9), 2);
    for (const [g, limit] of [
      [0, 1],
      [1, 3],
    ] as const) {
      const c = createCluster({
        factory: groupMutex({ system, variant: 'M', maxLocks: [1, 3] }),
        spec: groupSpec(2, 9),
        seed: 3,
      });
      let most = 0;
      for (const cs of c.objects) cs.on('statechange', () => (most = Math.max(most, c.monitor.inCS)));
      const rounds = c.objects.map(async (_, i) => {
        await enter(c, i, g);
        await c.net.sleep(5);
        await c.objects[i]!.exit();
      });
      await c.net.run();
      await Promise.all(rounds);
      expect(most, `group ${g}`).toBe(limit);
      expect(c.firstViolation).toBeNull();
    }
  });
});

describe('subgroupAssignment', () => {
  it('reports the degree search as finished (exact) for surficial(4, 2) and T_3(grid(9))', () => {
    expect(subgroupAssignment(surficial(4, 2)).exact).toEqual([true, true]);
    expect(subgroupAssignment(groupFromCoterie(grid(9), 3)).exact).toEqual([true, true, true]);
  });
});

describe('initial configuration', () => {
  it('names every process that starts InCS', () => {
    const net = new SimNetwork({ n: 4 });
    const f = groupMutex({ system: surficial(4, 2), variant: 'S' });
    expect(() =>
      f({ id: 0, n: 4, endpoint: net.endpoint(0), initial: ['OutCS', 'InCS', 'OutCS', 'InCS'] }),
    ).toThrow(
      'groupMutex: initial must have every process OutCS (a process InCS has no group and no locks), got P1, P3 InCS',
    );
  });
});
