/**
 * A message about another request changes nothing (README, "Precisions beyond the figure": every
 * message names its request by `seq`; an arbiter takes `cancelled` only for an entry in status
 * cancel). Each case delivers one stale or forged message and asserts that the arbiter's `x` and
 * `Que` are unchanged, that nothing is sent in answer, and that it counts once as the coverage mark
 * `h-out-of-k:stale-ignored` — the mark the compliance suites rely on to claim this path is taken,
 * so it must count exactly these messages and nothing else. One arbiter P0 (every quorum {P0}),
 * n = 4, k = 2; controlled mode; first requests all carry c = 1, so priority is decided by id.
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import type { SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HOutOfKMessage } from '../src/index.js';
import { cycle, fixedCluster, inspectH } from './helpers.js';

const n = 4;
const k = 2;

describe('a stale or forged message about another request changes nothing', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());
  const mark = (name: string) => reached.counts.get(`h-out-of-k:${name}`) ?? 0;

  /** Sends `msg` from P`from` to P`to`, delivers it, and checks it changed nothing at P`to`. */
  async function expectIgnored(
    c: SimCluster<number>,
    from: number,
    to: number,
    msg: HOutOfKMessage,
  ): Promise<void> {
    const before = inspectH(c, to);
    const queued = queuedList(c.net);
    const stale = mark('stale-ignored');
    c.net.endpoint(from).send(to, msg);
    await deliver(c.net, from, to, msg.type);
    const after = inspectH(c, to);
    expect(after.arbiter).toEqual(before.arbiter);
    expect(after.requester).toEqual(before.requester);
    expect(queuedList(c.net)).toEqual(queued); // nothing sent in answer
    expect(mark('stale-ignored')).toBe(stale + 1);
    expect(c.errors).toEqual([]);
  }

  it('release and cancelled from a process with no entry in Que', async () => {
    const c = fixedCluster(n, k, [0]);
    await expectIgnored(c, 2, 0, { type: 'release', seq: 0, ts: 1 });
    await expectIgnored(c, 2, 0, { type: 'cancelled', seq: 0, ts: 1 });
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] });
  });

  it('release of another seq leaves the granted entry and its units in place', async () => {
    const c = fixedCluster(n, k, [0]);
    const p1 = cycle(c, 1, 2);
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request');
    expect(inspectH(c, 0).arbiter).toEqual({ x: 0, Que: [[1, 1, 2, 'ok', 0]] });
    await expectIgnored(c, 1, 0, { type: 'release', seq: 7, ts: 2 });
    await deliverAll(c.net);
    await p1;
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] });
  });

  it('cancelled of another seq for an entry in status cancel: no units come back, nobody else is granted', async () => {
    const c = fixedCluster(n, k, [0]);
    const done = [cycle(c, 3, 1), cycle(c, 1, 2)];
    await c.net.settle();
    await deliver(c.net, 3, 0, 'request'); // P3 holds 1: x = 1
    await deliver(c.net, 1, 0, 'request'); // P1 (2 units) ranks first, waits; P3's OK is cancelled
    expect(inspectH(c, 0).arbiter).toEqual({
      x: 1,
      Que: [
        [1, 1, 2, 'wait', 0],
        [3, 1, 1, 'cancel', 0],
      ],
    });
    // taken, x would be 2 and P1 granted 2 units while P3 enters on the OK in flight: 3 > k
    await expectIgnored(c, 3, 0, { type: 'cancelled', seq: 7, ts: 2 });
    await deliverAll(c.net);
    await Promise.all(done);
    expect(c.firstViolation).toBeNull();
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] });
  });

  it('cancelled of the current seq for an entry in status ok (no cancel was sent): the units stay taken, the OK goes again (issue 27 §3)', async () => {
    const c = fixedCluster(n, k, [0]);
    const done = [cycle(c, 1, 1), cycle(c, 3, 2)];
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request'); // P1 holds 1: x = 1
    await deliver(c.net, 3, 0, 'request'); // P3 (2 units) after P1: 1 + 2 > k, waits
    const before = inspectH(c, 0).arbiter;
    expect(before).toEqual({
      x: 1,
      Que: [
        [1, 1, 1, 'ok', 0],
        [3, 1, 2, 'wait', 0],
      ],
    });
    const queued = queuedList(c.net);
    // a cancel forged in P0's name made P1 give the OK back: P0 never took the units back
    // (taking them would free 2 units: P3 granted beside P1's, 3 > k), it sends the OK again
    c.net.endpoint(1).send(0, { type: 'cancelled', seq: 0, ts: 2 });
    await deliver(c.net, 1, 0, 'cancelled');
    expect(inspectH(c, 0).arbiter).toEqual(before);
    const oks = (list: string[]) => list.filter((m) => m === '0→1 OK').length;
    expect(queuedList(c.net)).toHaveLength(queued.length + 1);
    expect(oks(queuedList(c.net))).toBe(oks(queued) + 1); // the OK, once more
    expect(mark('ok-again')).toBe(1);
    expect(mark('stale-ignored')).toBe(0);
    await deliverAll(c.net);
    await Promise.all(done);
    expect(c.firstViolation).toBeNull();
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] });
  });

  it('a cancel of an earlier request arriving InCS is stale, not a cancel-after-entry', async () => {
    const c = fixedCluster(n, k, [0]);
    const first = cycle(c, 1, 1);
    await deliverAll(c.net);
    await first; // seq 0: entered and left
    c.monitor.setRequest(1, 1);
    const e = c.objects[1]!.entry(1); // seq 1
    await deliverAll(c.net);
    await e;
    expect(c.objects[1]!.state).toBe('InCS');
    await expectIgnored(c, 0, 1, { type: 'cancel', seq: 0, ts: 9 });
    expect(mark('cancel-after-entry')).toBe(0);
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] });
  });
});
