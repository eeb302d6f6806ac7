/**
 * LKCS's leader, Algorithm 6's second choice (Kamei & Kakugawa 2017): when Waiting_LDR =
 * |N_LDR| + 1 and `pendingReq[at]` of an exhausted type is empty, TriggerNomination picks the
 * earliest *candidate* — a process granted both types at the leader whose current request
 * (its last Request) is of type `at`, not by the sidetrack (ts ≠ 0) — and sends it a Trigger for
 * that request, without touching `pendingReq`. complete(5), (l, k) = (0, 5): leader P0,
 * (L, K) = (1, 4), so each of P0's arbiters gives at most 4 grants; initially P0 OutCS and
 * P1..P4 InCS. Every neighbour's message to P0 is injected. With honest neighbours every process
 * holds one type's grant at the leader, and Waiting_LDR = 5 with `pendingReq[at]` empty would need
 * more than 4 grants of a type: so P4 here gives up a MUTIN grant it never asked for (a Release
 * the protocol would not send) to reach that state; the leader's reaction is Algorithm 6's.
 * Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lkcs } from '../src/lkcs.js';
import { candidateScene, graph, inspect, to0, triggers } from './lkcs-candidate-scene.js';

const scene = () => candidateScene(lkcs({ graph, l: 0, k: 5 }));

describe('LKCS leader: the candidate when pendingReq[at] is empty (Algorithm 6)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('nominates the earliest process granted both types whose request is of that type, pendingReq untouched', async () => {
    const c = await scene();
    const leader = inspect(c, 0);
    expect(leader.arbiter.MUTIN.grantedTo.map((e) => e[0]).sort()).toEqual([0, 1, 2, 3]);
    expect(leader.arbiter.MUTEX.grantedTo.map((e) => e[0]).sort()).toEqual([0, 1, 2, 3]);
    expect(leader.arbiter.MUTEX.pendingReq).toEqual([]);
    expect(reached.counts.get('lkcs:trigger-candidate')).toBe(1);
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
    // P1..P3 are granted both types too, but their requests are for MUTIN: P0, for its own request
    expect(triggers(c)).toEqual(['0→0 Trigger']);
    const t = c.net
      .snapshot()
      .links.flatMap((l) => (l.from === 0 && l.to === 0 ? l.queued : []))
      .find((m) => m.type === 'Trigger');
    expect(t).toMatchObject({ type: 'Trigger', at: 'MUTEX', req: 1 });
    expect(leader.outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    expect(leader.arbiter.MUTIN.pendingReq.map((e) => e[0])).toEqual([4]); // not a deleteMin
  });

  it('with MUTEX’s trigger out, nominates for MUTIN the earliest candidate whose request is for MUTIN', async () => {
    const c = await scene();
    // P4 withdraws its MUTIN request and asks for MUTEX instead: Waiting_LDR = 4 + 1 = 5 again,
    // MUTIN's pendingReq is empty, MUTEX is exhausted, MUTEX's trigger (P0) is still out
    await to0(c, 4, 'Release', 'MUTIN', 2, 12);
    expect(reached.counts.get('lkcs-MUTIN:cancel-pending')).toBe(1); // MUTIN's arbiter withdrew it
    expect(triggers(c)).toEqual(['0→0 Trigger']);
    await to0(c, 4, 'Request', 'MUTEX', 3, 13);
    const leader = inspect(c, 0);
    expect(leader.arbiter.MUTIN.pendingReq).toEqual([]);
    expect(leader.arbiter.MUTEX.pendingReq.map((e) => e[0])).toEqual([4]);
    expect(reached.counts.get('lkcs:trigger-candidate')).toBe(2);
    // P0 is granted both, its MUTIN grant is the earliest (the initial one, ts 1) but its request
    // is for MUTEX: P1 is the earliest MUTIN candidate (ts 8, tag 1)
    expect(triggers(c)).toEqual(['0→0 Trigger', '0→1 Trigger']);
    const t = c.net
      .snapshot()
      .links.flatMap((l) => (l.from === 0 && l.to === 1 ? l.queued : []))
      .find((m) => m.type === 'Trigger');
    expect(t).toMatchObject({ type: 'Trigger', at: 'MUTIN', req: 1 });
    expect(leader.outstanding).toEqual({ MUTIN: [1, 'nominated'], MUTEX: [0, 'nominated'] });
  });
});
