/**
 * LKCS's leader tracks each nominated trigger (the README's one-per-type rule, Algorithm 4's
 * `wait until` made per type): a nominee chosen among the candidates (Algorithm 6, granted both
 * types already) that completes its request normally ends its nomination with its Release of the
 * *other* type; a Release from another process, or of the nominee's own type while it has not
 * used the sidetrack, ends nothing. The scene is the one of lkcs-trigger-candidate.test.ts
 * (complete(5), (l, k) = (0, 5), leader P0; one forged Release from P4 to reach it): P0 nominated
 * for MUTEX (its own entry), then P1 for MUTIN (its exit). Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core';
import { createCluster, deliver, queuedList, type SimCluster } from '@critsec/testing';
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
const triggers = (c: SimCluster) => queuedList(c.net).filter((e) => e.endsWith(' Trigger'));

type Type = 'Request' | 'Release' | 'RequestByTrigger';

/** Sends `type` for `at` with tag `req` and timestamp `ts` from `from` to P0 and delivers it. */
async function to0(c: SimCluster, from: number, type: Type, at: 'MUTIN' | 'MUTEX', req: number, ts: number) {
  c.net.endpoint(from).send(0, { type, at, req, ts });
  await deliver(c.net, from, 0, type);
}

/**
 * P0 waits for MUTEX (entry, tag 1), granted MUTEX by itself; P1, P2 and P3 wait for MUTIN,
 * granted by P0; P4 waits for MUTIN, pending at P0. Waiting_LDR = 1 + 4 = 5: MUTIN is exhausted
 * (P0, P1, P2, P3), `pendingReq[MUTEX]` is empty, and the only process granted both types whose
 * request is of type MUTEX is P0.
 */
async function scene(): Promise<SimCluster> {
  const initial = safeInitial(plan.tightened);
  expect(initial).toEqual(['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);
  const c = createCluster({
    factory: lkcs({ graph: g, l: 0, k: 5 }),
    spec: plan.spec,
    initial,
    mode: 'controlled',
  });
  await to0(c, 4, 'Request', 'MUTIN', 1, 2); // P4 exits: granted MUTIN
  await to0(c, 4, 'Release', 'MUTEX', 0, 3); // … and completes: its MUTEX grant comes back
  void c.objects[0]!.entry();
  await c.net.settle();
  await deliver(c.net, 0, 0, 'Request'); // P0's MUTEX request: granted at once (3 + 1)
  await to0(c, 1, 'Request', 'MUTIN', 1, 8);
  await to0(c, 2, 'Request', 'MUTIN', 1, 8); // MUTIN: P0 (initial), P4, P1, P2 — exhausted
  await to0(c, 3, 'Request', 'MUTIN', 1, 9); // pending, the latest: no Preempt
  expect(inspect(c, 0).arbiter.MUTIN.pendingReq.map((e) => e[0])).toEqual([3]);
  await to0(c, 4, 'Release', 'MUTIN', 1, 10); // forged: P3 is granted in P4's place
  expect(triggers(c)).toEqual([]); // Waiting_LDR = 4 (P0 .. P3 granted both)
  await to0(c, 4, 'Request', 'MUTIN', 2, 11); // pending: Waiting_LDR = 5
  return c;
}

describe('LKCS leader: a candidate nominee completing normally (Release of the other type)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('ends the nomination of that nominee only, on its Release of the other type', async () => {
    const c = await scene();
    await to0(c, 4, 'Release', 'MUTIN', 2, 12);
    await to0(c, 4, 'Request', 'MUTEX', 3, 13);
    expect(triggers(c)).toEqual(['0→0 Trigger', '0→1 Trigger']);
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: [1, 'nominated'], MUTEX: [0, 'nominated'] });
    expect(reached.counts.get('lkcs:nominee-completed')).toBeUndefined();
    // P1 completes its exit without the Trigger (all its MUTIN grants came): Release MUTEX
    await to0(c, 1, 'Release', 'MUTEX', 0, 14);
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    expect(reached.counts.get('lkcs:nominee-completed')).toBe(1);
    // P0 completes its entry the same way (its own grant, then P1..P4's): Release MUTIN to all
    await deliver(c.net, 0, 0, 'Grant');
    for (const j of [1, 2, 3, 4]) {
      c.net.endpoint(j).send(0, { type: 'Grant', at: 'MUTEX', req: 1, ts: 15 });
      await deliver(c.net, j, 0, 'Grant');
    }
    await c.net.settle();
    expect(c.objects[0]!.state).toBe('InCS');
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    await deliver(c.net, 0, 0, 'Trigger'); // too late: ignored
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    await deliver(c.net, 0, 0, 'Release');
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: null, MUTEX: null });
    expect(reached.counts.get('lkcs:nominee-completed')).toBe(2);
  });
});
