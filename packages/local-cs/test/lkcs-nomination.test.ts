/**
 * LKCS's leader (Kamei & Kakugawa 2017, Algorithm 4's `while` at P_LDR, Algorithm 6
 * TriggerNomination, Algorithm 7): while the leader waits, when Waiting_LDR = |pendingReq[MUTIN]| +
 * |pendingReq[MUTEX]| + |Grant_LDR| (the processes granted both types) reaches |N_LDR| + 1, it
 * nominates one trigger for an exhausted type — deleteMin(pendingReq[at]) — and tracks it until its
 * sidetrack is used. complete(5), (l, k) = (0, 5): leader P0, (L, K) = (1, 4), so each arbiter gives
 * at most 4 MUTIN and 4 MUTEX grants; initially P0 OutCS and P1..P4 InCS. P0 asks to enter while
 * P1..P4 ask to exit (their Requests to P0 are injected). Controlled mode.
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

describe('LKCS leader: TriggerNomination (Algorithms 4, 6, 7)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('nominates when Waiting_LDR = |N_LDR| + 1 the earliest waiting request of an exhausted type, one trigger per type', async () => {
    const c: SimCluster = createCluster({
      factory: lkcs({ graph: g, l: 0, k: 5 }),
      spec: plan.spec,
      initial: safeInitial(plan.tightened),
      mode: 'controlled',
    });
    expect(c.objects.map((o) => o.state)).toEqual(['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);
    void c.objects[0]!.entry(); // a MUTEX request (tag 1)
    await c.net.settle();
    await deliver(c.net, 0, 0, 'Request'); // MUTEX: 4 grants out (P1..P4), P0 waits: Waiting_LDR = 1
    for (const j of [1, 2, 3]) {
      c.net.endpoint(j).send(0, { type: 'Request', at: 'MUTIN', req: 1, ts: 2 });
      await deliver(c.net, j, 0, 'Request'); // MUTIN granted (P0's own OutCS grant + P1..P3 = 4)
    }
    expect(reached.counts.get('lkcs:trigger-nomination')).toBeUndefined(); // Waiting_LDR = 1 + 3 = 4
    expect(queuedList(c.net).filter((e) => e.endsWith(' Trigger'))).toEqual([]);
    c.net.endpoint(4).send(0, { type: 'Request', at: 'MUTIN', req: 1, ts: 2 });
    await deliver(c.net, 4, 0, 'Request'); // P4 waits for MUTIN: Waiting_LDR = 1 + 1 + 3 = 5
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
    expect(queuedList(c.net).filter((e) => e.endsWith(' Trigger'))).toEqual(['0→0 Trigger']);
    const leader = inspect(c, 0);
    expect(leader.outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    expect(leader.arbiter.MUTEX.pendingReq).toEqual([]); // deleteMin(pendingReq[MUTEX])
    expect(leader.arbiter.MUTIN.pendingReq).toEqual([[4, 2, 1]]);
    await deliver(c.net, 0, 0, 'Trigger'); // P0 re-requests by the sidetrack
    expect(inspect(c, 0).triggered.MUTEX).toBe(true);
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1); // no second trigger meanwhile
    await deliver(c.net, 0, 0, 'RequestByTrigger');
    expect(inspect(c, 0).outstanding.MUTEX).toEqual([0, 'sidetrack']);
    expect(inspect(c, 0).arbiter.MUTEX.grantedTo[0]).toEqual([0, 0, 0]); // the sidetrack grant, ts 0
    // P0 now holds both types' grants here: Waiting_LDR = 1 + 4 = 5 again; MUTEX's trigger is still out,
    // so the other exhausted type is served: P4, the earliest MUTIN request
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(2);
    expect(queuedList(c.net).filter((e) => e.endsWith(' Trigger'))).toEqual(['0→4 Trigger']);
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: [4, 'nominated'], MUTEX: [0, 'sidetrack'] });
  });
});
