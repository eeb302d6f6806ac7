/**
 * The sender is checked before anything else (project rule: bad input gets a clear, typed error
 * and loses nothing). A message no honest process could send to this one — a REQUEST to a node
 * outside the quorum the sender uses for that group or for an unknown group, an UNLOCK to a node
 * in none of the sender's quorums, a LOCKED or INQUIRE from a node in none of the receiver's
 * quorums (or, for its current request, outside its Q) — is reported with `{ from }` and dropped
 * before Maekawa_M's clock witnesses it (Fig. 5 B.2/C.2, Fig. 6 E.2/F.2) and before any reply:
 * a forged `ts = CLOCK_MAX` moves nothing, a forged LOCKED is not answered with UNLOCK. Stale
 * messages of legitimate senders still reach their handlers and count for the clock.
 *
 * surficial(4, 2), subgroup assignment: group 0 — P0, P2 use {0, 1}, P1, P3 use {2, 3}; group 1 —
 * P0, P2 use {0, 2}, P1, P3 use {1, 3}. So P0's quorums cover {0, 1, 2} (P3 is a stranger to it)
 * and P1's cover {1, 2, 3} (node 0 is in none). Controlled mode.
 */
import { groupSpec, type Message, ProtocolError } from '@critsec/core';
import { collectReached } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { CLOCK_MAX } from '@critsec/transport';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { makePlan } from '../src/plan.js';
import { enter, inspectM, inspectS } from './helpers.js';

const system = surficial(4, 2);

function controlled(variant: 'M' | 'S'): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system, variant }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
}

/** Sends `msg` from `from` to `to` and delivers it. */
async function forge(c: SimCluster<number>, from: number, to: number, msg: Message): Promise<void> {
  c.net.endpoint(from).send(to, msg);
  await deliver(c.net, from, to, msg.type);
}

const errors = (c: SimCluster<number>) =>
  c.errors.map((e) => [
    e.process,
    e.error.message,
    e.error instanceof ProtocolError ? e.error.from : 'untyped',
  ]);

/** The `ts` of every queued message from `from`, as `to TYPE ts`. */
const sentBy = (c: SimCluster<number>, from: number) =>
  c.net
    .pending()
    .flatMap((e) =>
      e.kind === 'message' && e.from === from ? [`${e.to} ${e.msg.type} ${String(e.msg.ts)}`] : [],
    );

describe('the quorum plan: inSomeQuorum(node, p) — node is in a quorum p uses, for some group', () => {
  it('surficial(4, 2), subgroup assignment: P0 and P2 cover {0, 1, 2}, P1 and P3 cover {1, 2, 3}', () => {
    const plan = makePlan(system, 'subgroups', undefined);
    const covered = (p: number) => [0, 1, 2, 3].filter((node) => plan.inSomeQuorum(node, p));
    expect([0, 1, 2, 3].map(covered)).toEqual([
      [0, 1, 2],
      [1, 2, 3],
      [0, 1, 2],
      [1, 2, 3],
    ]);
    expect(plan.inSomeQuorum(0, 4)).toBe(false); // past the last process
    expect(plan.inSomeQuorum(4, 0)).toBe(false);
  });
});

