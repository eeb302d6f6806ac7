/**
 * Maekawa_M's requester (Fig. 5, guarded commands B and C) against LOCKED and REQUEST messages it
 * must not count: a LOCKED from outside its quorum, a duplicate LOCKED while InCS (kept: the node's
 * lock is the one p holds), a LOCKED for the request p withdrew (handed back, README deviation 2),
 * and a REQUEST to a node outside the requester's quorum. surficial(4, 2), subgroup assignment:
 * P1's group-0 quorum is {2, 3}. Controlled mode.
 */
import { groupSpec, isAbortError, ProtocolError } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { enter, inspectM } from './helpers.js';

function controlled(): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system: surficial(4, 2), variant: 'M' }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
}

describe('Maekawa_M requester: which LOCKED counts (C.1–C.4)', () => {
  it('a LOCKED from a process outside Q is reported and not counted: P1 keeps waiting for node 3', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST');
    await deliver(c.net, 2, 1, 'LOCKED');
    c.net.endpoint(0).send(1, { type: 'LOCKED', req: 1, ts: 1 }); // same request number, wrong node
    await deliver(c.net, 0, 1, 'LOCKED');
    expect(c.errors.map((e) => [e.process, e.error.message, (e.error as ProtocolError).from])).toEqual([
      [1, 'Maekawa_M: P1 got LOCKED from P0, which is not in its quorum', 0],
    ]);
    expect(c.errors[0]!.error).toBeInstanceOf(ProtocolError);
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspectM(c, 1).process).toMatchObject({ waiting: true, locked_nodes: [2] });
    await deliverAll(c.net);
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
  });

  it('a second LOCKED of the same node while InCS is ignored: no UNLOCK, the node keeps its lock for P1', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliverAll(c.net);
    await p1;
    c.net.endpoint(2).send(1, { type: 'LOCKED', req: 1, ts: 1 });
    const sent = c.net.counters().sent;
    await deliver(c.net, 2, 1, 'LOCKED');
    expect(c.net.counters().sent).toBe(sent);
    expect(inspectM(c, 2).node.lock_ps).toEqual([1]);
    expect(c.objects[1]!.state).toBe('InCS');
  });

  it('a LOCKED still in flight for a withdrawn request is handed back with UNLOCK(true) (README deviation 2)', async () => {
    const c = controlled();
    const ac = new AbortController();
    const p1 = enter(c, 1, 0, { signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST'); // node 2 sends LOCKED
    ac.abort();
    await expect(p1).rejects.toSatisfy(isAbortError);
    expect(queuedList(c.net).filter((e) => e === '1→2 UNLOCK')).toHaveLength(1); // the abort's
    const reached = collectReached();
    try {
      await deliver(c.net, 2, 1, 'LOCKED');
      expect(reached.counts.get('group-mutex-m:stale-locked-returned')).toBe(1);
    } finally {
      reached.stop();
    }
    expect(queuedList(c.net).filter((e) => e === '1→2 UNLOCK')).toHaveLength(2); // and the hand-back
    await deliverAll(c.net);
    expect(inspectM(c, 2).node).toMatchObject({ requests: [], lock_ps: [] });
  });
});

describe('Maekawa_M node: a REQUEST from a process whose quorum does not contain the node', () => {
  it('is reported, naming the node, the group and the sender; nothing is locked', async () => {
    const c = controlled();
    c.net.endpoint(1).send(0, { type: 'REQUEST', req: 1, ts: 1, g: 0 }); // P1's group-0 quorum is {2, 3}
    await deliver(c.net, 1, 0, 'REQUEST');
    expect(c.errors.map((e) => [e.process, e.error.message, (e.error as ProtocolError).from])).toEqual([
      [
        0,
        'Maekawa_M: P0 got REQUEST(group 0) from P1, but P0 is not in the quorum P1 uses for that group',
        1,
      ],
    ]);
    expect(inspectM(c, 0).node).toMatchObject({ requests: [], lock_ps: [] });
    expect(c.net.pending()).toEqual([]);
  });
});
