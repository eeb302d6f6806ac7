/**
 * Maekawa_M's node rules of Fig. 6 (Joung 2003, Sec. 4.2), one at a time on node 0 of T_2(grid(9))
 * (controlled mode): with the subgroup assignment every process uses Q = {0, 1, 2, 3, 6} for both
 * groups, so node 0 hears every request. Every process calls `entry` before anything is delivered,
 * so every first request carries t = 1 and priorities ⟨p, 1⟩ are decided by process id (P0 the
 * highest). Each test names the lines it pins.
 */
import { groupSpec, isAbortError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { grid, groupFromCoterie } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { enter, inspectM } from './helpers.js';

const system = groupFromCoterie(grid(9), 2);
const Q = [0, 1, 2, 3, 6];
const X = 0;

function controlled(maxLocks?: number): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system, variant: 'M', ...(maxLocks === undefined ? {} : { maxLocks }) }),
    spec: groupSpec(2, 9),
    mode: 'controlled',
  });
}

/** How many `type` messages node X has queued to `to`. */
function queued(c: SimCluster<number>, to: number, type: string): number {
  return queuedList(c.net).filter((e) => e === `${X}→${to} ${type}`).length;
}

/** Delivers p's REQUEST and the LOCKED answer at every node of Q: p ends InCS (nobody else asked). */
async function enterAlone(c: SimCluster<number>, p: number, entered: Promise<void>): Promise<void> {
  for (const i of Q) await deliver(c.net, p, i, 'REQUEST');
  for (const i of Q) await deliver(c.net, i, p, 'LOCKED');
  await entered;
  expect(c.objects[p]!.state).toBe('InCS');
}

