/**
 * Scripted schedules (controlled mode) that pin Maekawa_S's rare rules (Fig. 8): early_requests
 * (D.10–D.11, E.17–E.19), the reference entry policy (D.2, E.4–E.7), deferred requests granted by
 * group (E.8–E.16), and abort wherever the travelling REQUEST is. surficial(4, 2), subgroup
 * assignment: group 0 — P0, P2 use Q = {0, 1}, P1, P3 use {2, 3}; group 1 — P0, P2 use {0, 2},
 * P1, P3 use {1, 3}.
 */
import { groupSpec, isAbortError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupMutexWithRules } from '../src/group-mutex.js';
import { groupMutex } from '../src/index.js';
import { enter, inspectS } from './helpers.js';

const system = surficial(4, 2);

function controlled(): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system, variant: 'S' }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
}

describe('Maekawa_S rare rules, scripted', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it("early_requests: P1's next REQUEST reaches node 3 through node 2 before its UNLOCK (D.10, E.17)", async () => {
    const c = controlled();
    const first = enter(c, 1, 1); // Q = {1, 3}
    await c.net.settle();
    await deliverAll(c.net);
    await first;
    expect(c.objects[1]!.state).toBe('InCS');
    await c.objects[1]!.exit(); // UNLOCK 1→1, 1→3 in flight
    const next = enter(c, 1, 0); // Q = {2, 3}
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST'); // node 2 grants, forwards to node 3
    await deliver(c.net, 2, 3, 'REQUEST'); // node 3 still holds P1's old lock: early
    expect(inspectS(c, 3).node.early_requests).toEqual([[1, 0, 2]]);
    expect(reached.counts.get('group-mutex-s:early-request')).toBe(1);
    await deliver(c.net, 1, 3, 'UNLOCK'); // E.17–E.19: REQUEST 3→3
    expect(queuedList(c.net)).toContain('3→3 REQUEST');
    await deliverAll(c.net);
    await next;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('the reference policy: a late same-group request joins, another group waits, the door closes (D.2, E.4–E.16)', async () => {
    const c = controlled();
    const p0 = enter(c, 0, 0); // Q = {0, 1}
    await c.net.settle();
    await deliverAll(c.net);
    await p0;
    expect(inspectS(c, 1).node).toMatchObject({ lock_group: 0, reference: 0 });
    const p3 = enter(c, 3, 1); // Q = {1, 3}
    await c.net.settle();
    await deliver(c.net, 3, 1, 'REQUEST'); // node 1 locked by group 0: deferred
    expect(inspectS(c, 1).node.deferred_req).toEqual([[3, 1, 1]]);
    const p2 = enter(c, 2, 0); // Q = {0, 1}: joins although P3 waits — the reference P0 is still in
    await c.net.settle();
    await deliver(c.net, 2, 0, 'REQUEST');
    await deliver(c.net, 0, 1, 'REQUEST');
    await deliver(c.net, 1, 2, 'GRANT');
    await p2;
    expect([c.objects[0]!.state, c.objects[2]!.state]).toEqual(['InCS', 'InCS']);
    expect(reached.counts.get('group-mutex-s:joined-reference')).toBe(2);
    await c.objects[0]!.exit();
    await deliver(c.net, 0, 0, 'UNLOCK'); // node 0: nobody waits, P2 becomes the reference
    expect(inspectS(c, 0).node.reference).toBe(2);
    expect(reached.counts.get('group-mutex-s:new-reference')).toBe(1);
    await deliver(c.net, 0, 1, 'UNLOCK'); // node 1: P3 waits, the door closes (reference ⊥)
    expect(inspectS(c, 1).node).toMatchObject({ lock_group: 0, reference: -1, deferred_req: [[3, 1, 1]] });
    const late = enter(c, 0, 0); // P0 again, same group: deferred behind P3 now
    await c.net.settle();
    await deliver(c.net, 0, 0, 'REQUEST');
    await deliver(c.net, 0, 1, 'REQUEST');
    expect(inspectS(c, 1).node.deferred_req).toEqual([
      [3, 1, 1],
      [0, 0, 2],
    ]);
    await c.objects[2]!.exit();
    await deliverAll(c.net); // E.8–E.16: node 1 grants group 1 (P3) first
    await p3;
    expect(c.objects[3]!.state).toBe('InCS');
    expect(c.objects[0]!.state).toBe('OutCS');
    await c.objects[3]!.exit();
    await deliverAll(c.net);
    await late;
    expect(c.objects[0]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('abort: the UNLOCK overtakes the travelling REQUEST, which is dropped on arrival; a deferred one is withdrawn', async () => {
    const c = controlled();
    const p0 = enter(c, 0, 1); // Q = {0, 2}
    await c.net.settle();
    await deliverAll(c.net);
    await p0; // node 2 locked by group 1
    const ac = new AbortController();
    const p1 = enter(c, 1, 0, { signal: ac.signal }); // Q = {2, 3}
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST'); // deferred at node 2
    const ac3 = new AbortController();
    const p3 = enter(c, 3, 0, { signal: ac3.signal }); // Q = {2, 3} too
    await c.net.settle();
    ac.abort('give up');
    await expect(p1).rejects.toSatisfy(isAbortError);
    await deliver(c.net, 1, 2, 'UNLOCK');
    expect(reached.counts.get('group-mutex-s:deferred-withdrawn')).toBe(1);
    await deliver(c.net, 1, 3, 'UNLOCK'); // node 3 never saw the request: remembered
    expect(reached.counts.get('group-mutex-s:unlock-before-request')).toBe(1);
    // P3's REQUEST is still at node 2's door; P0 leaves, P3 gets in
    await c.objects[0]!.exit();
    await deliverAll(c.net);
    await p3;
    expect(c.objects[3]!.state).toBe('InCS');
    expect(inspectS(c, 3).node.cancelled).toEqual([[1, 0, 1]]); // the REQUEST never comes: kept (≤ 64 per process)
    expect(c.firstViolation).toBeNull();
    ac3.abort();
  });

  it('abort: a REQUEST granted on its way is withdrawn by the UNLOCK that follows it; a late one is dropped', async () => {
    const c = controlled();
    const ac = new AbortController();
    const p1 = enter(c, 1, 0, { signal: ac.signal }); // Q = {2, 3}
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST'); // node 2 grants and forwards 2→3
    ac.abort();
    await expect(p1).rejects.toSatisfy(isAbortError);
    await deliver(c.net, 1, 3, 'UNLOCK'); // before the forwarded REQUEST
    await deliver(c.net, 2, 3, 'REQUEST'); // dropped
    expect(reached.counts.get('group-mutex-s:cancelled-request-dropped')).toBe(1);
    await deliver(c.net, 1, 2, 'UNLOCK'); // node 2 frees its lock
    expect(inspectS(c, 2).node.lock_ps).toEqual([]);
    expect(inspectS(c, 3).node).toMatchObject({ lock_ps: [], cancelled: [] });
    expect(c.net.pending()).toEqual([]);
    const again = enter(c, 1, 0);
    await c.net.settle();
    await deliverAll(c.net);
    await again;
    expect(c.objects[1]!.state).toBe('InCS');
  });

  /**
   * Two early requests of one process, the first withdrawn (found by the long abort runs, seed
   * 500086). The default re-sends both when the old lock goes; E.17–E.19 as printed re-send one.
   */
  async function twoEarly(
    rules: 'default' | 'printed-early',
  ): Promise<{ c: SimCluster<number>; entered: () => boolean }> {
    const c =
      rules === 'default'
        ? controlled()
        : createCluster({
            factory: groupMutexWithRules({ system, variant: 'S' }, rules),
            spec: groupSpec(2, 4),
            mode: 'controlled',
          });
    const first = enter(c, 1, 1); // Q = {1, 3}
    await c.net.settle();
    await deliverAll(c.net);
    await first;
    await c.objects[1]!.exit(); // UNLOCK(1) 1→1 and 1→3 in flight
    await deliver(c.net, 1, 1, 'UNLOCK');
    const ac = new AbortController();
    const second = enter(c, 1, 0, { signal: ac.signal }); // sn 2, Q = {2, 3}
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST');
    await deliver(c.net, 2, 3, 'REQUEST'); // early: node 3 still holds sn 1
    ac.abort();
    await expect(second).rejects.toSatisfy(isAbortError);
    let done = false;
    void enter(c, 1, 0).then(() => {
      done = true;
    }); // sn 3
    await c.net.settle();
    await deliver(c.net, 1, 2, 'UNLOCK'); // node 2 frees sn 2
    await deliver(c.net, 1, 2, 'REQUEST'); // grants sn 3, forwards it
    await deliver(c.net, 2, 3, 'REQUEST'); // early too
    expect(inspectS(c, 3).node.early_requests).toEqual([
      [1, 0, 2],
      [1, 0, 3],
    ]);
    await deliver(c.net, 1, 3, 'UNLOCK'); // sn 1 released: early requests go to node 3 itself
    await deliver(c.net, 1, 3, 'UNLOCK'); // the abort's UNLOCK(2): remembered, or withdrawn
    await deliverAll(c.net);
    await c.net.settle();
    return { c, entered: () => done };
  }

  it('two early requests of one process, the first withdrawn: both are re-sent, P1 gets in', async () => {
    const { c, entered } = await twoEarly('default');
    expect(reached.counts.get('group-mutex-s:early-several')).toBe(1);
    expect(reached.counts.get('group-mutex-s:cancelled-request-dropped')).toBe(1);
    expect(entered()).toBe(true);
    expect(c.objects[1]!.state).toBe('InCS');
  });

  it('E.17–E.19 as printed (one early request re-sent): P1 waits forever, its sn 3 stuck in early_requests', async () => {
    const { c, entered } = await twoEarly('printed-early');
    expect(c.net.pending()).toEqual([]); // quiet
    expect(entered()).toBe(false);
    expect(inspectS(c, 3).node.early_requests).toEqual([[1, 0, 3]]);
  });
});
