/**
 * The scene three LKCS leader tests share (lkcs-trigger-candidate, lkcs-nominee-release,
 * lkcs-printed-nomination): complete(5), (l, k) = (0, 5), leader P0, (L, K) = (1, 4); initially
 * P0 OutCS and P1..P4 InCS; every neighbour's message to P0 is injected, one of them forged (a
 * Release from P4 of a MUTIN grant it never asked for: with honest neighbours Waiting_LDR =
 * |N_LDR| + 1 with `pendingReq[at]` empty would need more than 4 grants of a type). Controlled mode.
 * Also the pieces of other leader scenes on complete(5): {@link leaderCluster}, {@link to0},
 * {@link leaderWaits}, {@link sentTriggers}.
 */
import type { CSFactory, CSState } from '@critsec/core';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, queuedList } from '@critsec/testing';
import { expect } from 'vitest';
import { safeInitial } from '../src/config.js';
import { complete } from '../src/graphs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import type { LkcsSnapshot } from '../src/lkcs-protocol.js';

/** The graph and the (l, k) of the scene. */
export const graph = complete(5);
const plan = lkcsPlan(graph, 0, 5);

/** Process i's variables. */
export const inspect = (c: SimCluster, i: number) =>
  (c.objects[i] as unknown as { inspect(): LkcsSnapshot }).inspect();

/** The Trigger messages in flight, as `from→to Trigger`. */
export const triggers = (c: SimCluster) => queuedList(c.net).filter((e) => e.endsWith(' Trigger'));

/** The Trigger messages in flight, as `0→j Trigger <at> #<req>` (the leader is P0). */
export const sentTriggers = (c: SimCluster) =>
  c.net
    .snapshot()
    .links.filter((l) => l.from === 0)
    .flatMap((l) =>
      l.queued.filter((m) => m.type === 'Trigger').map((m) => `0→${l.to} Trigger ${m.at} #${m.req}`),
    );

/** LKCS on {@link graph} with (l, k) (leader P0) from `initial`, which must keep (L_i, K_i); controlled mode. */
export const leaderCluster = (factory: CSFactory, l: number, k: number, initial: CSState[]): SimCluster =>
  createCluster({ factory, spec: lkcsPlan(graph, l, k).spec, initial, mode: 'controlled' });

/** The leader P0 starts its next call (entry if OutCS, exit if InCS) and its own arbiters take its Request. */
export async function leaderWaits(c: SimCluster): Promise<void> {
  const p0 = c.objects[0]!;
  void (p0.state === 'OutCS' ? p0.entry() : p0.exit());
  await c.net.settle();
  await deliver(c.net, 0, 0, 'Request');
}

type Type = 'Request' | 'Release' | 'RequestByTrigger' | 'Grant';

/** Sends `type` for `at` with tag `req` and timestamp `ts` from `from` to P0 and delivers it. */
export async function to0(
  c: SimCluster,
  from: number,
  type: Type,
  at: 'MUTIN' | 'MUTEX',
  req: number,
  ts: number,
): Promise<void> {
  c.net.endpoint(from).send(0, { type, at, req, ts });
  await deliver(c.net, from, 0, type);
}

/**
 * P0 waits for MUTEX (entry, tag 1), granted MUTEX by itself; P1, P2 and P3 wait for MUTIN,
 * granted by P0; P4 waits for MUTIN, pending at P0. Waiting_LDR = 1 + 4 = 5: MUTIN is exhausted
 * (P0, P1, P2, P3), `pendingReq[MUTEX]` is empty, and the only process granted both types whose
 * request is of type MUTEX is P0. `factory` is LKCS over {@link graph} with (l, k) = (0, 5),
 * under the rules the test is about.
 */
export async function candidateScene(factory: CSFactory): Promise<SimCluster> {
  const initial = safeInitial(plan.tightened);
  expect(initial).toEqual(['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);
  const c = createCluster({ factory, spec: plan.spec, initial, mode: 'controlled' });
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
