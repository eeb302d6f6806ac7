/**
 * LKCS's receiver checks the sender (Kamei & Kakugawa 2017, Sec. 5: a process exchanges messages
 * with its closed neighbourhood N_i ∪ {P_i} only): a message from any other process is dropped,
 * with a `ProtocolError` naming the algorithm, the receiver, the type and the sender, and changes
 * no variable. Graph: complete(5) on P0..P4 with a tail P4–P5–P6–P7; (l, k) = (0, |N_i| + 1), so
 * the leader is P4 (degree 5). P0 and P7 are four hops apart.
 */
import { ProtocolError } from '@critsec/core';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { safeInitial } from '../src/config.js';
import { complete, graphFromJson } from '../src/graphs.js';
import { lkcs } from '../src/lkcs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import type { LkcsSnapshot } from '../src/lkcs-protocol.js';

const edges: [number, number][] = [];
for (let a = 0; a < 5; a++) for (const b of complete(5).neighbors[a]!) if (a < b) edges.push([a, b]);
const g = graphFromJson({ n: 8, edges: [...edges, [4, 5], [5, 6], [6, 7]] });
const k = (_i: number, degree: number) => degree + 1;

describe('LKCS: messages from outside N_i ∪ {P_i}', () => {
  it('are dropped with a ProtocolError naming the receiver, the type and the sender', async () => {
    const plan = lkcsPlan(g, 0, k);
    expect(plan.leader).toBe(4);
    const cluster = createCluster({
      factory: lkcs({ graph: g, l: 0, k }),
      spec: plan.spec,
      initial: safeInitial(plan.tightened),
    });
    const o = cluster.objects[7] as unknown as { inspect(): LkcsSnapshot };
    const before = o.inspect();
    cluster.net.endpoint(0).send(7, { type: 'Request', at: 'MUTIN', req: 1, ts: 9 });
    await cluster.net.run();
    expect(cluster.errors.map((e) => e.error.message)).toEqual([
      'LKCS: P7 got Request from P0, which is not in N_7 ∪ {P7}',
    ]);
    expect(cluster.errors[0]!.error).toBeInstanceOf(ProtocolError);
    expect((cluster.errors[0]!.error as ProtocolError).from).toBe(0);
    expect(o.inspect()).toEqual(before);
  });
});
