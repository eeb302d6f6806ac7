/**
 * LKCS's requester (Kamei & Kakugawa 2017, Algorithm 5 "Grant", "Preempt"; Algorithm 7 "Trigger")
 * with the tags of the README: a Grant counts for the request waiting of its type — once the
 * request was re-issued by a Trigger, the sidetrack's Grant names it too — and one for a request
 * this process does not know is given back with a Release naming it (deviation 11); a Preempt is
 * answered with Relinquish only for the request waiting, of that type, from a granter, and never
 * after the Trigger (the sidetrack's grants cannot be given back); a Trigger from the leader
 * re-requests by RequestByTrigger only for the request waiting of that type, once, and one naming
 * a request of that type never issued is refused with a Release naming it. complete(5), (l, k) = (0, 5):
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

/** The messages queued `from → to`, in order. */
const sent = (c: SimCluster, from: number, to: number) =>
  c.net
    .snapshot()
    .links.filter((l) => l.from === from && l.to === to)
    .flatMap((l) => l.queued);

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
    await to1(c, 3, 'Grant', 'MUTEX', 0); // other type: the grant P1 holds (InCS), asked about again
    expect(reached.counts.get('lkcs:stale-grant')).toBe(1);
    await to1(c, 3, 'Grant', 'MUTEX', 1); // other type, a request P1 does not know: given back
    await to1(c, 3, 'Grant', 'MUTIN', 0); // not the request waiting: given back
    expect(reached.counts.get('lkcs:grant-returned')).toBe(2);
    expect(sent(c, 1, 3)).toMatchObject([
      { type: 'Request', at: 'MUTIN', req: 1 },
      { type: 'Release', at: 'MUTEX', req: 1 },
      { type: 'Release', at: 'MUTIN', req: 0 },
    ]);
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([]);
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
    await to1(c, 0, 'Trigger', 'MUTEX', 0); // other type
    await to1(c, 0, 'Trigger', 'MUTIN', 0); // an earlier request
    expect(reached.counts.get('lkcs:trigger-ignored')).toBe(2);
    await to1(c, 0, 'Trigger', 'MUTIN', 2); // a request P1 never issued: refused
    expect(reached.counts.get('lkcs:trigger-refused')).toBe(1);
    expect(sent(c, 1, 0)).toMatchObject([
      { type: 'Request', at: 'MUTIN', req: 1 },
      { type: 'Release', at: 'MUTIN', req: 2 },
    ]);
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
    await to1(c, 2, 'Grant', 'MUTIN', 1); // the sidetrack's grant (it names the request) counts
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([2]);
    await to1(c, 4, 'Grant', 'MUTIN', 0); // the printed sidetrack's tag (0) is not the request's: given back
    expect(reached.counts.get('lkcs:grant-returned')).toBe(1);
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([2]);
    await to1(c, 2, 'Preempt', 'MUTIN', 1);
    expect(reached.counts.get('lkcs:relinquish')).toBeUndefined();
    expect(inspect(c, 1).nGrants.MUTIN).toEqual([2]);
  });
});
