/**
 * LKCS's requester (Kamei & Kakugawa 2017, Algorithm 5 "Grant", "Preempt"; Algorithm 7 "Trigger")
 * with the tags of the README: a Grant counts for the request waiting of its type, or — once the
 * request was re-issued by a Trigger — a sidetrack Grant (tag 0); a Preempt is answered with
 * Relinquish only for the request waiting, of that type, from a granter, and never after the
 * Trigger (the sidetrack's grants cannot be given back); a Trigger from the leader re-requests by
 * RequestByTrigger only for the request waiting of that type, once. complete(5), (l, k) = (0, 5):
 * leader P0, (L, K) = (1, 4) everywhere, initially P0 OutCS and P1..P4 InCS. P1 exits (a MUTIN
 * request, tag 1); the other processes' messages to P1 are injected. Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, queuedList } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeInitial } from '../src/config.js';
import { complete } from '../src/graphs.js';
import { lkcs } from '../src/lkcs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import type { LkcsSnapshot } from '../src/lkcs-protocol.js';

const g = complete(5);
const plan = lkcsPlan(g, 0, 5);
const inspect = (c: SimCluster, i: number) =>
  (c.objects[i] as unknown as { inspect(): LkcsSnapshot }).inspect();

async function waitingP1(): Promise<SimCluster> {
  const initial = safeInitial(plan.tightened);
  expect(initial).toEqual(['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);
  const c = createCluster({
    factory: lkcs({ graph: g, l: 0, k: 5 }),
    spec: plan.spec,
    initial,
    mode: 'controlled',
  });
  void c.objects[1]!.exit();
  await c.net.settle();
  return c;
}

/** Sends `type` for `at` with tag `req` from `from` to P1 and delivers it. */
async function to1(
  c: SimCluster,
  from: number,
  type: string,
  at: 'MUTIN' | 'MUTEX',
  req: number,
): Promise<void> {
  c.net.endpoint(from).send(1, { type, at, req, ts: 1 });
  await deliver(c.net, from, 1, type);
}

describe('LKCS requester: Grant, Preempt, Trigger (Algorithms 5 and 7)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('Grant counts for the waiting request of its type; Preempt relinquishes only that request’s grant', async () => {
    const c = await waitingP1();
    await to1(c, 3, 'Grant', 'MUTEX', 1); // other type
    await to1(c, 3, 'Grant', 'MUTIN', 0); // sidetrack grant, but no Trigger yet
    expect(reached.counts.get('lkcs:stale-grant')).toBe(2);
    await to1(c, 3, 'Grant', 'MUTIN', 1);
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([3]);
    await to1(c, 3, 'Preempt', 'MUTIN', 9);
    await to1(c, 3, 'Preempt', 'MUTEX', 1);
    await to1(c, 2, 'Preempt', 'MUTIN', 1); // P2's grant is not here
    expect(reached.counts.get('lkcs:preempt-ignored')).toBe(3);
    expect(queuedList(c.net).filter((e) => e.endsWith('Relinquish'))).toEqual([]);
    await to1(c, 3, 'Preempt', 'MUTIN', 1);
    expect(reached.counts.get('lkcs:relinquish')).toBe(1);
    expect(queuedList(c.net).filter((e) => e.endsWith('Relinquish'))).toEqual(['1→3 Relinquish']);
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([]);
  });

  it('Trigger: only for the waiting request of that type, once; then sidetrack Grants count and Preempts are ignored', async () => {
    const c = await waitingP1();
    await to1(c, 0, 'Trigger', 'MUTEX', 1); // other type
    await to1(c, 0, 'Trigger', 'MUTIN', 2); // other request
    expect(reached.counts.get('lkcs:trigger-ignored')).toBe(2);
    expect(queuedList(c.net).filter((e) => e.endsWith('RequestByTrigger'))).toEqual([]);
    await to1(c, 3, 'Grant', 'MUTIN', 1);
    await to1(c, 0, 'Trigger', 'MUTIN', 1);
    expect(reached.counts.get('lkcs:trigger')).toBe(1);
    expect(queuedList(c.net).filter((e) => e.endsWith('RequestByTrigger'))).toEqual([
      '1→0 RequestByTrigger',
      '1→1 RequestByTrigger',
      '1→2 RequestByTrigger',
      '1→3 RequestByTrigger',
      '1→4 RequestByTrigger',
    ]);
    expect(inspect(c, 1)).toMatchObject({ waiting: 'MUTIN', triggered: { MUTIN: true, MUTEX: false } });
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([]); // the earlier grants are re-requested too
    await to1(c, 0, 'Trigger', 'MUTIN', 1); // a second Trigger: ignored
    expect(reached.counts.get('lkcs:trigger-ignored')).toBe(3);
    expect(queuedList(c.net).filter((e) => e.endsWith('RequestByTrigger'))).toHaveLength(5);
    await to1(c, 2, 'Grant', 'MUTIN', 0); // the sidetrack's grant counts now
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([2]);
    await to1(c, 4, 'Grant', 'MUTIN', 2); // neither the request's tag nor the sidetrack's (0): stale
    expect(reached.counts.get('lkcs:stale-grant')).toBe(1);
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([2]);
    await to1(c, 2, 'Preempt', 'MUTIN', 1);
    expect(reached.counts.get('lkcs:relinquish')).toBeUndefined();
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([2]);
  });
});
