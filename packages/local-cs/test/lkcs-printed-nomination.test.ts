/**
 * LKCS's leader with the nomination rule as printed (Algorithm 4's `while` with `wait until
 * (Waiting_LDR < |N_LDR| + 1)` after a nomination; `lkcsWith(…, 'printed')`, tests only): once
 * TriggerNomination has sent a Trigger, the leader nominates nobody else until Waiting_LDR drops
 * below |N_LDR| + 1, whatever events arrive meanwhile. The scene is the one of
 * lkcs-trigger-candidate.test.ts (complete(5), (l, k) = (0, 5), leader P0, one forged Release
 * from P4): P0 is nominated for MUTEX, as the candidate. Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core';
import { createCluster, deliver, queuedList, type SimCluster } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeInitial } from '../src/config.js';
import { complete } from '../src/graphs.js';
import { lkcsWith } from '../src/lkcs.js';
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
    factory: lkcsWith({ graph: g, l: 0, k: 5 }, 'printed'),
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

describe('LKCS leader, printed rule: one nomination until Waiting_LDR drops', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('sends no second Trigger while Waiting_LDR stays at |N_LDR| + 1', async () => {
    const c = await scene();
    expect(triggers(c)).toEqual(['0→0 Trigger']);
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
    await deliver(c.net, 0, 0, 'Grant'); // an event at the leader, Waiting_LDR still 5
    c.net.endpoint(1).send(0, { type: 'Grant', at: 'MUTEX', req: 1, ts: 12 });
    await deliver(c.net, 1, 0, 'Grant');
    expect(inspect(c, 0).nGrants.MUTEX).toEqual([0, 1]);
    expect(triggers(c)).toEqual(['0→0 Trigger']);
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
  });
});
