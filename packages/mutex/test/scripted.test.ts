/**
 * Scripted schedules in controlled mode that pin each rare rule of Maekawa's algorithm, on the
 * 2×2 grid: Q_0 = {0,1,2}, Q_1 = {0,1,3}, Q_2 = {0,2,3}, Q_3 = {1,2,3}. First requests all carry
 * sn = 1, so priorities are decided by process id (P0 highest).
 */
import { isAbortError, mutexSpec } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { grid } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maekawa } from '../src/index.js';
import { inspectM } from './helpers.js';

const coterie = grid(4);

function controlled(): SimCluster {
  return createCluster({ factory: maekawa({ coterie }), spec: mutexSpec(4), mode: 'controlled' });
}

/** Calls entry() on P`i`, then exit() as soon as it is InCS; resolves after the exit. */
function cycle(cluster: SimCluster, i: number, order: number[]): Promise<void> {
  const cs = cluster.objects[i]!;
  return cs.entry().then(() => {
    order.push(i);
    return cs.exit();
  });
}

describe('Maekawa rare rules, scripted (controlled mode)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('a displaced queue head receives FAILED', async () => {
    const c = controlled();
    const order: number[] = [];
    const done = [2, 1, 0].map((i) => cycle(c, i, order));
    await c.net.settle();
    await deliver(c.net, 2, 0, 'REQUEST'); // arbiter 0 grants P2
    await deliver(c.net, 1, 0, 'REQUEST'); // P1 beats P2: queued as head, INQUIRE to P2, no FAILED
    expect(queuedList(c.net)).toContain('0→2 INQUIRE');
    expect(queuedList(c.net)).not.toContain('0→1 FAILED');
    await deliver(c.net, 0, 0, 'REQUEST'); // P0 beats P1 and P2: P1 is displaced
    expect(queuedList(c.net)).toContain('0→1 FAILED');
    expect(queuedList(c.net).filter((e) => e === '0→2 INQUIRE')).toHaveLength(1); // INQUIRE once
    expect(inspectM(c, 0).arbiter).toEqual({
      grantedTo: 2,
      grantedReq: 1,
      inquired: true,
      queue: [
        [0, 1, false],
        [1, 1, true],
      ],
      aside: [],
    });
    expect(reached.counts.get('maekawa:failed-displaced')).toBe(1);
    await deliverAll(c.net);
    await Promise.all(done);
    expect(order).toHaveLength(3);
    expect(c.firstViolation).toBeNull();
  });

  it('INQUIRE is deferred without a FAILED, and a later FAILED turns it into RELINQUISH', async () => {
    const c = controlled();
    const order: number[] = [];
    const done = [2, 1].map((i) => cycle(c, i, order));
    await c.net.settle();
    await deliver(c.net, 2, 0, 'REQUEST'); // arbiter 0 grants P2
    await deliver(c.net, 1, 0, 'REQUEST'); // P1 beats P2: INQUIRE to P2
    await deliver(c.net, 0, 2, 'LOCKED');
    await deliver(c.net, 0, 2, 'INQUIRE'); // P2 has no FAILED: defers
    expect(queuedList(c.net)).not.toContain('2→0 RELINQUISH');
    expect(inspectM(c, 2).requester.inquiredBy).toEqual([0]);
    expect(reached.counts.get('maekawa:inquire-deferred')).toBe(1);
    await deliver(c.net, 1, 3, 'REQUEST'); // arbiter 3 grants P1
    await deliver(c.net, 2, 3, 'REQUEST'); // P2 loses against the holder P1: FAILED
    await deliver(c.net, 3, 2, 'FAILED'); // now P2 answers the deferred INQUIRE
    expect(queuedList(c.net)).toContain('2→0 RELINQUISH');
    expect(inspectM(c, 2).requester).toMatchObject({ locks: [], failed: [3], yielded: [0], inquiredBy: [] });
    expect(reached.counts.get('maekawa:relinquish-after-failed')).toBe(1);
    await deliverAll(c.net);
    await Promise.all(done);
    expect(order).toEqual([1, 2]); // the higher-priority request went first
    expect(c.firstViolation).toBeNull();
  });

  it('an INQUIRE that arrives after entry is ignored', async () => {
    const c = controlled();
    const p2 = c.objects[2]!.entry();
    await c.net.settle();
    for (const k of [0, 2, 3]) await deliver(c.net, 2, k, 'REQUEST');
    await deliver(c.net, 2, 2, 'LOCKED');
    await deliver(c.net, 3, 2, 'LOCKED');
    const p1 = c.objects[1]!.entry();
    await c.net.settle();
    await deliver(c.net, 1, 0, 'REQUEST'); // INQUIRE queued behind LOCKED on the link 0→2
    expect(queuedList(c.net).filter((e) => e.startsWith('0→2'))).toEqual(['0→2 LOCKED', '0→2 INQUIRE']);
    await deliver(c.net, 0, 2, 'LOCKED');
    await p2;
    expect(c.objects[2]!.state).toBe('InCS');
    const sent = c.net.counters().sent;
    await deliver(c.net, 0, 2, 'INQUIRE');
    expect(c.net.counters().sent).toBe(sent); // no RELINQUISH
    expect(c.objects[2]!.state).toBe('InCS');
    expect(reached.counts.get('maekawa:inquire-after-entry')).toBe(1);
    await c.objects[2]!.exit();
    await deliverAll(c.net);
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('a duplicate LOCKED does not complete a quorum early (locks are a set)', async () => {
    const c = controlled();
    const p2 = c.objects[2]!.entry();
    let entered = false;
    void p2.then(() => {
      entered = true;
    });
    await c.net.settle();
    const req = inspectM(c, 2).requester.request;
    await deliver(c.net, 2, 0, 'REQUEST');
    await deliver(c.net, 0, 2, 'LOCKED');
    // a second LOCKED for the same request from the same arbiter (forged on the wire)
    c.net.endpoint(0).send(2, { type: 'LOCKED', req, ts: req });
    await deliver(c.net, 0, 2, 'LOCKED');
    expect(reached.counts.get('maekawa:duplicate-locked')).toBe(1);
    await deliver(c.net, 2, 2, 'REQUEST');
    await deliver(c.net, 2, 2, 'LOCKED');
    // a counter would now read 3 = |Q_2|; the set holds {0, 2}
    expect(inspectM(c, 2).requester.locks).toEqual([0, 2]);
    expect(entered).toBe(false);
    expect(c.objects[2]!.state).toBe('OutCS');
    await deliverAll(c.net);
    expect(entered).toBe(true);
    expect(c.objects[2]!.state).toBe('InCS');
  });

  it('an aborted request is withdrawn everywhere; its late LOCKED is ignored as stale', async () => {
    const c = controlled();
    const ac = new AbortController();
    const p2 = c.objects[2]!.entry({ signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 2, 0, 'REQUEST'); // LOCKED 0→2 now in flight
    await deliver(c.net, 2, 3, 'REQUEST');
    ac.abort('changed my mind');
    await expect(p2).rejects.toSatisfy(isAbortError);
    expect(queuedList(c.net).filter((e) => e.endsWith('RELEASE'))).toEqual([
      '2→0 RELEASE',
      '2→2 RELEASE',
      '2→3 RELEASE',
    ]);
    await deliver(c.net, 0, 2, 'LOCKED');
    expect(reached.counts.get('maekawa:stale-ignored')).toBe(1);
    await deliverAll(c.net);
    for (const k of [0, 2, 3]) {
      expect(inspectM(c, k).arbiter).toEqual({
        grantedTo: -1,
        grantedReq: 0,
        inquired: false,
        queue: [],
        aside: [],
      });
    }
    // the process can ask again and get in
    const again = c.objects[2]!.entry();
    await deliverAll(c.net);
    await again;
    expect(c.objects[2]!.state).toBe('InCS');
  });

  it('an arbiter whose inquirer withdrew forgets the INQUIRE when its holder releases', async () => {
    const c = controlled();
    const p2 = c.objects[2]!.entry();
    await c.net.settle();
    await deliverAll(c.net); // P2 holds arbiters 0, 2, 3 and is InCS
    await p2;
    const ac = new AbortController();
    const p1 = c.objects[1]!.entry({ signal: ac.signal });
    p1.catch(() => {});
    await c.net.settle();
    await deliver(c.net, 1, 0, 'REQUEST'); // P1 beats P2: INQUIRE to P2 (ignored: P2 is InCS)
    expect(inspectM(c, 0).arbiter.inquired).toBe(true);
    ac.abort('gone');
    await deliverAll(c.net); // P1's RELEASE empties arbiter 0's queue
    expect(inspectM(c, 0).arbiter).toMatchObject({ grantedTo: 2, queue: [] });
    await c.objects[2]!.exit();
    await deliverAll(c.net);
    for (const k of [0, 1, 2, 3]) {
      expect(inspectM(c, k).arbiter).toEqual({
        grantedTo: -1,
        grantedReq: 0,
        inquired: false,
        queue: [],
        aside: [],
      });
    }
  });

  it('a relinquished lock returns to its holder when the request that caused the INQUIRE was withdrawn', async () => {
    const c = controlled();
    const order: number[] = [];
    const p2 = cycle(c, 2, order);
    const ac = new AbortController();
    const p1 = c.objects[1]!.entry({ signal: ac.signal });
    p1.catch(() => {});
    await c.net.settle();
    await deliver(c.net, 1, 3, 'REQUEST'); // arbiter 3 grants P1
    await deliver(c.net, 2, 3, 'REQUEST'); // FAILED to P2
    await deliver(c.net, 3, 2, 'FAILED');
    await deliver(c.net, 2, 0, 'REQUEST'); // arbiter 0 grants P2
    await deliver(c.net, 1, 0, 'REQUEST'); // P1 beats P2: INQUIRE
    await deliver(c.net, 0, 2, 'LOCKED');
    await deliver(c.net, 0, 2, 'INQUIRE'); // P2 has a FAILED: relinquishes at once
    expect(queuedList(c.net)).toContain('2→0 RELINQUISH');
    ac.abort('gone'); // P1 withdraws before the RELINQUISH arrives
    await deliver(c.net, 1, 0, 'RELEASE'); // arbiter 0 drops P1's queued request
    await deliver(c.net, 2, 0, 'RELINQUISH'); // P2 is the highest again: regranted
    expect(reached.counts.get('maekawa:cancel-queued')).toBe(1);
    expect(reached.counts.get('maekawa:regrant-relinquisher')).toBe(1);
    expect(inspectM(c, 0).arbiter.grantedTo).toBe(2);
    await deliverAll(c.net);
    await p2;
    expect(order).toEqual([2]);
    expect(c.firstViolation).toBeNull();
  });
});
