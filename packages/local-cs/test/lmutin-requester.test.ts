/**
 * li-LMUTIN's requester (Kamei & Kakugawa 2017, Algorithm 2: Exit-Sequence, "On receipt of a
 * Grant / Preempt") with the tags of the README: a Grant counts only for the request waiting; a
 * Grant of another request (a withdrawn one, waiting or not, or after the exit completed) is
 * handed back with a Release of its tag — unless the withdrawal's own Release already covers it
 * (the current request, the process back InCS) — and a stray Grant of the current request after
 * the exit completed is ignored; a Preempt is answered with Relinquish only for the request waiting and
 * only by a process whose grant it holds. star(2): the path P1 − P0 − P2, l = 0, everyone InCS.
 * Controlled mode.
 */
import { isAbortError } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localBounds } from '../src/config.js';
import { star } from '../src/graphs.js';
import { type LmutinSnapshot, lmutin } from '../src/lmutin.js';

const g = star(2);
const inspect = (c: SimCluster, i: number) =>
  (c.objects[i] as unknown as { inspect(): LmutinSnapshot }).inspect();

function controlled(): SimCluster {
  return createCluster({
    factory: lmutin({ graph: g, l: 0 }),
    spec: localBounds(g, 0, (_i, d) => d + 1),
    initial: ['InCS', 'InCS', 'InCS'],
    mode: 'controlled',
  });
}

const count = (c: SimCluster, e: string) => queuedList(c.net).filter((x) => x === e).length;

describe('LMUTIN requester: Grant and Preempt (Algorithm 2, tagged)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('a Grant of the request just withdrawn is not answered: the withdrawal’s Release returns it', async () => {
    const c = controlled();
    const ac = new AbortController();
    const exit = c.objects[1]!.exit({ signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 1, 0, 'Request'); // P0 grants
    ac.abort();
    await expect(exit).rejects.toSatisfy(isAbortError);
    expect(count(c, '1→0 Release')).toBe(1);
    const sent = c.net.counters().sent;
    await deliver(c.net, 0, 1, 'Grant');
    expect(c.net.counters().sent).toBe(sent);
    expect(c.objects[1]!.state).toBe('InCS');
    await deliverAll(c.net);
    expect(inspect(c, 0).grantedTo).toEqual([]);
  });

  it('a Grant of an earlier, withdrawn request that arrives while a new one waits is handed back with its tag', async () => {
    const c = controlled();
    const ac = new AbortController();
    const first = c.objects[1]!.exit({ signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 1, 0, 'Request');
    ac.abort();
    await expect(first).rejects.toSatisfy(isAbortError);
    const second = c.objects[1]!.exit(); // request 2
    await c.net.settle();
    await deliver(c.net, 0, 1, 'Grant'); // for request 1
    expect(reached.counts.get('lmutin:grant-returned')).toBe(1);
    expect(inspect(c, 1)).toMatchObject({ request: 2, waiting: true, nGrants: [] });
    const back = c.net.pending().filter((e) => e.kind === 'message' && e.from === 1 && e.to === 0);
    expect(back.map((e) => (e.kind === 'message' ? e.msg.type : ''))).toEqual(['Release']); // the link's head
    await deliverAll(c.net);
    await second;
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspect(c, 0).grantedTo.map(([p]) => p)).toEqual([1]); // only request 2's grant is counted
  });

  it('a Grant of an older withdrawn request that arrives while nothing waits (InCS) is handed back with its tag', async () => {
    const c = controlled();
    for (const request of [1, 2]) {
      const ac = new AbortController();
      const exit = c.objects[1]!.exit({ signal: ac.signal }); // requests 1, then 2, both withdrawn
      await c.net.settle();
      if (request === 1) await deliver(c.net, 1, 0, 'Request'); // P0 grants request 1
      ac.abort();
      await expect(exit).rejects.toSatisfy(isAbortError);
    }
    expect(inspect(c, 1)).toMatchObject({ request: 2, waiting: false });
    const sent = c.net.counters().sent;
    await deliver(c.net, 0, 1, 'Grant'); // request 1's
    expect(c.net.counters().sent).toBe(sent + 1);
    expect(reached.counts.get('lmutin:grant-returned')).toBe(1);
    const back = c.net.snapshot().links.find((l) => l.from === 1 && l.to === 0)!.queued;
    expect(back.at(-1)).toMatchObject({ type: 'Release', req: 1 });
    expect(c.objects[1]!.state).toBe('InCS');
  });

  it('a stray Grant after the exit completed: of the current request ignored, of another handed back with its tag', async () => {
    const c = controlled();
    const exit = c.objects[1]!.exit();
    await c.net.settle();
    await deliverAll(c.net);
    await exit;
    const ep0 = c.net.endpoint(0);
    ep0.send(1, { type: 'Grant', req: 1, ts: 1 });
    const sent = c.net.counters().sent;
    await deliver(c.net, 0, 1, 'Grant');
    expect(c.net.counters().sent).toBe(sent);
    expect(inspect(c, 1)).toMatchObject({ waiting: false, nGrants: [0, 1] });
    ep0.send(1, { type: 'Grant', req: 7, ts: 1 }); // a request P1 never made: no honest neighbour sends it
    await deliver(c.net, 0, 1, 'Grant');
    expect(reached.counts.get('lmutin:grant-returned')).toBe(1);
    expect(c.net.snapshot().links.find((l) => l.from === 1 && l.to === 0)!.queued).toMatchObject([
      { type: 'Release', req: 7 },
    ]);
    expect(inspect(c, 1)).toMatchObject({ waiting: false, nGrants: [0, 1] });
  });

  it('Preempt: Relinquish for the waiting request from a granter; ignored for another tag or when not waiting', async () => {
    const c = controlled();
    const exit = c.objects[1]!.exit();
    await c.net.settle();
    await deliver(c.net, 1, 0, 'Request');
    await deliver(c.net, 0, 1, 'Grant'); // P1 holds P0's grant, waits for its own
    const ep0 = c.net.endpoint(0);
    ep0.send(1, { type: 'Preempt', req: 7, ts: 1 }); // another request
    await deliver(c.net, 0, 1, 'Preempt');
    expect(reached.counts.get('lmutin:preempt-ignored')).toBe(1);
    expect(queuedList(c.net).filter((e) => e.endsWith('Relinquish'))).toEqual([]);
    ep0.send(1, { type: 'Preempt', req: 1, ts: 1 });
    await deliver(c.net, 0, 1, 'Preempt');
    expect(reached.counts.get('lmutin:relinquish')).toBe(1);
    expect(count(c, '1→0 Relinquish')).toBe(1);
    expect(inspect(c, 1).nGrants).toEqual([]);
    await deliverAll(c.net);
    await exit;
    ep0.send(1, { type: 'Preempt', req: 1, ts: 1 }); // not waiting any more
    await deliver(c.net, 0, 1, 'Preempt');
    expect(reached.counts.get('lmutin:preempt-ignored')).toBe(2);
    expect(c.net.pending()).toEqual([]);
  });
});
