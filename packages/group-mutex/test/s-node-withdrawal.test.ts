/**
 * Maekawa_S's node (Fig. 8) driven directly, for the orders of REQUEST and UNLOCK that FIFO links
 * never produce but the node must still handle as the README's deviation 4 says: an abort's
 * UNLOCK withdraws the request wherever it is — held, `deferred_req` or `early_requests` — or, if
 * the REQUEST has not arrived, is remembered (at most 64 per process, the oldest forgotten first)
 * and the REQUEST dropped on arrival. And E.17–E.19: when p's lock goes, p's early requests are
 * re-sent, and no other process's. surficial(4, 2), subgroup assignment: P1 and P3 use {2, 3} for
 * group 0 and {1, 3} for group 1, so node 3 is last(Q) of all four.
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { surficial } from '@critsec/coteries';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MaekawaSNode } from '../src/maekawa-s-node.js';
import { makePlan } from '../src/plan.js';
import type { MaekawaSMessage } from '../src/protocol-s.js';

const plan = makePlan(surficial(4, 2), 'subgroups', undefined);

function node(i: number): { node: MaekawaSNode; sent: [number, MaekawaSMessage][] } {
  const sent: [number, MaekawaSMessage][] = [];
  return { node: new MaekawaSNode(i, plan, (to, msg) => sent.push([to, msg])), sent };
}

describe('Maekawa_S node: withdrawals and early requests (Fig. 8 with abort)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('an UNLOCK for an early request withdraws it: nothing re-sent when the old lock goes, nothing remembered', () => {
    const { node: n3, sent } = node(3);
    n3.onRequest({ p: 1, g: 1, sn: 1 }); // lock for P1's group-1 request; GRANT to P1
    n3.onRequest({ p: 1, g: 0, sn: 2 }); // P1 still holds: early (D.10–D.11)
    expect(n3.snapshot().early_requests).toEqual([[1, 0, 2]]);
    n3.onUnlock(1, 0, 2); // P1 withdrew request 2
    expect(n3.snapshot()).toMatchObject({ lock_ps: [[1, 1, 1]], early_requests: [], cancelled: [] });
    expect(reached.counts.get('group-mutex-s:early-withdrawn')).toBe(1);
    n3.onUnlock(1, 1, 1);
    expect(n3.snapshot()).toMatchObject({ lock_ps: [], early_requests: [], cancelled: [], reference: -1 });
    expect(sent).toEqual([[1, { type: 'GRANT', g: 1, sn: 1 }]]);
  });

  it("E.17–E.19: P1's lock going re-sends P1's early request only; P3's waits for P3's lock", () => {
    const { node: n3, sent } = node(3);
    n3.onRequest({ p: 1, g: 1, sn: 1 }); // reference
    n3.onRequest({ p: 3, g: 1, sn: 1 }); // joins the reference (D.2)
    n3.onRequest({ p: 1, g: 0, sn: 2 }); // early
    n3.onRequest({ p: 3, g: 0, sn: 2 }); // early
    sent.length = 0;
    n3.onUnlock(1, 1, 1);
    expect(sent).toEqual([[3, { type: 'REQUEST', p: 1, g: 0, sn: 2 }]]); // to itself (E.18)
    expect(n3.snapshot()).toMatchObject({ lock_ps: [[3, 1, 1]], early_requests: [[3, 0, 2]], reference: 3 });
    expect(reached.counts.get('group-mutex-s:early-several')).toBeUndefined();
    n3.onUnlock(3, 1, 1);
    expect(sent.at(-1)).toEqual([3, { type: 'REQUEST', p: 3, g: 0, sn: 2 }]);
    expect(n3.snapshot().early_requests).toEqual([]);
  });

  it('UNLOCKs ahead of their REQUESTs are remembered, at most 64 per process, the oldest forgotten first', () => {
    const { node: n2, sent } = node(2);
    for (let sn = 1; sn <= 65; sn++) n2.onUnlock(1, 0, sn);
    const cancelled = n2.snapshot().cancelled;
    expect(cancelled).toHaveLength(64);
    expect(cancelled.map(([p]) => p).every((p) => p === 1)).toBe(true);
    expect(cancelled.map(([, , sn]) => sn).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 64 }, (_, k) => k + 2),
    );
    n2.onRequest({ p: 1, g: 0, sn: 65 }); // withdrawn: dropped
    expect(sent).toEqual([]);
    expect(n2.snapshot().cancelled).toHaveLength(63);
    n2.onRequest({ p: 1, g: 0, sn: 1 }); // forgotten: taken (node 2 = first({2, 3}) forwards it)
    expect(sent).toEqual([[3, { type: 'REQUEST', p: 1, g: 0, sn: 1 }]]);
    expect(n2.snapshot().lock_ps).toEqual([[1, 0, 1]]);
  });

  it("an UNLOCK names the group: UNLOCK(g 1, sn 1) leaves P1's request (g 0, sn 1) alone (README deviation 7)", () => {
    const { node: n3, sent } = node(3);
    n3.onRequest({ p: 1, g: 0, sn: 1 }); // forged under P1's sn, for group 0: locked, GRANT(0, 1)
    n3.onRequest({ p: 1, g: 1, sn: 1 }); // P1's real request: early behind it
    n3.onUnlock(1, 0, 1); // P1 hands the GRANT(0, 1) back: that lock goes, the real request is re-sent
    expect(n3.snapshot()).toMatchObject({ lock_ps: [], early_requests: [], cancelled: [] });
    expect(sent).toEqual([
      [1, { type: 'GRANT', g: 0, sn: 1 }],
      [3, { type: 'REQUEST', p: 1, g: 1, sn: 1 }],
    ]);
    const { node: m3, sent: sent3 } = node(3);
    m3.onRequest({ p: 1, g: 1, sn: 1 }); // P1's real request, held
    m3.onUnlock(1, 0, 1); // the hand-back of a forged GRANT(0, 1): remembered, the real lock kept
    expect(m3.snapshot()).toMatchObject({ lock_ps: [[1, 1, 1]], cancelled: [[1, 0, 1]] });
    m3.onUnlock(1, 1, 1);
    expect(m3.snapshot()).toMatchObject({ lock_ps: [], cancelled: [[1, 0, 1]] });
    expect(sent3).toEqual([[1, { type: 'GRANT', g: 1, sn: 1 }]]);
  });
});
