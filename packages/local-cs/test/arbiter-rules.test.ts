/**
 * The arbiter half of li-LMUTIN and LKCS (Kamei & Kakugawa 2017, Algorithm 2 "On receipt of a
 * Request / Release / Relinquish message", Algorithm 5 for one type, Algorithm 7's
 * RequestByTrigger), driven directly with a recording sink: at most `limit` grants at a time, in
 * timestamp order (ts, then the request's tag, then the process id); the latest grant is preempted
 * when an earlier request waits, one preemption at a time; a Relinquish puts the request back and
 * grants the earliest; a Release frees the grant (or withdraws a waiting request) and grants within
 * the bound; the sidetrack's grant (ts 0) is given beyond the bound and never preempted. Requests
 * and grants are named by their tag (the `'tagged'` rules, README).
 */
import { collectReached, type ReachCollector } from '@critsec/core/kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Arbiter, type ArbiterRules } from '../src/arbiter.js';

function arbiter(limit: number, rules: ArbiterRules = 'tagged'): { a: Arbiter; log: string[] } {
  const log: string[] = [];
  const a = new Arbiter(
    limit,
    {
      grant: (to, tag) => log.push(`Grant P${to}#${tag}`),
      preempt: (to, tag) => log.push(`Preempt P${to}#${tag}`),
    },
    rules,
    'lmutin',
  );
  return { a, log };
}

