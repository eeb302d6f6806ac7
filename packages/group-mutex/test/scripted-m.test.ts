/**
 * Scripted schedules (controlled mode) that pin Maekawa_M's INQUIRE / UNLOCK crossings (Fig. 5
 * B, Fig. 6 E.17–E.23, F), on surficial(4, 2) with the subgroup assignment: group 0 — P0, P2 use
 * Q = {0, 1}, P1, P3 use {2, 3}; group 1 — P0, P2 use {0, 2}, P1, P3 use {1, 3}; max[g] = 2.
 * First requests all carry t = 1, so priorities are decided by process id (P0 highest).
 */
import { groupSpec, isAbortError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupMutexWithRules } from '../src/group-mutex.js';
import { groupMutex } from '../src/index.js';
import { enter, inspectM } from './helpers.js';

const system = surficial(4, 2);

function controlled(rules: 'default' | 'printed-locked' = 'default'): SimCluster<number> {
  const factory =
    rules === 'default'
      ? groupMutex({ system, variant: 'M' })
      : groupMutexWithRules({ system, variant: 'M' }, rules);
  return createCluster({ factory, spec: groupSpec(2, 4), mode: 'controlled' });
}

describe('Maekawa_M INQUIRE / UNLOCK crossings, scripted', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('a higher request of another group takes the lock back from a process still trying (E.19–E.23, B.4, F.18–F.24)', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0); // Q = {2, 3}
    const p0 = enter(c, 0, 1); // Q = {0, 2}
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST'); // node 2 locked by P1 for group 0
    await deliver(c.net, 2, 1, 'LOCKED');
    await deliver(c.net, 0, 2, 'REQUEST'); // ⟨0,1⟩ < ⟨1,1⟩: group 0 loses the priority, INQUIRE to P1
    expect(inspectM(c, 2).node).toMatchObject({
      lock_ps: [1],
      inquired_ps: [1],
      lock_group: 0,
      has_priority: false,
    });
    await deliver(c.net, 2, 1, 'INQUIRE'); // P1 is trying: UNLOCK(false)
    expect(queuedList(c.net)).toContain('1→2 UNLOCK');
    expect(inspectM(c, 1).process.locked_nodes).toEqual([]);
    await deliver(c.net, 1, 2, 'UNLOCK'); // F.18–F.24: node 2 switches to group 1 and locks for P0
    expect(inspectM(c, 2).node).toMatchObject({ lock_ps: [0], lock_group: 1, has_priority: true });
    expect(reached.counts.get('group-mutex-m:priority-lost-on-request')).toBe(1);
    expect(reached.counts.get('group-mutex-m:yield')).toBe(1);
    expect(reached.counts.get('group-mutex-m:switch-group')).toBe(1);
    await deliverAll(c.net);
    await p0;
    expect(c.objects[0]!.state).toBe('InCS');
    expect(c.objects[1]!.state).toBe('OutCS'); // P1 waits for node 2
    await c.objects[0]!.exit();
    await deliverAll(c.net);
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('an INQUIRE that reaches a process InCS is ignored; its exit UNLOCK(true) answers it (B.3)', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliverAll(c.net); // P1 InCS, holding nodes 2 and 3
    await p1;
    const p0 = enter(c, 0, 1);
    await c.net.settle();
    await deliver(c.net, 0, 2, 'REQUEST'); // INQUIRE 2→1
    const sent = c.net.counters().sent;
    await deliver(c.net, 2, 1, 'INQUIRE');
    expect(c.net.counters().sent).toBe(sent); // no UNLOCK(false): state = CS
    expect(reached.counts.get('group-mutex-m:inquire-in-cs')).toBe(1);
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    await p0;
    expect(c.objects[0]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('INQUIRE and the exit UNLOCK(true) cross on the wire: the late INQUIRE is stale and ignored', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliverAll(c.net);
    await p1;
    const p0 = enter(c, 0, 1);
    await c.net.settle();
    await deliver(c.net, 0, 2, 'REQUEST'); // INQUIRE 2→1 in flight
    await c.objects[1]!.exit(); // UNLOCK(true) 1→2 in flight: they cross
    expect(queuedList(c.net)).toEqual(expect.arrayContaining(['2→1 INQUIRE', '1→2 UNLOCK']));
    await deliver(c.net, 1, 2, 'UNLOCK'); // node 2: lock_ps = ∅ → switch to group 1 (F.18)
    const sent = c.net.counters().sent;
    await deliver(c.net, 2, 1, 'INQUIRE');
    expect(c.net.counters().sent).toBe(sent);
    expect(reached.counts.get('group-mutex-m:stale-inquire')).toBe(1);
    await deliverAll(c.net);
    await p0;
    expect(c.objects[0]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('at max[g] locks, a higher request of the same group takes one back (E.11–E.16)', async () => {
    // max[0] = 1 on T_m-like use: P3, P1 (group 0, Q = {2, 3}) and P2 … use maxLocks 1
    const c = createCluster({
      factory: groupMutex({ system, variant: 'M', maxLocks: 1 }),
      spec: groupSpec(2, 4),
      mode: 'controlled',
    });
    const p3 = enter(c, 3, 0); // Q = {2, 3}
    const p1 = enter(c, 1, 0); // Q = {2, 3}
    await c.net.settle();
    await deliver(c.net, 3, 2, 'REQUEST'); // node 2 locked by P3 (max 1)
    await deliver(c.net, 1, 2, 'REQUEST'); // ⟨1,1⟩ < ⟨3,1⟩ of the same group: INQUIRE to P3
    expect(queuedList(c.net)).toContain('2→3 INQUIRE');
    expect(reached.counts.get('group-mutex-m:inquire-same-group')).toBe(1);
    await deliverAll(c.net);
    await p1;
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    await p3;
    expect(c.firstViolation).toBeNull();
  });
});

describe('abort: LOCKED names its request (deviation from C.3 as printed)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  /**
   * P2 (group 0, Q = {0, 1}) aborts while both LOCKEDs are in flight, then asks again. Meanwhile
   * P1 enters for group 1 (Q = {1, 3}) through node 1. The old LOCKEDs arrive during the new
   * request.
   */
  async function run(rules: 'default' | 'printed-locked'): Promise<SimCluster<number>> {
    const c = controlled(rules);
    const ac = new AbortController();
    const first = enter(c, 2, 0, { signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 2, 0, 'REQUEST'); // LOCKED 0→2 in flight
    await deliver(c.net, 2, 1, 'REQUEST'); // LOCKED 1→2 in flight
    ac.abort('changed my mind');
    await expect(first).rejects.toSatisfy(isAbortError);
    await deliver(c.net, 2, 0, 'UNLOCK'); // node 0 free again
    await deliver(c.net, 2, 1, 'UNLOCK'); // node 1 free again
    const p1 = enter(c, 1, 1); // Q = {1, 3}
    await c.net.settle();
    for (const [f, t, type] of [
      [1, 1, 'REQUEST'],
      [1, 3, 'REQUEST'],
      [1, 1, 'LOCKED'],
      [3, 1, 'LOCKED'],
    ] as const)
      await deliver(c.net, f, t, type);
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
    void enter(c, 2, 0).catch(() => {}); // asks again; its REQUESTs stay queued
    await c.net.settle();
    await deliver(c.net, 0, 2, 'LOCKED'); // the old, stale LOCKEDs
    await deliver(c.net, 1, 2, 'LOCKED');
    return c;
  }

  it('default: the stale LOCKEDs are handed back, P2 keeps waiting, no violation', async () => {
    const c = await run('default');
    expect(c.objects[2]!.state).toBe('OutCS');
    expect(c.firstViolation).toBeNull();
    expect(reached.counts.get('group-mutex-m:stale-locked-returned')).toBe(2);
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    expect(c.objects[2]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('printed C.3 (any LOCKED counts): P2 enters for group 0 while P1 is InCS for group 1', async () => {
    const c = await run('printed-locked');
    expect(c.objects[2]!.state).toBe('InCS');
    expect(c.firstViolation?.message).toMatch(/different groups/);
  });
});
