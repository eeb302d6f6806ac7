/**
 * Arbiter and requester edge cases in controlled mode that the seeded suites reach but cannot pin
 * down: each test kills mutants of `src/h-out-of-k.ts` / `src/que.ts` that survived
 * `npm run test:mutation` (README, "Mutation score"). One arbiter P0 (every quorum {P0}), n = 4;
 * first requests all carry c = 1, so priority is decided by id (P1 before P2 before P3).
 */
import { isAbortError, ProtocolError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HOutOfKCS } from '../src/index.js';
import { cycle, fixedCluster, inspectH } from './helpers.js';

const n = 4;

describe('h-out-of-k arbiter edges (one arbiter P0)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());
  const mark = (name: string) => reached.counts.get(`h-out-of-k:${name}`) ?? 0;

  it('k = 2: an OK within the first k units is never cancelled (Σ = k exactly is inside the prefix)', async () => {
    const c = fixedCluster(n, 2, [0]);
    const done = [cycle(c, 1, 1), cycle(c, 2, 1), cycle(c, 3, 1)];
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request');
    await deliver(c.net, 2, 0, 'request');
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 0,
      Que: [
        [1, 1, 1, 'ok', 0],
        [2, 1, 1, 'ok', 0],
      ],
    });
    await deliver(c.net, 3, 0, 'request'); // lowest priority, beyond k: waits, cancels nobody
    expect(inspectH(c, 0).arbiter.Que[2]).toEqual([3, 1, 1, 'wait', 0]);
    expect(queuedList(c.net).filter((m) => m.endsWith('cancel'))).toEqual([]);
    expect([mark('cancel'), mark('grant-bypass'), mark('ok-after-cancelled')]).toEqual([0, 0, 0]);
    await deliverAll(c.net);
    await Promise.all(done);
    expect(c.firstViolation).toBeNull();
    expect(mark('ok-after-cancelled')).toBe(0); // every OK arrived once, none after a cancelled
    expect(inspectH(c, 0).arbiter).toEqual({ x: 2, Que: [] });
  });

  it('k = 2: one request cancels two OKs at once (multi-cancel); NewChance blocks before later entries', async () => {
    const c = fixedCluster(n, 2, [0]);
    const done = [cycle(c, 2, 1), cycle(c, 3, 1), cycle(c, 1, 2)];
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request');
    await deliver(c.net, 3, 0, 'request'); // P2, P3 hold one unit each: x = 0
    await deliver(c.net, 1, 0, 'request'); // P1 (2 units) first in Que: both OKs beyond k
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 0,
      Que: [
        [1, 1, 2, 'wait', 0],
        [2, 1, 1, 'cancel', 0],
        [3, 1, 1, 'cancel', 0],
      ],
    });
    expect([mark('cancel'), mark('multi-cancel')]).toEqual([2, 1]);
    await deliver(c.net, 0, 2, 'OK'); // P2 enters on the OK in flight and leaves at once
    await deliver(c.net, 0, 2, 'cancel'); // stale: ignored
    await deliver(c.net, 2, 0, 'release'); // x = 1 < 2: NewChance stops at P1, with P3 after it
    expect(mark('newchance-blocked')).toBe(1);
    expect(inspectH(c, 0).arbiter.x).toBe(1);
    await deliverAll(c.net);
    await Promise.all(done);
    expect(c.firstViolation).toBeNull();
    expect(inspectH(c, 0).arbiter).toEqual({ x: 2, Que: [] });
  });

  it('k = 2: NewChance blocked at the last entry of Que is no newchance-blocked', async () => {
    const c = fixedCluster(n, 2, [0]);
    const p1 = cycle(c, 1, 1);
    const p2 = cycle(c, 2, 2);
    const ac = new AbortController();
    c.monitor.setRequest(3, 1);
    const p3 = c.objects[3]!.entry(1, { signal: ac.signal }).catch((e: unknown) =>
      isAbortError(e) ? 'aborted' : e,
    );
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request'); // x = 1
    await deliver(c.net, 2, 0, 'request'); // 1 + 2 > k: waits
    await deliver(c.net, 3, 0, 'request'); // waits
    ac.abort();
    expect(await p3).toBe('aborted');
    await deliver(c.net, 3, 0, 'release'); // the waiting entry goes; NewChance: P2 blocked, last in Que
    expect(mark('release-waiting')).toBe(1);
    expect(mark('newchance-blocked')).toBe(0);
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 1,
      Que: [
        [1, 1, 1, 'ok', 0],
        [2, 1, 2, 'wait', 0],
      ],
    });
    await deliverAll(c.net);
    await Promise.all([p1, p2]);
    expect(c.firstViolation).toBeNull();
  });

  it('k = 3: a request that fits is granted past a waiting one (grant-bypass), with a single cancel', async () => {
    const c = fixedCluster(n, 3, [0]);
    const done = [cycle(c, 3, 2), cycle(c, 1, 2), cycle(c, 2, 1)];
    await c.net.settle();
    await deliver(c.net, 3, 0, 'request'); // P3 holds 2: x = 1
    await deliver(c.net, 1, 0, 'request'); // P1: fits (2 ≤ 3) but x = 1 < 2: waits; P3 beyond k: cancel
    expect([mark('cancel'), mark('multi-cancel'), mark('grant-bypass')]).toEqual([1, 0, 0]);
    await deliver(c.net, 2, 0, 'request'); // P2 between them: Σ = 3 ≤ k and x = 1 ≥ 1: OK past P1
    expect(mark('grant-bypass')).toBe(1);
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 0,
      Que: [
        [1, 1, 2, 'wait', 0],
        [2, 1, 1, 'ok', 0],
        [3, 1, 2, 'cancel', 0],
      ],
    });
    await deliverAll(c.net);
    await Promise.all(done);
    expect(c.firstViolation).toBeNull();
    expect(mark('multi-cancel')).toBe(0);
    expect(inspectH(c, 0).arbiter).toEqual({ x: 3, Que: [] });
  });

  it('k = 2: a request beyond the first k units gets no OK, even with x ≥ h (its own units count)', async () => {
    const c = fixedCluster(n, 2, [0]);
    const done = [cycle(c, 3, 1), cycle(c, 1, 2), cycle(c, 2, 1)];
    await c.net.settle();
    await deliver(c.net, 3, 0, 'request'); // P3 holds 1: x = 1
    await deliver(c.net, 1, 0, 'request'); // P1 (2) first: waits, P3 cancelled
    await deliver(c.net, 2, 0, 'request'); // P2 (1) second: 2 + 1 > k although x = 1 ≥ 1
    expect(queuedList(c.net).filter((m) => m.startsWith('0→2'))).toEqual([]);
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 1,
      Que: [
        [1, 1, 2, 'wait', 0],
        [2, 1, 1, 'wait', 0],
        [3, 1, 1, 'cancel', 0],
      ],
    });
    await deliverAll(c.net);
    await Promise.all(done);
    expect(c.firstViolation).toBeNull();
    expect(inspectH(c, 0).arbiter).toEqual({ x: 2, Que: [] });
  });

  it('units is h while InCS and 0 otherwise; exit forgets the request (inspect)', async () => {
    const c = fixedCluster(n, 3, [0]);
    const cs = c.objects[1] as unknown as HOutOfKCS;
    expect(cs.units).toBe(0);
    c.monitor.setRequest(1, 2);
    const e = c.objects[1]!.entry(2);
    await c.net.settle();
    expect(cs.units).toBe(0);
    await deliverAll(c.net);
    await e;
    expect(cs.units).toBe(2);
    expect(inspectH(c, 1).requester).toMatchObject({ request: 0, h: 2, In: true, K: [0] });
    await c.objects[1]!.exit();
    expect(cs.units).toBe(0);
    expect(inspectH(c, 1).requester).toEqual({ request: -1, seq: 1, h: 0, In: false, waiting: false, K: [] });
    await deliverAll(c.net);
    expect(inspectH(c, 0).arbiter).toEqual({ x: 3, Que: [] });
  });

  it('an OK from outside Q and a request from outside the reporters are dropped as ProtocolErrors', async () => {
    const c = fixedCluster(n, 2, [0]);
    c.monitor.setRequest(1, 1);
    const e1 = c.objects[1]!.entry(1); // Q = {P0}
    await c.net.settle();
    c.net.endpoint(3).send(1, { type: 'OK', seq: 0, ts: 1 }); // P3 is no arbiter of P1
    await deliver(c.net, 3, 1, 'OK');
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspectH(c, 1).requester.K).toEqual([]);
    c.net.endpoint(2).send(1, { type: 'request', h: 1, c: 50, seq: 0 }); // P1 arbitrates nobody
    await deliver(c.net, 2, 1, 'request');
    expect(inspectH(c, 1).arbiter).toEqual({ x: 2, Que: [] });
    expect(inspectH(c, 1).c).toBe(1); // both dropped before the clock: still entry's c = 1
    expect(queuedList(c.net).filter((m) => m.startsWith('1→2'))).toEqual([]);
    expect(
      c.errors.map(({ error, process }) => [process, error instanceof ProtocolError, error.message]),
    ).toEqual([
      [1, true, 'hOutOfK: P1 got OK from P3, which is not in its quorum Q = {0}'],
      [1, true, 'hOutOfK: P1 got request(h = 1) from P2, whose quorum for 1 units does not contain P1'],
    ]);
    expect(c.errors.map(({ error }) => (error as ProtocolError).from)).toEqual([3, 2]);
    await deliverAll(c.net);
    await e1;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('a second request from a process already in Que is set aside and its first request probed (issue 27 §3)', async () => {
    const c = fixedCluster(n, 2, [0]);
    c.monitor.setRequest(1, 1);
    const e1 = c.objects[1]!.entry(1);
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request');
    c.net.endpoint(1).send(0, { type: 'request', h: 1, c: 9, seq: 5 });
    await deliver(c.net, 1, 0, 'request');
    expect(c.errors).toEqual([]);
    expect(inspectH(c, 0).arbiter).toEqual({ x: 1, Que: [[1, 1, 1, 'ok', 0]], aside: [[1, 5]] });
    expect(queuedList(c.net)).toEqual(['0→1 OK', '0→1 probe']);
    await deliverAll(c.net);
    await e1;
  });
});
