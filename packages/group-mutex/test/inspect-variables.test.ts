/**
 * `inspect()` reports the variables of Figs. 5–8 (Joung 2003) as the paper initialises them
 * (`lock_group` ⊥, `has_priority` false, `locked_nodes` ∅; ⊥ reported as −1) and its lists in the
 * documented order: Maekawa_M's `requests` by priority ⟨p, t⟩, `lock_ps`, `inquired_ps` and
 * `locked_nodes` ascending; Maekawa_S's `lock_ps` by process. On T_2(grid(9)) every process uses
 * Q = {0, 1, 2, 3, 6} for both groups; requests are delivered in descending process order, so an
 * unsorted list would show it.
 */
import { groupSpec } from '@critsec/core';
import { grid, groupFromCoterie } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { enter, inspectM, inspectS } from './helpers.js';

const system = groupFromCoterie(grid(9), 2);
const Q = [0, 1, 2, 3, 6];

function controlled(variant: 'M' | 'S'): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system, variant }),
    spec: groupSpec(2, 9),
    mode: 'controlled',
  });
}

describe('inspect(): initial values (Fig. 5, Fig. 6 cont., Figs. 7–8)', () => {
  it('Maekawa_M: no group, no priority, lock_group ⊥, has_priority false, nothing locked', () => {
    const c = controlled('M');
    expect(inspectM(c, 4)).toEqual({
      sn: 0,
      process: { group: -1, req: 0, priority: -1, waiting: false, locked_nodes: [] },
      node: { requests: [], lock_ps: [], inquired_ps: [], lock_group: -1, has_priority: false },
    });
  });

  it('Maekawa_S: no group, sn 0, locked_nodes ∅, lock_group and reference ⊥', () => {
    const c = controlled('S');
    expect(inspectS(c, 4)).toEqual({
      process: { group: -1, sn: 0, waiting: false, locked_nodes: [] },
      node: {
        lock_ps: [],
        deferred_req: [],
        early_requests: [],
        lock_group: -1,
        reference: -1,
        cancelled: [],
      },
    });
  });
});

describe('inspect(): lists in their documented order', () => {
  it('Maekawa_M node: requests by priority, lock_ps and inquired_ps ascending', async () => {
    const c = controlled('M');
    for (const p of [8, 7, 5]) void enter(c, p, 0); // every first request has t = 1
    void enter(c, 4, 1);
    await c.net.settle();
    for (const p of [8, 7, 5]) await deliver(c.net, p, 0, 'REQUEST'); // locks given in the order 8, 7, 5
    await deliver(c.net, 4, 0, 'REQUEST'); // ⟨4,1⟩ outranks group 0: INQUIRE to 8, 7, 5 in that order
    expect(inspectM(c, 0).node).toEqual({
      requests: [
        [4, 1, 1, 1],
        [5, 1, 0, 1],
        [7, 1, 0, 1],
        [8, 1, 0, 1],
      ],
      lock_ps: [5, 7, 8],
      inquired_ps: [5, 7, 8],
      lock_group: 0,
      has_priority: false,
    });
  });

  it('Maekawa_M process: locked_nodes ascending whatever order the LOCKEDs come in; ∅ again after exit (D.4)', async () => {
    const c = controlled('M');
    const p4 = enter(c, 4, 0);
    await c.net.settle();
    for (const i of Q) await deliver(c.net, 4, i, 'REQUEST');
    for (const i of [6, 3, 1]) await deliver(c.net, i, 4, 'LOCKED');
    expect(inspectM(c, 4).process).toEqual({
      group: 0,
      req: 1,
      priority: 1,
      waiting: true,
      locked_nodes: [1, 3, 6],
    });
    await deliverAll(c.net);
    await p4;
    expect(inspectM(c, 4).process.locked_nodes).toEqual(Q);
    await c.objects[4]!.exit();
    expect(inspectM(c, 4).process).toMatchObject({ waiting: false, locked_nodes: [] });
  });

  it('Maekawa_S: lock_ps by process (requests of one group joining the reference, D.2); locked_nodes = Q at GRANT, ∅ after exit (B.2, C.5)', async () => {
    const c = controlled('S');
    const entered = [8, 7, 5].map((p) => enter(c, p, 0));
    await c.net.settle();
    for (const p of [8, 7, 5]) await deliver(c.net, p, 0, 'REQUEST');
    expect(inspectS(c, 0).node).toMatchObject({
      lock_ps: [
        [5, 0, 1],
        [7, 0, 1],
        [8, 0, 1],
      ],
      lock_group: 0,
      reference: 8,
    });
    await deliverAll(c.net);
    await Promise.all(entered);
    expect(inspectS(c, 5).process).toEqual({ group: 0, sn: 1, waiting: false, locked_nodes: Q });
    await c.objects[5]!.exit();
    expect(inspectS(c, 5).process).toEqual({ group: 0, sn: 1, waiting: false, locked_nodes: [] });
  });
});
