/**
 * Maekawa_S (Figs. 7–8) against GRANT and REQUEST messages that must not count: B.1 takes a GRANT
 * only from last(Q) for the request waiting (its group, its sn); a GRANT for another request — another
 * sn, or the waiting sn under another group, or a second GRANT of one that ended — is handed back
 * with UNLOCK(g, sn) to every node of that quorum (README deviations 2 and 7), the one late GRANT
 * of a withdrawn request excepted; a node takes a REQUEST(p, g) only from p (first(Q)), from the
 * previous node of Q, or from itself (E.18), and only if it is in Q. Group ids outside 0..m−1 are
 * reported, an UNLOCK's too.
 * surficial(4, 2), subgroup assignment: P1's group-0 quorum is {2, 3}, its group-1 quorum {1, 3}.
 * Controlled mode.
 */
import { groupSpec, ProtocolError } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { enter, inspectS } from './helpers.js';

function controlled(): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system: surficial(4, 2), variant: 'S' }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
}

const errors = (c: SimCluster<number>) =>
  c.errors.map((e) => [e.process, e.error.message, (e.error as ProtocolError).from]);

describe('Maekawa_S requester: which GRANT lets P1 in (B.1–B.3)', () => {
  it('a GRANT from a node of Q that is not last(Q) is reported and ignored, even with the right group and sn', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    c.net.endpoint(2).send(1, { type: 'GRANT', g: 0, sn: 1 });
    await deliver(c.net, 2, 1, 'GRANT');
    expect(errors(c)).toEqual([[1, 'Maekawa_S: P1 got GRANT(group 0) from P2, which is not last(Q)', 2]]);
    expect(c.errors[0]!.error).toBeInstanceOf(ProtocolError);
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspectS(c, 1).process).toMatchObject({ waiting: true, locked_nodes: [] });
    await deliverAll(c.net);
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
  });

  it('a GRANT with the waiting sn but another group (from last of that group’s quorum) does not let P1 in', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    c.net.endpoint(3).send(1, { type: 'GRANT', g: 1, sn: 1 }); // last({1, 3}) = 3
    await deliver(c.net, 3, 1, 'GRANT');
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspectS(c, 1).process).toMatchObject({ group: 0, waiting: true, locked_nodes: [] });
    // handed back to {1, 3} naming group 1: it cannot touch the real request (group 0, sn 1)
    expect(queuedList(c.net).filter((e) => e.endsWith('UNLOCK'))).toEqual(['1→1 UNLOCK', '1→3 UNLOCK']);
    await deliverAll(c.net);
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('a second GRANT after exit is handed back (UNLOCK(0, 1) to {2, 3}); P1 stays OutCS with locked_nodes ∅', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliverAll(c.net);
    await p1;
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    c.net.endpoint(3).send(1, { type: 'GRANT', g: 0, sn: 1 });
    const sent = c.net.counters().sent;
    await deliver(c.net, 3, 1, 'GRANT');
    expect(c.net.counters().sent).toBe(sent + 2);
    expect(c.net.pending().map((e) => (e.kind === 'message' ? [e.from, e.to, e.msg] : e.kind))).toEqual([
      [1, 2, { type: 'UNLOCK', g: 0, sn: 1 }],
      [1, 3, { type: 'UNLOCK', g: 0, sn: 1 }],
    ]);
    expect(c.objects[1]!.state).toBe('OutCS');
    expect(inspectS(c, 1).process).toEqual({ group: 0, sn: 1, waiting: false, locked_nodes: [] });
  });

  it('the late GRANT of a withdrawn request is taken once without reply; a second one is handed back', async () => {
    const c = controlled();
    const ac = new AbortController();
    const p1 = c.objects[1]!.entry(0, { signal: ac.signal }).catch((e: unknown) => e);
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST');
    await deliver(c.net, 2, 3, 'REQUEST'); // node 3 = last({2, 3}): GRANT in flight
    ac.abort();
    expect(await p1).toMatchObject({ name: 'AbortError' });
    await deliverAll(c.net); // the abort's UNLOCKs and the late GRANT (no reply)
    const sent = c.net.counters().sent;
    c.net.endpoint(3).send(1, { type: 'GRANT', g: 0, sn: 1 });
    await deliver(c.net, 3, 1, 'GRANT');
    expect(c.net.counters().sent).toBe(sent + 3); // the forged copy, and its two UNLOCKs
    expect(queuedList(c.net)).toEqual(['1→2 UNLOCK', '1→3 UNLOCK']);
    expect(c.errors).toEqual([]);
  });

  it('a GRANT for another sn is handed back: UNLOCK with that sn to every node of the quorum', async () => {
    const c = controlled();
    c.net.endpoint(3).send(1, { type: 'GRANT', g: 0, sn: 5 });
    const reached = collectReached();
    try {
      await deliver(c.net, 3, 1, 'GRANT');
      expect(reached.counts.get('group-mutex-s:stale-grant-returned')).toBe(1);
    } finally {
      reached.stop();
    }
    expect(c.net.pending().map((e) => (e.kind === 'message' ? [e.from, e.to, e.msg] : e.kind))).toEqual([
      [1, 2, { type: 'UNLOCK', g: 0, sn: 5 }],
      [1, 3, { type: 'UNLOCK', g: 0, sn: 5 }],
    ]);
    expect(c.errors).toEqual([]);
  });

  it('a GRANT or REQUEST for a group outside 0..m−1 is reported, naming it', async () => {
    const c = controlled();
    c.net.endpoint(3).send(1, { type: 'GRANT', g: 2, sn: 1 });
    await deliver(c.net, 3, 1, 'GRANT');
    c.net.endpoint(1).send(2, { type: 'REQUEST', p: 1, g: 7, sn: 1 });
    await deliver(c.net, 1, 2, 'REQUEST');
    expect(errors(c)).toEqual([
      [1, 'Maekawa_S: P1 got GRANT for unknown group 2', 3],
      [2, 'Maekawa_S: P2 got REQUEST for unknown group 7', 1],
    ]);
    expect(c.net.pending()).toEqual([]);
  });

  it('an UNLOCK names its group: g = 9 is reported and releases nothing; g = 1 leaves the group-0 lock', async () => {
    const c = controlled();
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliverAll(c.net);
    await p1;
    c.net.endpoint(1).send(2, { type: 'UNLOCK', sn: 1, g: 9 });
    await deliver(c.net, 1, 2, 'UNLOCK');
    expect(errors(c)).toEqual([[2, 'Maekawa_S: P2 got UNLOCK for unknown group 9', 1]]);
    c.net.endpoint(1).send(2, { type: 'UNLOCK', sn: 1, g: 1 });
    await deliver(c.net, 1, 2, 'UNLOCK');
    expect(inspectS(c, 2).node.lock_ps).toEqual([[1, 0, 1]]);
    c.net.endpoint(1).send(2, { type: 'UNLOCK', sn: 1, g: 0 });
    await deliver(c.net, 1, 2, 'UNLOCK');
    expect(inspectS(c, 2).node.lock_ps).toEqual([]);
  });
});

