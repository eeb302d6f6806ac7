/**
 * LKCS's requester, the grants it holds (Kamei & Kakugawa 2017, Algorithm 3's initial grants,
 * Algorithm 4's exit and entry): `nGrants[at]` is the set of neighbours whose grant of type `at`
 * the process holds. Initially a process OutCS holds every MUTIN grant of its closed neighbourhood
 * and one InCS every MUTEX grant; when a request of type `at` completes, the process holds every
 * grant of type `at` and none of the other type (it releases them right after). complete(5),
 * (l, k) = (0, 5): leader P0, initially P0 OutCS and P1..P4 InCS. P1 exits then enters again; the
 * grants it gets are injected. Controlled mode.
 */
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { safeInitial } from '../src/config.js';
import { complete } from '../src/graphs.js';
import { lkcs } from '../src/lkcs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import type { LkcsSnapshot } from '../src/lkcs-protocol.js';

const g = complete(5);
const plan = lkcsPlan(g, 0, 5);
const inspect = (c: SimCluster, i: number) =>
  (c.objects[i] as unknown as { inspect(): LkcsSnapshot }).inspect();
const all = [0, 1, 2, 3, 4];

/** Every process of the closed neighbourhood grants P1's request of type `at`, tag `req`. */
async function grantAll(c: SimCluster, at: 'MUTIN' | 'MUTEX', req: number): Promise<void> {
  for (const j of [4, 3, 2, 1, 0]) {
    if (j === 2) expect(inspect(c, 1).nGrants[at]).toEqual([3, 4]); // sorted, whatever the order
    if (j === 1) {
      // P1's own arbiter: its messages to itself in FIFO order, up to its own Grant
      for (;;) {
        const i = c.net.pending().findIndex((e) => e.kind === 'message' && e.from === 1 && e.to === 1);
        const e = c.net.pending()[i]!;
        await c.net.deliver(i);
        if (e.kind === 'message' && e.msg.type === 'Grant') break;
      }
      continue;
    }
    c.net.endpoint(j).send(1, { type: 'Grant', at, req, ts: 20 });
    await deliver(c.net, j, 1, 'Grant');
  }
  await c.net.settle();
}

describe('LKCS requester: the grants held (nGrants)', () => {
  it('holds initially the grants of its state, and after a request only that type’s', async () => {
    const initial = safeInitial(plan.tightened);
    expect(initial).toEqual(['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);
    const c = createCluster({
      factory: lkcs({ graph: g, l: 0, k: 5 }),
      spec: plan.spec,
      initial,
      mode: 'controlled',
    });
    expect(inspect(c, 0).nGrants).toEqual({ MUTIN: all, MUTEX: [] });
    expect(inspect(c, 1).nGrants).toEqual({ MUTIN: [], MUTEX: all });
    const exit = c.objects[1]!.exit();
    await c.net.settle();
    await grantAll(c, 'MUTIN', 1);
    await exit;
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspect(c, 1).nGrants).toEqual({ MUTIN: all, MUTEX: [] });
    const entry = c.objects[1]!.entry();
    await c.net.settle();
    await grantAll(c, 'MUTEX', 2);
    await entry;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(inspect(c, 1).nGrants).toEqual({ MUTIN: [], MUTEX: all });
  });
});
