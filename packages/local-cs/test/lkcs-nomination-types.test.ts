/**
 * LKCS's leader, Algorithm 6 (TriggerNomination) — which types it serves and who is a candidate:
 * a type is served only when the *other* type's grants are exhausted here (|grantedTo[MUTIN]| ≥
 * |N_LDR| − L_LDR + 1 serves MUTEX, |grantedTo[MUTEX]| ≥ K_LDR serves MUTIN); a type with nobody
 * to nominate is passed over (the next type is tried, no Trigger, no error); and a candidate of
 * type `at` (when `pendingReq[at]` is empty) must hold the leader's grant of the *other* type too.
 *
 * complete(5), leader P0, every neighbour's message to P0 injected. With honest neighbours both
 * types are exhausted whenever Waiting_LDR = |N_LDR| + 1 (a waiting process holds the other
 * type's grant), so these scenes forge what tells the rules apart, each said where it is sent:
 * grants given back that their holders never gave back, and a second Request of the other type
 * from a process that already waits. Controlled mode.
 */
import type { CSFactory } from '@critsec/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { lkcs, lkcsWith } from '../src/lkcs.js';
import { graph, inspect, leaderCluster, leaderWaits, sentTriggers, to0 } from './lkcs-candidate-scene.js';

/** P_j's MUTIN and MUTEX grants held at P0, and the waiting requests there, by process. */
function holders(c: Parameters<typeof inspect>[0]) {
  const { MUTIN, MUTEX } = inspect(c, 0).arbiter;
  const ids = (l: readonly (readonly number[])[]) => l.map((e) => e[0]).sort();
  return {
    grantedMUTIN: ids(MUTIN.grantedTo),
    grantedMUTEX: ids(MUTEX.grantedTo),
    pendingMUTIN: ids(MUTIN.pendingReq),
    pendingMUTEX: ids(MUTEX.pendingReq),
  };
}

/**
 * (l, k) = (1, 5): (L, K) = (2, 4), so P0 gives 3 MUTIN and 4 MUTEX grants. P0, P1, P2 InCS exit
 * (granted MUTIN, holding MUTEX); P3 and P4, OutCS, give their MUTIN grants back (forged) and
 * request MUTIN (forged: they are OutCS), pending. Waiting_LDR = 3 + 2 = 5, MUTIN exhausted (3),
 * MUTEX not (3 of 4): only MUTEX is served, and nobody is a MUTEX candidate.
 */
async function mutinExhausted(factory: CSFactory) {
  const c = leaderCluster(factory, 1, 5, ['InCS', 'InCS', 'InCS', 'OutCS', 'OutCS']);
  await leaderWaits(c); // P0 exits: MUTIN granted (P3, P4, P0)
  await to0(c, 3, 'Release', 'MUTIN', 0, 2); // forged
  await to0(c, 4, 'Release', 'MUTIN', 0, 2); // forged
  await to0(c, 1, 'Request', 'MUTIN', 1, 3);
  await to0(c, 2, 'Request', 'MUTIN', 1, 3);
  await to0(c, 3, 'Request', 'MUTIN', 1, 4); // forged
  await to0(c, 4, 'Request', 'MUTIN', 1, 5); // forged
  expect(holders(c)).toEqual({
    grantedMUTIN: [0, 1, 2],
    grantedMUTEX: [0, 1, 2],
    pendingMUTIN: [3, 4],
    pendingMUTEX: [],
  });
  return c;
}

/**
 * (l, k) = (0, 3): (L, K) = (1, 2), so P0 gives 4 MUTIN and 2 MUTEX grants. P3 and P4, InCS, give
 * their MUTEX grants back (forged); P0, P1 (granted) and P2, P3, P4 (pending) request MUTEX.
 * Waiting_LDR = 2 + 3 = 5, MUTEX exhausted (2), MUTIN not (3 of 4): only MUTIN is served, and
 * nobody is a MUTIN candidate.
 */
async function mutexExhausted(factory: CSFactory) {
  const c = leaderCluster(factory, 0, 3, ['OutCS', 'OutCS', 'OutCS', 'InCS', 'InCS']);
  await to0(c, 3, 'Release', 'MUTEX', 0, 1); // forged
  await to0(c, 4, 'Release', 'MUTEX', 0, 1); // forged
  await leaderWaits(c); // P0 enters: MUTEX granted
  await to0(c, 1, 'Request', 'MUTEX', 1, 3);
  await to0(c, 2, 'Request', 'MUTEX', 1, 4);
  await to0(c, 3, 'Request', 'MUTEX', 1, 5);
  await to0(c, 4, 'Request', 'MUTEX', 1, 6);
  expect(holders(c)).toEqual({
    grantedMUTIN: [0, 1, 2],
    grantedMUTEX: [0, 1],
    pendingMUTIN: [],
    pendingMUTEX: [2, 3, 4],
  });
  return c;
}

describe('LKCS leader: the types TriggerNomination serves, and its candidates (Algorithm 6)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  for (const [rule, factory] of [
    ['one per type', lkcs({ graph, l: 1, k: 5 })],
    ['printed', lkcsWith({ graph, l: 1, k: 5 }, 'printed')],
  ] as const) {
    it(`${rule}: MUTIN exhausted, MUTEX not: MUTEX alone is served; a process not holding MUTIN here is no MUTEX candidate`, async () => {
      const c = await mutinExhausted(factory);
      expect(reached.counts.get('lkcs:trigger-candidate')).toBeUndefined(); // nobody: passed over
      expect(sentTriggers(c)).toEqual([]); // not MUTIN: MUTEX's grants are not exhausted
      expect(c.errors).toEqual([]);
      // P3, waiting for MUTIN, asks for MUTEX too (forged): granted (4 of 4), its last Request is
      // MUTEX — but it holds no MUTIN grant here, so it is no MUTEX candidate; MUTEX is now
      // exhausted, so MUTIN is served: deleteMin(pendingReq[MUTIN]) is P3 (printed: the failed
      // nomination above did not count as one)
      await to0(c, 3, 'Request', 'MUTEX', 2, 6);
      expect(holders(c).grantedMUTEX).toEqual([0, 1, 2, 3]);
      expect(sentTriggers(c)).toEqual(['0→3 Trigger MUTIN #1']);
      expect(inspect(c, 0).arbiter.MUTIN.pendingReq.map((e) => e[0])).toEqual([4]);
      expect(c.errors).toEqual([]);
    });
  }

  it('MUTEX exhausted, MUTIN not: MUTIN alone is served; a process not holding MUTEX here is no MUTIN candidate', async () => {
    const c = await mutexExhausted(lkcs({ graph, l: 0, k: 3 }));
    expect(reached.counts.get('lkcs:trigger-candidate')).toBeUndefined();
    expect(sentTriggers(c)).toEqual([]); // not MUTEX: MUTIN's grants are not exhausted
    // P2, waiting for MUTEX, asks for MUTIN again (forged): re-granted (3 of 4), its last Request
    // is MUTIN — but it holds no MUTEX grant here, so it is no MUTIN candidate. The forged Release
    // first ends its entry: a Request while it stands would be set aside (README deviation 10)
    await to0(c, 2, 'Release', 'MUTIN', 0, 7);
    await to0(c, 2, 'Request', 'MUTIN', 2, 7);
    expect(holders(c).grantedMUTIN).toEqual([0, 1, 2]);
    expect(inspect(c, 0).arbiter.MUTIN.grantedTo.find((e) => e[0] === 2)).toEqual([2, 7, 2]);
    expect(sentTriggers(c)).toEqual([]);
    expect(c.errors).toEqual([]);
  });
});
