/**
 * LKCS's leader with the nomination rule as printed (Algorithm 4's `while` with `wait until
 * (Waiting_LDR < |N_LDR| + 1)` after a nomination; `lkcsWith(…, 'printed')`, tests only): once
 * TriggerNomination has sent a Trigger, the leader nominates nobody else until Waiting_LDR drops
 * below |N_LDR| + 1, whatever events arrive meanwhile. The scene is lkcs-candidate-scene.ts's
 * (complete(5), (l, k) = (0, 5), leader P0, one forged Release
 * from P4): P0 is nominated for MUTEX, as the candidate. And no nomination is out before the
 * leader's first wait: if Waiting_LDR = |N_LDR| + 1 already when it first asks, it nominates at
 * once. Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { deliver } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lkcsWith } from '../src/lkcs.js';
import {
  candidateScene,
  graph,
  inspect,
  leaderCluster,
  leaderWaits,
  sentTriggers,
  to0,
  triggers,
} from './lkcs-candidate-scene.js';

const scene = () => candidateScene(lkcsWith({ graph, l: 0, k: 5 }, 'printed'));

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

  it('nominates at the leader’s first wait if Waiting_LDR = |N_LDR| + 1 already', async () => {
    // (l, k) = (0, 4): (L, K) = (1, 3), P0 gives 4 MUTIN and 3 MUTEX grants; P0 and P4 OutCS
    const initial = ['OutCS', 'InCS', 'InCS', 'InCS', 'OutCS'] as const;
    const c = leaderCluster(lkcsWith({ graph, l: 0, k: 4 }, 'printed'), 0, 4, [...initial]);
    await to0(c, 1, 'Request', 'MUTIN', 1, 2);
    await to0(c, 2, 'Request', 'MUTIN', 1, 2); // MUTIN: P0, P4, P1, P2 — exhausted
    await to0(c, 3, 'Request', 'MUTIN', 1, 3); // pending
    await to0(c, 4, 'Request', 'MUTEX', 1, 4); // MUTEX: P1, P2, P3 — exhausted: pending
    // P4, waiting to enter, gives its MUTIN grant back and asks to exit as well (both forged; a
    // Request while its entry stood would be set aside, README deviation 10): the grant goes to
    // P3, P4's request waits
    await to0(c, 4, 'Release', 'MUTIN', 0, 5);
    await to0(c, 4, 'Request', 'MUTIN', 2, 5);
    const { MUTIN, MUTEX } = inspect(c, 0).arbiter;
    expect([MUTIN.pendingReq.map((e) => e[0]), MUTEX.pendingReq.map((e) => e[0])]).toEqual([[4], [4]]);
    expect(MUTIN.grantedTo.map((e) => e[0]).sort()).toEqual([0, 1, 2, 3]);
    // Waiting_LDR = 1 + 1 + |{P1, P2, P3}| = 5 while P0 does not wait: nothing yet
    expect(reached.counts.get('lkcs:trigger-nomination')).toBeUndefined();
    await leaderWaits(c); // P0 enters: it nominates at once, before its own Request arrives
    expect(reached.counts.get('lkcs:trigger-nomination')).toBe(1);
    expect(sentTriggers(c)).toEqual(['0→4 Trigger MUTEX #1']);
  });
});
