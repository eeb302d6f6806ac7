/**
 * Scripted schedules in controlled mode for the OK/cancel crossings of Fig. 1, on n = 3, k = 2
 * with every quorum {P0, P1} (two arbiters; P2 only requests). First requests all carry c = 1,
 * so priority is decided by id: P0 beats P2.
 */
import { hOutOfKSpec, isAbortError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hOutOfK } from '../src/index.js';
import { cycle, fixedArbiter, inspectH } from './helpers.js';

const n = 3;
const k = 2;
const arbiter = fixedArbiter(n, k, [0, 1]);

function controlled(): SimCluster<number> {
  return createCluster({ factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n), mode: 'controlled' });
}

describe('h-out-of-k OK/cancel crossings, scripted (controlled mode)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('a waiting requester answers cancel with cancelled; the OK arrives again after cancelled', async () => {
    const c = controlled();
    const order: number[] = [];
    const p2 = cycle(c, 2, 1, order); // (1, P2, 1)
    const p0 = cycle(c, 0, 2, order); // (2, P0, 1): higher priority
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request'); // arbiter P0 grants P2: x = 1
    expect(inspectH(c, 0).arbiter).toEqual({ x: 1, Que: [[2, 1, 1, 'ok', 0]] });
    await deliver(c.net, 0, 0, 'request'); // P0's own request: fits in k, but x = 1 < 2; P2 is beyond k
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 1,
      Que: [
        [0, 1, 2, 'wait', 0],
        [2, 1, 1, 'cancel', 0],
      ],
    });
    expect(queuedList(c.net)).toContain('0→2 cancel');
    await deliver(c.net, 0, 2, 'OK'); // P2 holds P0's OK and waits for P1's
    expect(inspectH(c, 2).requester.K).toEqual([0]);
    await deliver(c.net, 0, 2, 'cancel'); // not yet InCS: P2 gives the OK back
    expect(queuedList(c.net)).toContain('2→0 cancelled');
    expect(reached.counts.get('h-out-of-k:cancelled')).toBe(1);
    expect(inspectH(c, 2).requester.K).toEqual([]);
    await deliver(c.net, 2, 0, 'cancelled'); // x = 2, NewChance: OK to P0 (not to P2)
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 0,
      Que: [
        [0, 1, 2, 'ok', 0],
        [2, 1, 1, 'wait', 0],
      ],
    });
    expect(queuedList(c.net)).toContain('0→0 OK');
    expect(queuedList(c.net)).not.toContain('0→2 OK');
    await deliverAll(c.net);
    await Promise.all([p0, p2]);
    expect(order).toEqual([0, 2]);
    expect(reached.counts.get('h-out-of-k:ok-after-cancelled')).toBeGreaterThanOrEqual(1);
    expect(c.firstViolation).toBeNull();
    for (const i of [0, 1]) expect(inspectH(c, i).arbiter).toEqual({ x: k, Que: [] });
  });

  it('a cancel that arrives after entry is ignored; the units come back with release', async () => {
    const c = controlled();
    const cs2 = c.objects[2]!;
    c.monitor.setRequest(2, 1);
    const e2 = cs2.entry(1);
    const order: number[] = [];
    const p0 = cycle(c, 0, 2, order);
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request');
    await deliver(c.net, 2, 1, 'request');
    await deliver(c.net, 0, 0, 'request'); // arbiter P0 cancels P2's OK
    await deliver(c.net, 0, 2, 'OK');
    await deliver(c.net, 1, 2, 'OK');
    await e2;
    expect(cs2.state).toBe('InCS');
    await deliver(c.net, 0, 2, 'cancel'); // InCS: ignored, nothing sent
    expect(reached.counts.get('h-out-of-k:cancel-after-entry')).toBe(1);
    expect(queuedList(c.net)).not.toContain('2→0 cancelled');
    expect(inspectH(c, 0).arbiter.Que).toContainEqual([2, 1, 1, 'cancel', 0]);
    await deliverAll(c.net); // P0 cannot get x = 2 at arbiter P0 while P2 is InCS
    expect(c.objects[0]!.state).toBe('OutCS');
    expect(order).toEqual([]);
    await cs2.exit(); // release: x := x + 1 at both arbiters, NewChance grants P0
    await deliverAll(c.net);
    await p0;
    expect(order).toEqual([0]);
    expect(c.firstViolation).toBeNull();
    for (const i of [0, 1]) expect(inspectH(c, i).arbiter).toEqual({ x: k, Que: [] });
  });

  it('a cancel that crosses the release is not answered after the exit (K is cleared at exit)', async () => {
    const c = controlled();
    const cs2 = c.objects[2]!;
    c.monitor.setRequest(2, 1);
    const e2 = cs2.entry(1);
    const p0 = cycle(c, 0, 2, []);
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request');
    await deliver(c.net, 2, 1, 'request');
    await deliver(c.net, 0, 0, 'request'); // cancel to P2 in flight
    await deliver(c.net, 0, 2, 'OK');
    await deliver(c.net, 1, 2, 'OK');
    await e2;
    await cs2.exit(); // release in flight, crossing the cancel
    await deliver(c.net, 0, 2, 'cancel');
    expect(queuedList(c.net)).not.toContain('2→0 cancelled');
    expect(reached.counts.get('h-out-of-k:stale-ignored')).toBeGreaterThanOrEqual(1);
    await deliverAll(c.net);
    await p0;
    expect(c.firstViolation).toBeNull();
    for (const i of [0, 1]) expect(inspectH(c, i).arbiter).toEqual({ x: k, Que: [] });
  });

  it('an aborted entry gives back every unit granted or in flight; the others keep going', async () => {
    const c = controlled();
    const order: number[] = [];
    const p1 = cycle(c, 1, 2, order); // (2, P1, 1)
    const ac = new AbortController();
    c.monitor.setRequest(2, 1);
    const outcome = c.objects[2]!.entry(1, { signal: ac.signal }).then(
      () => 'entered',
      (err: unknown) => (isAbortError(err) ? 'aborted' : String(err)),
    );
    await c.net.settle();
    await deliver(c.net, 1, 1, 'request'); // arbiter P1 grants P1: x = 0
    await deliver(c.net, 2, 0, 'request'); // arbiter P0 grants P2: x = 1, OK in flight
    await deliver(c.net, 2, 1, 'request'); // arbiter P1: P2 waits (2 + 1 > k)
    expect(inspectH(c, 0).arbiter).toEqual({ x: 1, Que: [[2, 1, 1, 'ok', 0]] });
    expect(inspectH(c, 1).arbiter.Que).toContainEqual([2, 1, 1, 'wait', 0]);
    ac.abort();
    expect(await outcome).toBe('aborted');
    expect(queuedList(c.net).filter((m) => m === '2→0 release' || m === '2→1 release')).toHaveLength(2);
    // sent before P0's OK arrived (its clock is not above the OK's): P0 keeps the unit and asks
    // P2 (issue 27 §3, README third deviation)
    await deliver(c.net, 2, 0, 'release');
    expect(inspectH(c, 0).arbiter).toEqual({ x: 1, Que: [[2, 1, 1, 'ok', 0]] });
    expect(reached.counts.get('h-out-of-k:release-before-ok')).toBe(1);
    await deliver(c.net, 2, 1, 'release'); // the waiting request is withdrawn (and P2 asked)
    expect(reached.counts.get('h-out-of-k:release-waiting')).toBe(1);
    await deliver(c.net, 0, 2, 'OK'); // the OK that was in flight is stale
    expect(reached.counts.get('h-out-of-k:stale-ignored')).toBe(1);
    await deliver(c.net, 0, 2, 'probe'); // P2 has no request: it answers release
    await deliver(c.net, 2, 0, 'release'); // stamped after the OK: the granted unit comes back
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] });
    await deliverAll(c.net);
    await p1;
    expect(order).toEqual([1]);
    for (const i of [0, 1]) expect(inspectH(c, i).arbiter).toEqual({ x: k, Que: [] });
    expect(c.firstViolation).toBeNull();
  });
});
