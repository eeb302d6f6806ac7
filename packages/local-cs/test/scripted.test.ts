import { collectReached } from '@critsec/core/kit';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { localBounds } from '../src/config.js';
import { star } from '../src/graphs.js';
import { type LmutinSnapshot, lmutinWith } from '../src/lmutin.js';

const inspect = (c: SimCluster, i: number) =>
  (c.objects[i] as unknown as { inspect(): LmutinSnapshot }).inspect();

/**
 * The path P1 − P0 − P2 (star:2), l = (1, 0, 0): arbiter P0 grants |N_0| − l_0 + 1 = 2 exits at a
 * time. All three exit at once (ts 1; priority P0 < P1 < P2). P0 grants P2 and P1, then its own
 * request preempts P2 — but P2 completes its exit first, enters (Release) and exits again
 * (Request) before the Preempt reaches it.
 */
async function script(rules: 'tagged' | 'printed') {
  const g = star(2);
  const c = createCluster({
    factory: lmutinWith({ graph: g, l: [1, 0, 0] }, { rules }),
    spec: localBounds(g, [1, 0, 0], (_i, d) => d + 1),
    initial: ['InCS', 'InCS', 'InCS'],
    mode: 'controlled',
  });
  const net = c.net;
  const p2 = c.objects[2]!.exit();
  void c.objects[1]!.exit();
  void c.objects[0]!.exit();
  await net.settle();
  await deliver(net, 2, 0, 'Request'); // P0 grants P2
  await deliver(net, 1, 0, 'Request'); // P0 grants P1: full
  await deliver(net, 0, 0, 'Request'); // P0's own request beats P2: Preempt 0→2 queued
  expect(inspect(c, 0).preemptingNow?.[0]).toBe(2);
  await deliver(net, 2, 2, 'Request');
  await deliver(net, 2, 2, 'Grant');
  await deliver(net, 0, 2, 'Request'); // ahead of P0's Grant on the FIFO link 0→2
  await deliver(net, 0, 2, 'Grant');
  await p2; // P2 is OutCS; the Preempt is still in flight
  await c.objects[2]!.entry(); // Release 2→{0, 2}
  void c.objects[2]!.exit(); // Request 2→{0, 2}
  await net.settle();
  await deliver(net, 0, 2, 'Preempt'); // about P2's previous request
  await deliver(net, 2, 0, 'Grant'); // arbiter P2's grant for P0's request, ahead on link 2→0
  await deliver(net, 2, 0, 'Release'); // P0: P2's grant returns; P0's own request is granted
  await deliver(net, 2, 0, 'Request'); // P2's new request waits
  const relinquish = net
    .pending()
    .some((e) => e.kind === 'message' && e.from === 2 && e.to === 0 && e.msg.type === 'Relinquish');
  if (relinquish) await deliver(net, 2, 0, 'Relinquish');
  return { relinquish, arbiter0: inspect(c, 0) };
}

describe('scripted: a Preempt that arrives after its target re-entered (Algorithm 2)', () => {
  it('tagged (default): the stale Preempt is ignored; arbiter P0 keeps 2 grants, P2 waits', async () => {
    const reached = collectReached();
    const { relinquish, arbiter0 } = await script('tagged');
    reached.stop();
    expect(relinquish).toBe(false);
    expect(reached.counts.get('lmutin:preempt-ignored')).toBeGreaterThan(0);
    expect(arbiter0.grantedTo.map(([p]) => p)).toEqual([0, 1]);
    expect(arbiter0.pendingReq.map(([p]) => p)).toEqual([2]);
  });
  it('printed: P2 answers with Relinquish; P0 deletes nothing yet grants P2 — 3 grants, one beyond the bound', async () => {
    const { relinquish, arbiter0 } = await script('printed');
    expect(relinquish).toBe(true);
    expect(arbiter0.grantedTo.map(([p]) => p).sort()).toEqual([0, 1, 2]);
  });
});