describe('Maekawa_M: a message from outside its role is reported and dropped before the clock', () => {
  it('forged ts = CLOCK_MAX from strangers, one of each type: sn stays 0, nothing is sent, nothing changes; the next REQUEST carries ts = 1', async () => {
    const c = controlled('M');
    const before = inspectM(c, 0);
    await forge(c, 1, 0, { type: 'REQUEST', req: 1, ts: CLOCK_MAX, g: 0 }); // 0 ∉ {2, 3}
    await forge(c, 2, 0, { type: 'REQUEST', req: 1, ts: CLOCK_MAX, g: 2 }); // no group 2
    await forge(c, 1, 0, { type: 'UNLOCK', req: 1, ts: CLOCK_MAX, flag: true }); // 0 ∉ {1, 2, 3}
    await forge(c, 3, 0, { type: 'LOCKED', req: 1, ts: CLOCK_MAX }); // 3 ∉ {0, 1, 2}
    await forge(c, 3, 0, { type: 'INQUIRE', req: 1, ts: CLOCK_MAX });
    expect(inspectM(c, 0).sn).toBe(0);
    expect(c.net.pending()).toEqual([]); // no UNLOCK handed back to P3
    expect(inspectM(c, 0)).toEqual(before);
    expect(errors(c)).toEqual([
      [
        0,
        'Maekawa_M: P0 got REQUEST(group 0) from P1, but P0 is not in the quorum P1 uses for that group',
        1,
      ],
      [
        0,
        'Maekawa_M: P0 got REQUEST(group 2) from P2, but P0 is not in the quorum P2 uses for that group',
        2,
      ],
      [0, 'Maekawa_M: P0 got UNLOCK from P1, but P0 is in none of the quorums P1 uses', 1],
      [0, 'Maekawa_M: P0 got LOCKED from P3, which is in none of its quorums', 3],
      [0, 'Maekawa_M: P0 got INQUIRE from P3, which is in none of its quorums', 3],
    ]);
    void enter(c, 0, 0); // Q = {0, 1}
    await c.net.settle();
    expect(sentBy(c, 0)).toEqual(['0 REQUEST 1', '1 REQUEST 1']);
  });

  it('a forged LOCKED from a stranger while trying: reported, not counted, not answered with UNLOCK; sn unchanged', async () => {
    const c = controlled('M');
    const p0 = enter(c, 0, 0); // Q = {0, 1}, req 1, ts 1
    await c.net.settle();
    await forge(c, 3, 0, { type: 'LOCKED', req: 7, ts: CLOCK_MAX }); // stale request number, stranger
    expect(queuedList(c.net)).toEqual(['0→0 REQUEST', '0→1 REQUEST']); // no UNLOCK to P3
    await forge(c, 2, 0, { type: 'LOCKED', req: 1, ts: CLOCK_MAX }); // current request, 2 ∉ Q
    expect(inspectM(c, 0).sn).toBe(1);
    expect(queuedList(c.net)).toEqual(['0→0 REQUEST', '0→1 REQUEST']);
    expect(inspectM(c, 0).process).toMatchObject({ waiting: true, locked_nodes: [] });
    expect(errors(c)).toEqual([
      [0, 'Maekawa_M: P0 got LOCKED from P3, which is in none of its quorums', 3],
      [0, 'Maekawa_M: P0 got LOCKED from P2, which is not in its quorum', 2],
    ]);
    await deliverAll(c.net);
    await p0;
    expect(c.objects[0]!.state).toBe('InCS');
    expect(inspectM(c, 0).sn).toBe(1);
  });

  it('a stale LOCKED from a node of an earlier quorum of another group is still handed back, and its ts counts', async () => {
    const c = controlled('M');
    const reached = collectReached();
    try {
      const ac = new AbortController();
      const first = enter(c, 0, 1, { signal: ac.signal }); // group 1: Q = {0, 2}
      await c.net.settle();
      await deliver(c.net, 0, 2, 'REQUEST'); // node 2 locks for P0: LOCKED(req 1) in flight
      ac.abort();
      await first.catch(() => {});
      const second = enter(c, 0, 0); // group 0: Q = {0, 1}, req 2; node 2 is not in it
      await c.net.settle();
      await deliver(c.net, 2, 0, 'LOCKED'); // the stale lock of req 1
      await forge(c, 2, 0, { type: 'LOCKED', req: 1, ts: 500 }); // another, forged, from the same node
      expect(c.errors).toEqual([]);
      expect(reached.counts.get('group-mutex-m:stale-locked-returned')).toBe(2);
      expect(queuedList(c.net).filter((e) => e === '0→2 UNLOCK')).toHaveLength(3); // the abort's + 2 hand-backs
      expect(inspectM(c, 0).sn).toBe(500); // legitimate sender: the clock witnesses it
      await deliverAll(c.net);
      await second;
      expect(c.objects[0]!.state).toBe('InCS');
      expect(inspectM(c, 2).node).toMatchObject({ requests: [], lock_ps: [] });
    } finally {
      reached.stop();
    }
  });

  it('a stale UNLOCK of a legitimate sender is ignored as before and counts for the clock', async () => {
    const c = controlled('M');
    await forge(c, 2, 0, { type: 'UNLOCK', req: 9, ts: 700, flag: true }); // 0 ∈ {0, 1} of P2
    expect(c.errors).toEqual([]);
    expect(inspectM(c, 0).sn).toBe(700);
    expect(c.net.pending()).toEqual([]);
  });
});

describe('Maekawa_S: an UNLOCK from a process none of whose quorums holds the node', () => {
  it('is reported and dropped: nothing is remembered for it (it would withdraw a stranger request)', async () => {
    const c = controlled('S');
    const before = inspectS(c, 0);
    await forge(c, 1, 0, { type: 'UNLOCK', g: 0, sn: 1 }); // 0 ∉ {1, 2, 3}
    expect(inspectS(c, 0)).toEqual(before);
    expect(errors(c)).toEqual([
      [0, 'Maekawa_S: P0 got UNLOCK from P1, but P0 is in none of the quorums P1 uses', 1],
    ]);
    expect(c.net.pending()).toEqual([]);
  });

  it('from a process that uses the node, an early UNLOCK is still remembered', async () => {
    const c = controlled('S');
    await forge(c, 2, 0, { type: 'UNLOCK', g: 0, sn: 1 }); // 0 ∈ {0, 1} of P2
    expect(c.errors).toEqual([]);
    expect(inspectS(c, 0).node.cancelled).toEqual([[2, 0, 1]]);
  });
});