describe('Arbiter (Algorithm 2, tagged)', () => {
  let reached: ReachCollector;
  beforeEach(() => {
    reached = collectReached();
  });
  afterEach(() => reached.stop());

  it('grants up to the limit, queues the rest, preempts the latest grant only for an earlier request, one at a time', () => {
    const { a, log } = arbiter(2);
    a.onRequest(3, 5, 1);
    a.onRequest(2, 4, 1);
    expect(a.cond).toBe(false);
    a.onRequest(4, 6, 1); // later than both grants: queued, nobody preempted
    expect(log).toEqual(['Grant P3#1', 'Grant P2#1']);
    a.onRequest(1, 3, 1); // earlier than the latest grant (P3, ts 5)
    expect(log.at(-1)).toBe('Preempt P3#1');
    a.onRequest(0, 2, 1); // a preemption is in progress: no second one
    expect(log).toHaveLength(3);
    expect(a.snapshot()).toEqual({
      grantedTo: [
        [2, 4, 1],
        [3, 5, 1],
      ],
      pendingReq: [
        [0, 2, 1],
        [1, 3, 1],
        [4, 6, 1],
      ],
      preemptingNow: [3, 1],
      aside: [],
    });
    expect(reached.counts.get('lmutin:preempt')).toBe(1);
  });

  it('Relinquish of the preempted grant ends the preemption, queues it again and grants the earliest', () => {
    const { a, log } = arbiter(2);
    a.onRequest(3, 5, 1);
    a.onRequest(2, 4, 1);
    a.onRequest(1, 3, 1); // Preempt P3
    a.onRelinquish(3, 2); // another tag: not this grant's
    expect(a.snapshot().preemptingNow).toEqual([3, 1]);
    a.onRelinquish(3, 1);
    expect(log.slice(3)).toEqual(['Grant P1#1']);
    expect(a.snapshot()).toEqual({
      grantedTo: [
        [1, 3, 1],
        [2, 4, 1],
      ],
      pendingReq: [[3, 5, 1]],
      preemptingNow: null,
      aside: [],
    });
    expect(reached.counts.get('lmutin:relinquished')).toBe(1);
    expect(reached.counts.get('lmutin:regrant-relinquisher')).toBeUndefined();
  });

  it('a relinquished request that is still the earliest is granted again', () => {
    const { a, log } = arbiter(1);
    a.onRequest(2, 4, 1);
    a.onRequest(1, 3, 1); // Preempt P2
    a.onRelease(1, 1); // P1 withdraws while the preemption is out
    a.onRelinquish(2, 1);
    expect(log).toEqual(['Grant P2#1', 'Preempt P2#1', 'Grant P2#1']);
    expect(reached.counts.get('lmutin:regrant-relinquisher')).toBe(1);
  });

  it('Release frees the grant of that tag and grants the earliest waiting ones within the bound; a wrong tag frees nothing', () => {
    const { a, log } = arbiter(2);
    a.onRequest(1, 1, 1);
    a.onRequest(2, 2, 1);
    a.onRequest(3, 3, 1); // queued (later than both)
    a.onRequest(4, 4, 1);
    a.onRelease(1, 7);
    expect(a.snapshot().grantedTo.map(([p]) => p)).toEqual([1, 2]);
    a.onRelease(1, 1);
    a.onRelease(2, 1);
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Grant P3#1', 'Grant P4#1']);
    expect(a.snapshot().pendingReq).toEqual([]);
  });

  it('Release of a request still waiting withdraws it (an aborted call), only with its own tag', () => {
    const { a, log } = arbiter(1);
    a.onRequest(1, 1, 1);
    a.onRequest(2, 2, 1);
    a.onRelease(2, 9);
    expect(a.snapshot().pendingReq).toEqual([[2, 2, 1]]);
    a.onRelease(2, 1);
    expect(a.snapshot().pendingReq).toEqual([]);
    expect(reached.counts.get('lmutin:cancel-pending')).toBe(1);
    a.onRelease(1, 1);
    expect(log).toEqual(['Grant P1#1']);
    expect(a.snapshot().grantedTo).toEqual([]);
  });

  it('Release with no tag (Algorithm 5) frees whatever grant the process holds', () => {
    const { a, log } = arbiter(1);
    a.onRequest(1, 1, 4);
    a.onRequest(2, 2, 1);
    a.onRelease(1, null);
    expect(log).toEqual(['Grant P1#4', 'Grant P2#1']);
  });

  it('the order is (ts, tag, P): a smaller tag wins a tie on ts, a smaller id a tie on both', () => {
    const { a, log } = arbiter(1);
    a.onRequest(0, 9, 1); // holds the one grant
    a.onRequest(3, 5, 2);
    a.onRequest(2, 5, 2);
    a.onRequest(4, 5, 1);
    expect(a.snapshot().pendingReq).toEqual([
      [4, 5, 1],
      [2, 5, 2],
      [3, 5, 2],
    ]);
    expect(log.at(-1)).toBe('Preempt P0#1');
    a.onRelinquish(0, 1);
    a.onRelease(4, 1);
    a.onRelease(2, 2);
    expect(log.slice(2)).toEqual(['Grant P4#1', 'Grant P2#2', 'Grant P3#2']);
  });

  it('one request per process (issue 27 §3): a replay is ignored; another tag is set aside, the grant asked about, the entry kept', () => {
    const { a, log } = arbiter(1);
    a.onRequest(1, 1, 3);
    a.onRequest(1, 1, 3); // a replay
    expect(log).toEqual(['Grant P1#3']);
    a.onRequest(1, 1, 2); // another tag (here lower: a restart without state) while P1 holds #3
    expect(log).toEqual(['Grant P1#3', 'Grant P1#3']); // the Grant again: P1 hands it back if it is not its request
    a.onRequest(1, 2, 1_000_000); // the latest one is kept aside
    expect(a.snapshot()).toEqual({
      grantedTo: [[1, 1, 3]],
      pendingReq: [],
      preemptingNow: null,
      aside: [[1, 2, 1_000_000]],
    });
    expect(reached.counts.get('lmutin:request-set-aside')).toBe(2);
    a.onRelease(1, 1_000_000); // names the request set aside, not the grant: that request is withdrawn
    expect(a.snapshot().aside).toEqual([]);
    a.onRequest(1, 3, 4);
    a.onRelease(1, 3); // the entry ends: the request set aside is queued and granted
    expect(a.snapshot()).toEqual({ grantedTo: [[1, 3, 4]], pendingReq: [], preemptingNow: null, aside: [] });
    expect(log.at(-1)).toBe('Grant P1#4');
    expect(reached.counts.get('lmutin:aside-admitted')).toBe(1);
  });

  it('a request set aside behind a pending one is queued when the pending one is withdrawn', () => {
    const { a, log } = arbiter(1);
    a.onRequest(0, 1, 1);
    a.onRequest(1, 5, 1); // waits
    a.onRequest(1, 2, 7); // set aside; no Grant to ask about
    expect(log).toEqual(['Grant P0#1']);
    a.onRelease(1, 1); // withdrawn: #7 takes its place (ts 2, after P0's grant: nobody preempted)
    expect(a.snapshot()).toEqual({
      grantedTo: [[0, 1, 1]],
      pendingReq: [[1, 2, 7]],
      preemptingNow: null,
      aside: [],
    });
    a.onRequest(1, 2, 8); // set aside again behind #7
    a.onRelease(0, 1);
    expect(log).toEqual(['Grant P0#1', 'Grant P1#7']);
    expect(a.snapshot().aside).toEqual([[1, 2, 8]]);
  });

  it('RequestByTrigger (Algorithm 7): the sidetrack grant (ts 0, the request’s tag) beyond the bound, ending a preemption of that process', () => {
    const { a, log } = arbiter(1);
    a.onRequest(2, 4, 1);
    a.onRequest(1, 3, 1); // Preempt P2
    a.onRequestByTrigger(2, 1);
    expect(a.snapshot()).toEqual({
      grantedTo: [[2, 0, 1]],
      pendingReq: [[1, 3, 1]],
      preemptingNow: null,
      aside: [],
    });
    expect(log).toEqual(['Grant P2#1', 'Preempt P2#1', 'Grant P2#1']);
    expect(reached.counts.get('lmutin:sidetrack-grant')).toBe(1);
    a.onRequestByTrigger(1, 1); // a second sidetrack grant: over the bound
    expect(a.snapshot().grantedTo).toEqual([
      [1, 0, 1],
      [2, 0, 1],
    ]);
    expect(log.at(-1)).toBe('Grant P1#1'); // nobody preempted: ts 0 comes before every request
    a.onRequest(3, 1, 1);
    expect(a.onRelease(2, 0)).toBe(false); // names another request: the sidetrack grant stays
    expect(a.onRelease(2, 1)).toBe(true); // still one grant out, at the bound: nothing granted
    expect(a.snapshot().pendingReq).toEqual([[3, 1, 1]]);
    expect(log.at(-1)).toBe('Grant P1#1');
    a.onRelease(1, null);
    expect(log.at(-1)).toBe('Grant P3#1');
  });

  it('a Release that grants nothing over the bound lets an earlier waiting request preempt', () => {
    const { a, log } = arbiter(2);
    a.onRequest(2, 4, 1);
    a.onRequest(4, 5, 1);
    a.onRequestByTrigger(1, 1); // three grants out, bound 2
    a.onRequest(3, 2, 1); // earlier than the latest grant: Preempt P4
    a.onRelease(4, 1); // P4 completed instead (crossing): still at the bound, nothing granted…
    expect(a.snapshot().grantedTo.map(([p]) => p)).toEqual([1, 2]);
    expect(log.filter((e) => e.startsWith('Preempt'))).toEqual(['Preempt P4#1', 'Preempt P2#1']); // …so P3 preempts P2
    expect(a.snapshot().preemptingNow).toEqual([2, 1]);
  });
  it('the latest grant is the latest by (ts, tag, P), not the last one given', () => {
    const { a, log } = arbiter(2);
    a.onRequest(1, 5, 1);
    a.onRequest(2, 3, 1); // granted after P1, but earlier
    a.onRequest(3, 4, 1); // beats P1's grant (ts 5), not P2's (ts 3)
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P1#1']);
  });

  it('takeMin (the leader’s deleteMin, Algorithm 6) queues the taken process’s request set aside in its place', () => {
    const { a, log } = arbiter(1);
    a.onRequest(2, 1, 1); // granted: at the bound
    a.onRequest(1, 2, 1); // waits
    a.onRequest(1, 3, 1_000_000); // another tag while P1 waits: set aside
    a.onRequest(3, 4, 1); // waits
    expect(a.takeMin()).toEqual({ pid: 1, tag: 1 });
    expect(a.snapshot()).toEqual({
      grantedTo: [[2, 1, 1]],
      pendingReq: [
        [1, 3, 1_000_000],
        [3, 4, 1],
      ],
      preemptingNow: null,
      aside: [],
    });
    expect(reached.counts.get('lmutin:aside-admitted')).toBe(1);
    expect(log).toEqual(['Grant P2#1']); // at the bound, and nobody earlier than P2's grant
  });

  it('a sidetrack grant (ts 0) alone at the bound is the latest grant and is not preempted', () => {
    const { a, log } = arbiter(1);
    a.onRequestByTrigger(0, 3);
    a.onRequest(2, 5, 1);
    expect(log).toEqual(['Grant P0#3']);
    expect(a.snapshot()).toEqual({
      grantedTo: [[0, 0, 3]],
      pendingReq: [[2, 5, 1]],
      preemptingNow: null,
      aside: [],
    });
  });

  it('a Release of another grant leaves the preemption in progress: no second Preempt', () => {
    const { a, log } = arbiter(2);
    a.onRequest(1, 5, 1);
    a.onRequest(2, 6, 1);
    a.onRequest(3, 3, 1); // Preempt P2
    a.onRelease(1, 1); // P1 completes: P3 is granted, P2's preemption still out
    expect(a.snapshot().preemptingNow).toEqual([2, 1]);
    a.onRequest(4, 2, 1); // beats P2's grant, but one preemption at a time
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P2#1', 'Grant P3#1']);
  });

  it('a Release that grants preempts nobody, even for a waiting request earlier than a grant (Algorithm 2: on Request)', () => {
    const { a, log } = arbiter(2);
    a.onRequest(1, 5, 1);
    a.onRequest(2, 6, 1);
    a.onRequest(3, 3, 1); // Preempt P2
    a.onRequest(4, 4, 1); // waits: a preemption is out
    a.onRelease(2, 1); // P2 completed (crossing the Preempt): P3 is granted, at the bound again
    expect(a.snapshot()).toEqual({
      grantedTo: [
        [3, 3, 1],
        [1, 5, 1],
      ],
      pendingReq: [[4, 4, 1]],
      preemptingNow: null,
      aside: [],
    });
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P2#1', 'Grant P3#1']); // P4 (ts 4) preempts nobody
  });

  it('a Release with no tag (Algorithm 5) withdraws a request still waiting', () => {
    const { a, log } = arbiter(1);
    a.onRequest(1, 1, 1);
    a.onRequest(2, 2, 3);
    a.onRelease(2, null);
    expect(a.snapshot().pendingReq).toEqual([]);
    expect(reached.counts.get('lmutin:cancel-pending')).toBe(1);
    a.onRelease(1, null);
    expect(log).toEqual(['Grant P1#1']);
  });

  it('RequestByTrigger of another process leaves a preemption in progress alone (no second Preempt)', () => {
    const { a, log } = arbiter(1);
    a.onRequest(2, 4, 1);
    a.onRequest(1, 3, 1); // Preempt P2
    a.onRequestByTrigger(3, 1);
    expect(a.snapshot().preemptingNow).toEqual([2, 1]);
    expect(log).toEqual(['Grant P2#1', 'Preempt P2#1', 'Grant P3#1']); // P2 is not asked twice
  });
});

