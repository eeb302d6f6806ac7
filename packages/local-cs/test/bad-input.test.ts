import type { CSFactory, CSState, LocalSpec } from '@critsec/core';
import { createCluster, runWorkload } from '@critsec/harness';
import { CLOCK_MAX } from '@critsec/transport';
import { exponentialDelay } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { lkcsProtocol, lmutinProtocol } from '../src/index.js';
import { type Instance, lkcsFamilies, lmutexFamilies, lmutinFamilies } from './families.js';

/**
 * Runs the workload while, at a few instants, forging messages on the wire between neighbours:
 * malformed ones (dropped and counted by the validator) and valid ones with extreme field values
 * (ts = req = CLOCK_MAX). The cluster must still be safe and finish its rounds.
 */
async function forge(x: Instance, seed: number, valid: (to: number) => object[]) {
  const cluster = createCluster({
    factory: x.factory,
    spec: x.spec,
    initial: x.initial,
    seed,
    delay: exponentialDelay(1),
  });
  const net = cluster.net;
  const g = x.graph;
  for (const t of [0.5, 3, 7]) {
    net.schedule(t, () => {
      const from = Math.floor(t) % g.n;
      for (const to of [from, ...g.neighbors[from]!]) {
        const ep = net.endpoint(from);
        ep.send(to, { type: 'Request', req: -1, ts: 1 } as never);
        ep.send(to, { type: 'Grant', req: 1.5, ts: 'x' } as never);
        ep.send(to, { type: 'Release', at: 'BOTH', req: 1, ts: 1 } as never);
        ep.send(to, { type: 'Request', req: CLOCK_MAX + 1, ts: 0 } as never);
        ep.send(to, 'garbage' as never);
        for (const m of valid(to)) ep.send(to, m as never);
      }
    });
  }
  const r = await runWorkload(cluster, { rounds: 3 });
  return { r, cluster };
}

const extremeLmutin = () => [
  { type: 'Preempt', req: CLOCK_MAX, ts: CLOCK_MAX },
  { type: 'Grant', req: CLOCK_MAX, ts: CLOCK_MAX },
  { type: 'Relinquish', req: CLOCK_MAX, ts: CLOCK_MAX },
];
const extremeLkcs = () => [
  { type: 'Preempt', at: 'MUTIN', req: CLOCK_MAX, ts: CLOCK_MAX },
  { type: 'Grant', at: 'MUTEX', req: CLOCK_MAX, ts: CLOCK_MAX },
  { type: 'Relinquish', at: 'MUTEX', req: CLOCK_MAX, ts: CLOCK_MAX },
  { type: 'Trigger', at: 'MUTIN', req: CLOCK_MAX, ts: CLOCK_MAX },
];

describe('malformed and extreme messages mid-run', () => {
  const cases: [Instance, () => object[], { dropped: number }][] = [
    ...lmutinFamilies().map(
      (x) => [x, extremeLmutin, lmutinProtocol] as [Instance, () => object[], { dropped: number }],
    ),
    ...lmutexFamilies().map(
      (x) => [x, extremeLmutin, lmutinProtocol] as [Instance, () => object[], { dropped: number }],
    ),
    ...lkcsFamilies().map(
      (x) => [x, extremeLkcs, lkcsProtocol] as [Instance, () => object[], { dropped: number }],
    ),
  ];
  for (const [x, extreme, protocol] of cases) {
    it(`${x.name}: malformed messages are dropped and counted; ts = CLOCK_MAX saturates; the workload completes`, async () => {
      const before = protocol.dropped;
      for (const seed of [1, 2, 3]) {
        const { r, cluster } = await forge(x, seed, extreme);
        expect(r.violation, `seed ${seed}`).toBeNull();
        expect(r.ok, `seed ${seed}: ${r.failure}`).toBe(true);
        // every malformed message became an error event, none reached a handler
        expect(cluster.errors.length).toBeGreaterThan(0);
        expect(cluster.errors.every((e) => /lmutin|lkcs|LKCS|LMUTIN/.test(e.error.message))).toBe(true);
      }
      expect(protocol.dropped - before).toBeGreaterThanOrEqual(3 * 3 * 5);
    });
  }
});

describe('messages from outside N_i ∪ {P_i}', () => {
  it('are dropped with a ProtocolError naming the sender and the receiver', async () => {
    const x = lmutinFamilies()[0]!; // ring:6
    const cluster = createCluster({ factory: x.factory, spec: x.spec, initial: x.initial });
    cluster.net.endpoint(3).send(0, { type: 'Release', req: 0, ts: 1 } as never);
    await cluster.net.run();
    expect(cluster.errors.map((e) => e.error.message)).toEqual([
      'LMUTIN: P0 got Release from P3, which is not in N_0 ∪ {P0}',
    ]);
  });
  it('a Trigger from a process that is not the leader is dropped', async () => {
    const x: Instance = lkcsFamilies()[1]!; // complete:6, leader 0
    const cluster = createCluster({
      factory: x.factory as CSFactory,
      spec: x.spec as LocalSpec,
      initial: x.initial as CSState[],
    });
    cluster.net.endpoint(2).send(1, { type: 'Trigger', at: 'MUTEX', req: 1, ts: 1 } as never);
    await cluster.net.run();
    expect(cluster.errors.map((e) => e.error.message)).toEqual([
      'LKCS: P1 got Trigger from P2, not the leader P0',
    ]);
  });
});
