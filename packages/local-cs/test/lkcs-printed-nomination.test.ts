/**
 * LKCS's leader with the nomination rule as printed (Algorithm 4's `while` with `wait until
 * (Waiting_LDR < |N_LDR| + 1)` after a nomination; `lkcsWith(…, 'printed')`, tests only): once
 * TriggerNomination has sent a Trigger, the leader nominates nobody else until Waiting_LDR drops
 * below |N_LDR| + 1, whatever events arrive meanwhile. The scene is lkcs-candidate-scene.ts's
 * (complete(5), (l, k) = (0, 5), leader P0, one forged Release
 * from P4): P0 is nominated for MUTEX, as the candidate. Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core';
import { deliver } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lkcsWith } from '../src/lkcs.js';
import { candidateScene, graph, inspect, triggers } from './lkcs-candidate-scene.js';

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
});
