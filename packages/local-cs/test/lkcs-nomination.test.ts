/**
 * LKCS's leader (Kamei & Kakugawa 2017, Algorithm 4's `while` at P_LDR, Algorithm 6
 * TriggerNomination, Algorithm 7): while the leader waits, when Waiting_LDR = |pendingReq[MUTIN]| +
 * |pendingReq[MUTEX]| + |Grant_LDR| (the processes granted both types) reaches |N_LDR| + 1, it
 * nominates one trigger for an exhausted type — deleteMin(pendingReq[at]) — and tracks it until its
 * sidetrack is used. complete(5), (l, k) = (0, 5): leader P0, (L, K) = (1, 4), so each arbiter gives
 * at most 4 MUTIN and 4 MUTEX grants; initially P0 OutCS and P1..P4 InCS. P0 asks to enter while
 * P1..P4 ask to exit (their Requests to P0 are injected). The printed nomination rule
 * (`lkcsWith(…, 'printed')`) forgets the nomination once the nominee uses the sidetrack, and then
 * a process holding a sidetrack grant (ts 0) is never a candidate. And the leader nominates only
 * while it waits itself. Controlled mode.
 */
import type { CSFactory } from '@critsec/core';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import type { SimCluster } from '@critsec/harness';
import { deliver } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lkcs, lkcsWith } from '../src/lkcs.js';
import { graph as g, inspect, leaderCluster, to0, triggers } from './lkcs-candidate-scene.js';

