/**
 * Forged answers to a waiting request (Fig. 1, "When OK / cancel is arrived from p'"): a second OK
 * or a second cancel from the same arbiter, and an OK from outside `Q`. None of them can complete
 * the request early, shrink it, or make the requester answer twice; the run then finishes safely.
 * FIFO makes each impossible for an honest arbiter (an OK is answered by one cancel at most before
 * the next OK), so only a forged message gets here. n = 4, k = 2, every quorum {P0, P1}; controlled
 * mode; first requests all carry c = 1, so priority is decided by id.
 */
import { ProtocolError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cycle, fixedCluster, inspectH } from './helpers.js';

const n = 4;
const k = 2;

describe('forged answers to a waiting request', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('a second OK from the same arbiter does not count as the missing OK of another', async () => {
    const c = fixedCluster(n, k, [0, 1]);
    const order: number[] = [];
    const p2 = cycle(c, 2, 1, order); // Q = {P0, P1}
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request');
    await deliver(c.net, 0, 2, 'OK'); // K = {P0}
    c.net.endpoint(0).send(2, { type: 'OK', seq: 0, ts: 3 }); // forged: P0 again, current seq
    await deliver(c.net, 0, 2, 'OK');
    expect(c.objects[2]!.state).toBe('OutCS'); // still waits for P1
    expect(inspectH(c, 2).requester).toMatchObject({ waiting: true, K: [0] });
    expect(c.errors).toEqual([]);
    await deliverAll(c.net);
    await p2;
    expect(order).toEqual([2]);
    expect(c.firstViolation).toBeNull();
    for (const r of [0, 1]) expect(inspectH(c, r).arbiter).toEqual({ x: k, Que: [] });
  });

  it('a second cancel from the same arbiter is not answered again, and the request still enters', async () => {
    const c = fixedCluster(n, k, [0, 1]);
    const order: number[] = [];
    const p2 = cycle(c, 2, 1, order); // (1, P2, 1)
    const p0 = cycle(c, 0, 2, order); // (2, P0, 1): higher priority
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request'); // arbiter P0 grants P2
    await deliver(c.net, 0, 0, 'request'); // P0's own request ranks first: P2's OK is cancelled
    await deliver(c.net, 0, 2, 'OK');
    await deliver(c.net, 0, 2, 'cancel'); // P2 waits: gives the OK back
    expect(queuedList(c.net).filter((m) => m === '2→0 cancelled')).toHaveLength(1);
    c.net.endpoint(0).send(2, { type: 'cancel', seq: 0, ts: 3 }); // forged: the same cancel again
    await deliver(c.net, 0, 2, 'cancel');
    expect(queuedList(c.net).filter((m) => m === '2→0 cancelled')).toHaveLength(1);
    expect(reached.counts.get('h-out-of-k:cancelled')).toBe(1);
    expect(inspectH(c, 2).requester).toMatchObject({ waiting: true, K: [] });
    await deliverAll(c.net); // P0 enters and leaves, then P2 collects both OKs
    expect(order).toEqual([0, 2]);
    await Promise.all([p0, p2]);
    expect(c.firstViolation).toBeNull();
    for (const r of [0, 1]) expect(inspectH(c, r).arbiter).toEqual({ x: k, Que: [] });
  });

  it('an OK from outside Q is a ProtocolError naming the whole quorum', async () => {
    const c = fixedCluster(n, k, [0, 1]);
    const order: number[] = [];
    const p2 = cycle(c, 2, 1, order);
    await c.net.settle();
    c.net.endpoint(3).send(2, { type: 'OK', seq: 0, ts: 1 }); // P3 arbitrates nobody
    await deliver(c.net, 3, 2, 'OK');
    expect(
      c.errors.map(({ process, error }) => [process, error instanceof ProtocolError, error.message]),
    ).toEqual([[2, true, 'hOutOfK: P2 got OK from P3, which is not in its quorum Q = {0, 1}']]);
    expect(inspectH(c, 2).requester.K).toEqual([]);
    await deliverAll(c.net);
    await p2;
    expect(order).toEqual([2]);
    expect(c.firstViolation).toBeNull();
  });
});