describe('Arbiter, printed rules (Algorithm 2 as printed; lmutinWith(…, { rules: "printed" }))', () => {
  it('Request: preempts the latest grant only for the new request, and only when no preemption is out', () => {
    const { a, log } = arbiter(2, 'printed');
    a.onRequest(1, 5, 1);
    a.onRequest(2, 6, 1);
    a.onRequest(3, 3, 1); // beats P2's grant: Preempt P2
    a.onRequest(4, 4, 1); // beats it too, but a preemption is out
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P2#1']);
    a.onRelease(2, 1); // P2 completed: the preemption ends, P3 (ts 3) is granted; P4 (ts 4) waits
    a.onRequest(5, 9, 1); // later than every grant: nobody preempted, though P4 beats P1 (ts 5)
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P2#1', 'Grant P3#1']);
    expect(a.snapshot()).toEqual({
      grantedTo: [
        [3, 3, 1],
        [1, 5, 1],
      ],
      pendingReq: [
        [4, 4, 1],
        [5, 9, 1],
      ],
      preemptingNow: null,
      aside: [],
    });
  });

  it('Release: ends the preemption only when the preempted process releases', () => {
    const { a } = arbiter(2, 'printed');
    a.onRequest(1, 5, 1);
    a.onRequest(2, 6, 1);
    a.onRequest(3, 3, 1); // Preempt P2
    a.onRelease(1, 1); // another process: the preemption stays out
    expect(a.snapshot().preemptingNow).toEqual([2, 1]);
    a.onRelease(2, 1);
    expect(a.snapshot().preemptingNow).toBeNull();
  });

  it('Relinquish of a grant not held, with nobody waiting, grants nothing', () => {
    const { a, log } = arbiter(1, 'printed');
    a.onRequest(1, 3, 1);
    a.onRelinquish(2, 1);
    expect(log).toEqual(['Grant P1#1']);
    expect(a.snapshot()).toEqual({ grantedTo: [[1, 3, 1]], pendingReq: [], preemptingNow: null, aside: [] });
  });
});