describe('Maekawa_S node: whom a REQUEST(p, g) is taken from (D.1)', () => {
  it('first(Q) takes it only from p, a later node only from the previous node of Q', async () => {
    const c = controlled();
    c.net.endpoint(0).send(2, { type: 'REQUEST', p: 1, g: 0, sn: 1 }); // node 2 = first({2, 3}), not from P1
    c.net.endpoint(0).send(3, { type: 'REQUEST', p: 1, g: 0, sn: 1 }); // node 3: only from node 2
    await deliver(c.net, 0, 2, 'REQUEST');
    await deliver(c.net, 0, 3, 'REQUEST');
    const why = (i: number) =>
      `Maekawa_S: P${i} got REQUEST(P1, group 0) from P0, which is not the previous node of that quorum`;
    expect(errors(c)).toEqual([
      [2, why(2), 0],
      [3, why(3), 0],
    ]);
    expect([inspectS(c, 2).node.lock_ps, inspectS(c, 3).node.lock_ps]).toEqual([[], []]);
    expect(c.net.pending()).toEqual([]);
  });

  it('a node outside Q does not take it even from itself', async () => {
    const c = controlled();
    c.net.endpoint(0).send(0, { type: 'REQUEST', p: 1, g: 0, sn: 1 }); // 0 ∉ {2, 3}
    await deliver(c.net, 0, 0, 'REQUEST');
    expect(errors(c)).toEqual([
      [0, 'Maekawa_S: P0 got REQUEST(P1, group 0) from P0, which is not the previous node of that quorum', 0],
    ]);
    expect(inspectS(c, 0).node.lock_ps).toEqual([]);
    expect(c.net.pending()).toEqual([]);
  });

  it('a process id outside 0..n−1 is reported', async () => {
    const c = controlled();
    c.net.endpoint(1).send(2, { type: 'REQUEST', p: 4, g: 0, sn: 1 });
    await deliver(c.net, 1, 2, 'REQUEST');
    expect(errors(c)).toEqual([
      [2, 'Maekawa_S: P2 got REQUEST(P4, group 0) from P1, which is not the previous node of that quorum', 1],
    ]);
    expect(queuedList(c.net)).toEqual([]);
  });
});
