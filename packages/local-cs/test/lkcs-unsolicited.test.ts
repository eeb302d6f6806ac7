/**
 * LKCS's requester and messages it did not ask for (Kamei & Kakugawa 2017, Algorithm 5
 * "Preempt", Algorithm 7 "Trigger"): a process that waits for nothing answers no Preempt (no
 * Relinquish, it keeps the grant) and obeys no Trigger (no RequestByTrigger), even when the
 * message names the tag of its last request of that type (0: the initial grants); a Trigger from
 * a process other than the leader is dropped with a `ProtocolError` whose `from` is the sender.
 * complete(5), (l, k) = (0, 5): leader P0, initially P0 OutCS and P1..P4 InCS; P1 stays idle.
 * Controlled mode.
 */
import { ProtocolError } from '@critsec/core';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, queuedList } from '@critsec/testing';
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

function cluster(): SimCluster {
  const initial = safeInitial(plan.tightened);
  expect(initial).toEqual(['OutCS', 'InCS', 'InCS', 'InCS', 'InCS']);
  return createCluster({
    factory: lkcs({ graph: g, l: 0, k: 5 }),
    spec: plan.spec,
    initial,
    mode: 'controlled',
  });
}

describe('LKCS requester: unsolicited Preempt and Trigger', () => {
  it('an idle process answers no Preempt and obeys no Trigger, whatever the tag', async () => {
    const c = cluster();
    const before = inspect(c, 1);
    expect(before.waiting).toBeNull();
    expect(before.nGrants).toEqual({ MUTIN: [], MUTEX: [0, 1, 2, 3, 4] });
    expect(before.request).toEqual({ MUTIN: 0, MUTEX: 0 });
    expect(before.triggered).toEqual({ MUTIN: false, MUTEX: false }); // Algorithm 3
    c.net.endpoint(2).send(1, { type: 'Preempt', at: 'MUTEX', req: 0, ts: 1 });
    await deliver(c.net, 2, 1, 'Preempt');
    c.net.endpoint(0).send(1, { type: 'Trigger', at: 'MUTIN', req: 0, ts: 1 });
    await deliver(c.net, 0, 1, 'Trigger');
    expect(queuedList(c.net)).toEqual([]);
    expect(inspect(c, 1)).toEqual(before); // witness(1, 1) keeps the clock at 1
    expect(c.errors).toEqual([]);
  });

  it('a Trigger from another process than the leader is a ProtocolError from that process', async () => {
    const c = cluster();
    void c.objects[1]!.exit(); // P1 waits for MUTIN (tag 1)
    await c.net.settle();
    c.net.endpoint(2).send(1, { type: 'Trigger', at: 'MUTIN', req: 1, ts: 3 });
    await deliver(c.net, 2, 1, 'Trigger');
    expect(c.errors).toHaveLength(1);
    const e = c.errors[0]!.error;
    expect(e).toBeInstanceOf(ProtocolError);
    expect(e.message).toBe('LKCS: P1 got Trigger from P2, not the leader P0');
    expect((e as ProtocolError).from).toBe(2);
    expect(inspect(c, 1).triggered.MUTIN).toBe(false);
  });
});
