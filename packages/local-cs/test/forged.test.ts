/**
 * Issue 15: the extreme-value property check of `@critsec/testing` on the local CS algorithms
 * (Kamei & Kakugawa 2017): LMUTIN, LMUTEX (its complement) and LKCS. `ts` is the sender's
 * Lamport clock (the run must still complete); `req` names a request (a tag); on a Request `ts`
 * is the request's timestamp, its priority at every arbiter: forging it is a forged request.
 */
import { extremeValueCheck, type ForgedSite } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import {
  complete,
  lkcs,
  lkcsPlan,
  lkcsProtocol,
  lmutex,
  lmutin,
  lmutinProtocol,
  localBounds,
  ring,
  safeInitial,
} from '../src/index.js';

/** `ts` is a clock, except on a Request, where it is the request's timestamp: its priority. */
const classify = (s: ForgedSite) =>
  s.field === 'ts' && s.type !== 'Request' && s.type !== 'RequestByTrigger' ? 'clock' : 'tag';

describe('extreme-value property check', () => {
  const graph = ring(5);
  it('LMUTIN ring(5), l = 1: every type × field × extreme value keeps the rule', async () => {
    const spec = localBounds(graph, 1, (_i, d) => d + 1);
    const report = await extremeValueCheck({
      label: 'lmutin ring(5)',
      factory: lmutin({ graph, l: 1 }),
      spec,
      initial: safeInitial(spec),
      protocols: { '': lmutinProtocol },
      classify,
      seeds: [1],
      rounds: 2,
    });
    console.info(`lmutin: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
  });

  it('LMUTEX ring(5), k = 1: every type × field × extreme value keeps the rule', async () => {
    const spec = localBounds(graph, 0, 1);
    const report = await extremeValueCheck({
      label: 'lmutex ring(5)',
      factory: lmutex({ graph, k: 1 }),
      spec,
      initial: safeInitial(spec),
      protocols: { '': lmutinProtocol },
      classify,
      seeds: [1],
      rounds: 2,
    });
    console.info(`lmutex: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
  });

  it('LKCS complete(5), l = 1, k = 4: every type × field × extreme value keeps the rule', async () => {
    const plan = lkcsPlan(complete(5), 1, 4);
    const report = await extremeValueCheck({
      label: 'lkcs complete(5)',
      factory: lkcs({ graph: complete(5), l: 1, k: 4 }),
      spec: plan.spec,
      initial: safeInitial(plan.tightened),
      protocols: { '': lkcsProtocol },
      classify,
      seeds: [1],
      rounds: 2,
    });
    console.info(`lkcs: ${report.runs} forged runs`, report.perSite);
    expect(report.failures).toEqual([]);
  });
});
