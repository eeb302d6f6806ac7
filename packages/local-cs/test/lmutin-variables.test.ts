/**
 * li-LMUTIN's variables (Kamei & Kakugawa 2017, Algorithm 1) as `inspect()` reports them: the
 * initial values (grantedTo_i = {(0, P_j) : P_j ∈ N_i ∪ {P_i} OutCS}, an OutCS process holds every
 * grant, an InCS one none) and the documented orders (grantedTo and pendingReq by timestamp
 * (ts, tag, P), nGrants ascending), with requests delivered against that order. star(3): P0 is the
 * centre, P1..P3 the leaves. Controlled mode.
 */
import { collectReached } from '@critsec/core/kit';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { localBounds } from '../src/config.js';
import { star } from '../src/graphs.js';
import { type LmutinSnapshot, lmutin } from '../src/lmutin.js';

const inspect = (c: SimCluster, i: number) =>
  (c.objects[i] as unknown as { inspect(): LmutinSnapshot }).inspect();
const g = star(3);

describe('LMUTIN inspect(): Algorithm 1 initial values', () => {
  it('grantedTo holds (0, P_j) for each OutCS neighbour; an OutCS process holds all its grants, an InCS one none', () => {
    const c = createCluster({
      factory: lmutin({ graph: g, l: 0 }),
      spec: localBounds(g, 0, (_i, d) => d + 1),
      initial: ['OutCS', 'InCS', 'OutCS', 'OutCS'],
      mode: 'controlled',
    });
    expect(inspect(c, 0)).toEqual({
      ts: 0,
      request: 0,
      waiting: false,
      nGrants: [0, 1, 2, 3],
      grantedTo: [
        [0, 0, 0],
        [2, 0, 0],
        [3, 0, 0],
      ],
      pendingReq: [],
      preemptingNow: null,
      aside: [],
    });
    expect(inspect(c, 1)).toMatchObject({ nGrants: [], grantedTo: [[0, 0, 0]], pendingReq: [] });
  });
});

describe('LMUTIN inspect(): orders', () => {
  it('grantedTo and pendingReq by (ts, tag, P), whatever order the Requests came in', async () => {
    // l_0 = 2: P0 grants |N_0| − l_0 + 1 = 2 exits at a time; everyone starts InCS and exits at once (ts 1)
    const c = createCluster({
      factory: lmutin({ graph: g, l: [2, 0, 0, 0] }),
      spec: localBounds(g, [2, 0, 0, 0], (_i, d) => d + 1),
      initial: ['InCS', 'InCS', 'InCS', 'InCS'],
      mode: 'controlled',
    });
    for (const i of [3, 2, 1, 0]) void c.objects[i]!.exit();
    await c.net.settle();
    const reached = collectReached();
    try {
      for (const j of [3, 2, 1, 0]) await deliver(c.net, j, 0, 'Request');
      expect(reached.counts.get('lmutin:preempt')).toBe(1); // the arbiter's coverage mark is LMUTIN's
    } finally {
      reached.stop();
    }
    expect(inspect(c, 0)).toMatchObject({
      grantedTo: [
        [2, 1, 1],
        [3, 1, 1],
      ],
      pendingReq: [
        [0, 1, 1],
        [1, 1, 1],
      ],
      preemptingNow: [3, 1], // the latest grant, preempted for P1's earlier request
      aside: [],
    });
  });

  it('nGrants ascending whatever order the Grants came in', async () => {
    const c = createCluster({
      factory: lmutin({ graph: g, l: 0 }),
      spec: localBounds(g, 0, (_i, d) => d + 1),
      initial: ['InCS', 'InCS', 'InCS', 'InCS'],
      mode: 'controlled',
    });
    void c.objects[0]!.exit();
    await c.net.settle();
    for (const j of [3, 2, 1]) await deliver(c.net, 0, j, 'Request');
    for (const j of [3, 1]) await deliver(c.net, j, 0, 'Grant');
    expect(inspect(c, 0)).toMatchObject({ waiting: true, request: 1, nGrants: [1, 3] });
  });
});