/** (l, k) = (0, 5): the safe initial configuration of (L, K) = (1, 4), P0 OutCS. */
const start = (factory: CSFactory) => leaderCluster(factory, 0, 5, ['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);

describe('LKCS leader: TriggerNomination (Algorithms 4, 6, 7)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  /** P0 enters (MUTEX, tag 1) while P1..P4 exit: P0 is nominated for MUTEX at P4's Request. */
  async function firstNomination(factory: CSFactory): Promise<SimCluster> {
    const c = start(factory);
    void c.objects[0]!.entry(); // a MUTEX request (tag 1)
    await c.net.settle();
    await deliver(c.net, 0, 0, 'Request'); // MUTEX: 4 grants out (P1..P4), P0 waits: Waiting_LDR = 1
    for (const j of [1, 2, 3]) await to0(c, j, 'Request', 'MUTIN', 1, 2); // MUTIN granted (P0's own OutCS grant + P1..P3 = 4)
    expect(reached.counts.get('lkcs:trigger-nomination')).toBeUndefined(); // Waiting_LDR = 1 + 3 = 4
    expect(triggers(c)).toEqual([]);
    await to0(c, 4, 'Request', 'MUTIN', 1, 2); // P4 waits for MUTIN: Waiting_LDR = 1 + 1 + 3 = 5
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
    expect(triggers(c)).toEqual(['0→0 Trigger']);
    return c;
  }

  it('nominates when Waiting_LDR = |N_LDR| + 1 the earliest waiting request of an exhausted type, one trigger per type', async () => {
    const c = await firstNomination(lkcs({ graph: g, l: 0, k: 5 }));
    const leader = inspect(c, 0);
    expect(leader.outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    expect(leader.arbiter.MUTEX.pendingReq).toEqual([]); // deleteMin(pendingReq[MUTEX])
    expect(leader.arbiter.MUTIN.pendingReq).toEqual([[4, 2, 1]]);
    await deliver(c.net, 0, 0, 'Trigger'); // P0 re-requests by the sidetrack
    expect(inspect(c, 0).triggered.MUTEX).toBe(true);
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1); // no second trigger meanwhile
    await deliver(c.net, 0, 0, 'RequestByTrigger');
    expect(inspect(c, 0).outstanding.MUTEX).toEqual([0, 'sidetrack']);
    expect(inspect(c, 0).arbiter.MUTEX.grantedTo[0]).toEqual([0, 0, 1]); // the sidetrack grant: ts 0, P0's request (tag 1)
    // P0 now holds both types' grants here: Waiting_LDR = 1 + 4 = 5 again; MUTEX's trigger is still out,
    // so the other exhausted type is served: P4, the earliest MUTIN request
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(2);
    expect(triggers(c)).toEqual(['0→4 Trigger']);
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: [4, 'nominated'], MUTEX: [0, 'sidetrack'] });
    // a MUTEX Release from P0 naming another request (what it sends to give back a grant it does
    // not know) ends no grant here: the sidetrack is still in use
    await deliver(c.net, 0, 0, 'Grant'); // P0's own sidetrack grant, ahead on the link
    await to0(c, 0, 'Release', 'MUTEX', 99, 3);
    expect(inspect(c, 0).outstanding.MUTEX).toEqual([0, 'sidetrack']);
    expect(inspect(c, 0).arbiter.MUTEX.grantedTo[0]).toEqual([0, 0, 1]);
  });

  it('printed rule: the sidetrack holder (ts 0) is no MUTEX candidate once its nomination is forgotten', async () => {
    const c = await firstNomination(lkcsWith({ graph: g, l: 0, k: 5 }, 'printed'));
    await deliver(c.net, 0, 0, 'Trigger'); // Waiting_LDR = 4 < 5: the printed rule may nominate again
    await deliver(c.net, 0, 0, 'RequestByTrigger');
    const leader = inspect(c, 0);
    expect(leader.arbiter.MUTEX.grantedTo[0]).toEqual([0, 0, 1]);
    expect(leader.arbiter.MUTEX.pendingReq).toEqual([]);
    // Waiting_LDR = 5 again; no MUTEX nomination is remembered and pendingReq[MUTEX] is empty: the
    // candidates are processes granted both types whose request is for MUTEX, by the sidetrack
    // excepted — P0 is the only such process, so nobody; MUTIN is served: P4
    expect(reached.counts.get('lkcs:trigger-candidate')).toBeUndefined();
    expect(triggers(c)).toEqual(['0→4 Trigger']);
    expect(leader.outstanding).toEqual({ MUTIN: [4, 'nominated'], MUTEX: null });
  });

  for (const [rule, factory] of [
    ['one per type', lkcs({ graph: g, l: 0, k: 5 })],
    ['printed', lkcsWith({ graph: g, l: 0, k: 5 }, 'printed')],
  ] as const) {
    it(`${rule}: nominates nobody while the leader does not wait, though Waiting_LDR = |N_LDR| + 1; at once when it asks`, async () => {
      const c = start(factory);
      await to0(c, 4, 'Request', 'MUTIN', 1, 2); // P4 exits: granted (P0, P4)
      await to0(c, 4, 'Release', 'MUTEX', 0, 3); // … and completes: its MUTEX grant comes back
      const entry = c.objects[0]!.entry(); // P0 enters: granted by itself (P1..P3 + P0)
      await c.net.settle();
      await deliver(c.net, 0, 0, 'Request');
      await deliver(c.net, 0, 0, 'Grant');
      for (const j of [1, 2, 3, 4]) await to0(c, j, 'Grant', 'MUTEX', 1, 4);
      await entry; // InCS: its Release of MUTIN to itself is still in flight
      expect(inspect(c, 0).waiting).toBeNull();
      await to0(c, 1, 'Request', 'MUTIN', 1, 5);
      await to0(c, 2, 'Request', 'MUTIN', 1, 5); // MUTIN: P0, P4, P1, P2 — exhausted
      await to0(c, 3, 'Request', 'MUTIN', 1, 6); // pending
      await to0(c, 4, 'Request', 'MUTEX', 2, 7); // P4 enters again: pending (MUTEX: P1..P3, P0)
      const leader = inspect(c, 0).arbiter;
      expect(leader.MUTIN.pendingReq.map((e) => e[0])).toEqual([3]);
      expect(leader.MUTEX.pendingReq.map((e) => e[0])).toEqual([4]);
      // Waiting_LDR = 1 + 1 + |{P0, P1, P2}| = 5, both types exhausted — but P0 does not wait
      expect(reached.counts.get('lkcs:trigger-nomination')).toBeUndefined();
      expect(triggers(c)).toEqual([]);
      // P0 exits: waiting now, it nominates at once (the printed rule too: no nomination was out)
      void c.objects[0]!.exit();
      expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
      expect(triggers(c)).toEqual(['0→4 Trigger']); // deleteMin(pendingReq[MUTEX])
    });
  }
});
