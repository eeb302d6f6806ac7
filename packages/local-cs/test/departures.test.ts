/**
 * The README's deviations 6–9 from Algorithms 1–7, each pinned here or where the README says:
 *
 * 6. LKCS's Release names the request it releases (Algorithm 5 prints it untagged): it frees the
 *    sender's grant only when that grant is for the request named — the sidetrack's grant names
 *    its request too (`test/arbiter-rules.test.ts`).
 * 7. On a Request, the tagged arbiter preempts for the earliest *pending* request, which need not
 *    be the one arriving (Algorithm 2 compares the arriving request only).
 * 8. A RequestByTrigger is followed by a preemption attempt (not in Algorithm 7).
 * 9. A process ignores Preempt once triggered (`test/lkcs-requester.test.ts`).
 */
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { Arbiter, type ArbiterRules } from '../src/arbiter.js';
import { safeInitial } from '../src/config.js';
import { complete } from '../src/graphs.js';
import { lkcs } from '../src/lkcs.js';
import { lkcsPlan } from '../src/lkcs-plan.js';
import type { LkcsSnapshot } from '../src/lkcs-protocol.js';

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

describe('6. LKCS: a Release frees the sender’s grant only for the request it names', () => {
  it('complete(5), (l, k) = (0, 5): P1’s initial MUTEX grant at P2 (tag 0) stays with a Release naming request 99, goes with one naming 0', async () => {
    const g = complete(5);
    const plan = lkcsPlan(g, 0, 5);
    const c: SimCluster = createCluster({
      factory: lkcs({ graph: g, l: 0, k: 5 }),
      spec: plan.spec,
      initial: safeInitial(plan.tightened),
      mode: 'controlled',
    });
    const inspect = (i: number) => (c.objects[i] as unknown as { inspect(): LkcsSnapshot }).inspect();
    const holders = () => inspect(2).arbiter.MUTEX.grantedTo.map(([p]) => p);
    expect(holders()).toContain(1);
    c.net.endpoint(1).send(2, { type: 'Release', at: 'MUTEX', req: 99, ts: 1 });
    await deliver(c.net, 1, 2, 'Release');
    expect(holders()).toContain(1);
    c.net.endpoint(1).send(2, { type: 'Release', at: 'MUTEX', req: 0, ts: 1 });
    await deliver(c.net, 1, 2, 'Release');
    expect(holders()).not.toContain(1);
    await c.close();
  });
});

describe('7. the tagged arbiter preempts, on a Request, for the earliest pending request', () => {
  // grants P1 (ts 5), P2 (ts 6); P3 (ts 1) preempts P2; P4 (ts 2) waits (a preemption is out);
  // P2 relinquishes and P3 is granted: P4 (ts 2) now waits, earlier than P1's grant, unpreempted
  const scene = (rules: ArbiterRules) => {
    const { a, log } = arbiter(2, rules);
    a.onRequest(1, 5, 1);
    a.onRequest(2, 6, 1);
    a.onRequest(3, 1, 1);
    a.onRequest(4, 2, 1);
    a.onRelinquish(2, 1);
    expect(a.snapshot().preemptingNow).toBeNull();
    a.onRequest(5, 9, 1); // later than every grant
    return log;
  };
  it('tagged (the default): P5’s Request makes P4 preempt P1', () => {
    expect(scene('tagged')).toEqual([
      'Grant P1#1',
      'Grant P2#1',
      'Preempt P2#1',
      'Grant P3#1',
      'Preempt P1#1',
    ]);
  });
  it('printed (Algorithm 2): P5 does not beat P1’s grant, nobody is preempted', () => {
    expect(scene('printed')).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P2#1', 'Grant P3#1']);
  });
});

describe('8. a RequestByTrigger is followed by a preemption attempt', () => {
  it('P2’s sidetrack grant ends its preemption; P3 (ts 1), still waiting, preempts P1 (ts 5)', () => {
    const { a, log } = arbiter(2);
    a.onRequest(1, 5, 1);
    a.onRequest(2, 6, 1);
    a.onRequest(3, 1, 1); // Preempt P2
    a.onRequestByTrigger(2, 1);
    expect(log).toEqual(['Grant P1#1', 'Grant P2#1', 'Preempt P2#1', 'Grant P2#1', 'Preempt P1#1']);
    expect(a.snapshot().preemptingNow).toEqual([1, 1]);
  });
});
