/**
 * LKCS's leader tracks each nominated trigger (the README's one-per-type rule, Algorithm 4's
 * `wait until` made per type): a nominee chosen among the candidates (Algorithm 6, granted both
 * types already) that completes its request normally ends its nomination with its Release of the
 * *other* type; a Release from another process, or of the nominee's own type while it has not
 * used the sidetrack, ends nothing. The scene is lkcs-candidate-scene.ts's
 * (complete(5), (l, k) = (0, 5), leader P0; one forged Release from P4 to reach it): P0 nominated
 * for MUTEX (its own entry), then P1 for MUTIN (its exit). Controlled mode.
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { deliver } from '@critsec/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lkcs } from '../src/lkcs.js';
import { candidateScene, graph, inspect, to0, triggers } from './lkcs-candidate-scene.js';

/** The candidate scene, then P4 asks for MUTEX instead: P0 nominated for MUTEX, P1 for MUTIN. */
async function twoNominees() {
  const c = await candidateScene(lkcs({ graph, l: 0, k: 5 }));
  await to0(c, 4, 'Release', 'MUTIN', 2, 12);
  await to0(c, 4, 'Request', 'MUTEX', 3, 13);
  expect(triggers(c)).toEqual(['0→0 Trigger', '0→1 Trigger']);
  expect(inspect(c, 0).outstanding).toEqual({ MUTIN: [1, 'nominated'], MUTEX: [0, 'nominated'] });
  return c;
}

describe('LKCS leader: a candidate nominee completing normally (Release of the other type)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('ends the nomination of that nominee only, on its Release of the other type', async () => {
    const c = await twoNominees();
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

  it('a Release of the nominee’s own type before it used the sidetrack ends nothing, unless it names the request nominated (a refusal)', async () => {
    const c = await twoNominees();
    // P1 waits for MUTIN (tag 1) and has not re-requested by the sidetrack: an honest P1 sends no
    // Release of MUTIN now (forged)
    await to0(c, 1, 'Release', 'MUTIN', 7, 14);
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: [1, 'nominated'], MUTEX: [0, 'nominated'] });
    expect(reached.counts.get('lkcs:nominee-completed')).toBeUndefined();
    // naming the request the Trigger named: what a nominee that never issued it answers
    await to0(c, 1, 'Release', 'MUTIN', 1, 15);
    expect(inspect(c, 0).outstanding).toEqual({ MUTIN: null, MUTEX: [0, 'nominated'] });
    expect(reached.counts.get('lkcs:nomination-refused')).toBe(1);
    expect(reached.counts.get('lkcs:nominee-completed')).toBeUndefined();
  });
});