describe('Maekawa_M node rules (Fig. 6) on node 0 of T_2(grid(9))', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('E.11–E.16 at max[g]: a same-group request inquires the lowest holder only if it ranks above it; E.20–E.23 then inquire each remaining holder once', async () => {
    const c = controlled(2);
    for (const p of [3, 5, 7, 1]) void enter(c, p, 0);
    void enter(c, 0, 1);
    await c.net.settle();
    await deliver(c.net, 3, X, 'REQUEST');
    await deliver(c.net, 5, X, 'REQUEST'); // lock_ps = {3, 5} = max[0]
    await deliver(c.net, 7, X, 'REQUEST'); // ⟨7,1⟩ ranks below both holders: rank(2) = P5 = the lowest holder
    expect(inspectM(c, X).node).toMatchObject({ lock_ps: [3, 5], inquired_ps: [] });
    expect(queuedList(c.net).filter((e) => e.endsWith('INQUIRE'))).toEqual([]);
    await deliver(c.net, 1, X, 'REQUEST'); // ⟨1,1⟩: rank(2) = P3 ranks above the lowest holder P5
    expect(inspectM(c, X).node).toMatchObject({ lock_ps: [3, 5], inquired_ps: [5], has_priority: true });
    expect(queued(c, 5, 'INQUIRE')).toBe(1);
    expect(reached.counts.get('group-mutex-m:inquire-same-group')).toBe(1);
    await deliver(c.net, 0, X, 'REQUEST'); // group 1, ⟨0,1⟩ above rank(1, 0) = P1: group 0 loses the priority
    expect(inspectM(c, X).node).toMatchObject({ inquired_ps: [3, 5], has_priority: false });
    expect([queued(c, 3, 'INQUIRE'), queued(c, 5, 'INQUIRE')]).toEqual([1, 1]); // P5 is not asked twice
  });

  it('E.17–E.19: a request of another group with a lower priority than rank(1, lock_group) leaves the priority alone', async () => {
    const c = controlled();
    void enter(c, 5, 0);
    void enter(c, 7, 1);
    await c.net.settle();
    await deliver(c.net, 5, X, 'REQUEST');
    await deliver(c.net, 7, X, 'REQUEST'); // ⟨7,1⟩ > ⟨5,1⟩: queued (E.24)
    expect(inspectM(c, X).node).toMatchObject({
      lock_ps: [5],
      inquired_ps: [],
      lock_group: 0,
      has_priority: true,
    });
    expect(queuedList(c.net).filter((e) => e.endsWith('INQUIRE'))).toEqual([]);
  });

  it('F.8–F.12: when the top request is of another group, lock_group loses the priority and a later member of it is queued', async () => {
    const c = controlled();
    const p5 = enter(c, 5, 0);
    const p7 = enter(c, 7, 0);
    void enter(c, 6, 1);
    await c.net.settle();
    for (const i of Q) await deliver(c.net, 5, i, 'REQUEST');
    for (const i of Q) await deliver(c.net, 7, i, 'REQUEST');
    for (const i of Q) await deliver(c.net, i, 5, 'LOCKED');
    for (const i of Q) await deliver(c.net, i, 7, 'LOCKED');
    await Promise.all([p5, p7]);
    await deliver(c.net, 6, X, 'REQUEST'); // ⟨6,1⟩ below rank(1, 0) = P5: queued
    expect(inspectM(c, X).node).toMatchObject({ lock_ps: [5, 7], has_priority: true });
    await c.objects[5]!.exit();
    await deliver(c.net, 5, X, 'UNLOCK'); // F.7: top = P6 (group 1) ≠ lock_group, P7 still holds
    expect(inspectM(c, X).node).toMatchObject({
      lock_ps: [7],
      inquired_ps: [7],
      lock_group: 0,
      has_priority: false,
    });
    expect(queued(c, 7, 'INQUIRE')).toBe(1);
    void enter(c, 3, 0);
    await c.net.settle();
    await deliver(c.net, 3, X, 'REQUEST'); // E.4 fails (no priority): queued, not locked
    expect(inspectM(c, X).node.lock_ps).toEqual([7]);
    expect(queued(c, 3, 'LOCKED')).toBe(0);
  });

  it('F.13–F.17 with |lock_ps| = max[g]: the UNLOCK(true) of a withdrawn, never-locked request frees no lock, so none is given', async () => {
    const c = controlled(2);
    for (const p of [3, 5, 7]) void enter(c, p, 0);
    const ac = new AbortController();
    const p1 = enter(c, 1, 0, { signal: ac.signal });
    await c.net.settle();
    for (const p of [3, 5, 7, 1]) await deliver(c.net, p, X, 'REQUEST'); // locks for P3, P5; P7, P1 queued
    ac.abort();
    await expect(p1).rejects.toSatisfy(isAbortError);
    await deliver(c.net, 1, X, 'UNLOCK');
    expect(inspectM(c, X).node).toMatchObject({ lock_ps: [3, 5], lock_group: 0, has_priority: true });
    expect(inspectM(c, X).node.requests.map(([p]) => p)).toEqual([3, 5, 7]);
    expect(queued(c, 7, 'LOCKED')).toBe(0); // max[0] = 2 locks stay given
    expect(reached.counts.get('group-mutex-m:full-after-withdrawal')).toBe(1);
  });

  it('F.18–F.24: when the last lock comes back, the highest group gets max[h1] locks at once', async () => {
    const c = controlled(2);
    const p0 = enter(c, 0, 1);
    for (const p of [4, 5, 7]) void enter(c, p, 0);
    await c.net.settle();
    await enterAlone(c, 0, p0);
    for (const p of [4, 5, 7]) await deliver(c.net, p, X, 'REQUEST'); // below ⟨0,1⟩: queued
    expect(inspectM(c, X).node).toMatchObject({ lock_ps: [0], lock_group: 1 });
    await c.objects[0]!.exit();
    await deliver(c.net, 0, X, 'UNLOCK');
    expect(inspectM(c, X).node).toMatchObject({ lock_ps: [4, 5], lock_group: 0, has_priority: true });
    expect([queued(c, 4, 'LOCKED'), queued(c, 5, 'LOCKED'), queued(c, 7, 'LOCKED')]).toEqual([1, 1, 0]);
  });

  it('F.18 needs requests ≠ ∅: the node freed by the last exit keeps lock_group and has_priority', async () => {
    const c = controlled();
    const p5 = enter(c, 5, 0);
    await c.net.settle();
    await enterAlone(c, 5, p5);
    await c.objects[5]!.exit();
    await deliver(c.net, 5, X, 'UNLOCK');
    expect(inspectM(c, X).node).toEqual({
      requests: [],
      lock_ps: [],
      inquired_ps: [],
      lock_group: 0,
      has_priority: true,
    });
  });

  it('a second REQUEST of p while node 0 holds one of p (forged) is set aside and p probed; p keeps its lock (README deviation 6)', async () => {
    const c = controlled();
    const p5 = enter(c, 5, 0);
    await c.net.settle();
    await deliver(c.net, 5, X, 'REQUEST');
    c.net.endpoint(5).send(X, { type: 'REQUEST', req: 7, ts: 1, g: 1 });
    await deliver(c.net, 5, X, 'REQUEST');
    expect(inspectM(c, X).node).toMatchObject({
      requests: [[5, 1, 0, 1]],
      lock_ps: [5],
      lock_group: 0,
      aside: [[5, 1, 1, 7]],
    });
    expect(reached.counts.get('group-mutex-m:request-set-aside')).toBe(1);
    expect(queuedList(c.net)).toContain(`${X}→5 PROBE`);
    for (const i of Q) if (i !== X) await deliver(c.net, 5, i, 'REQUEST');
    for (const i of Q) await deliver(c.net, i, 5, 'LOCKED');
    await p5;
    await deliver(c.net, X, 5, 'PROBE'); // P5 is InCS under request 1: it keeps the lock
    expect(reached.counts.get('group-mutex-m:probe-current')).toBe(1);
    expect(c.objects[5]!.state).toBe('InCS');
    await c.objects[5]!.exit();
    await deliver(c.net, 5, X, 'UNLOCK'); // its own request ends: the one set aside is dropped
    expect(reached.counts.get('group-mutex-m:aside-dropped')).toBe(1);
    expect(inspectM(c, X).node).toMatchObject({ requests: [], lock_ps: [] });
  });
});
