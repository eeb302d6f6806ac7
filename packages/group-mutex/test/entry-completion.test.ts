/**
 * How an `entry(g)` completes. The flip is atomic with the message that completes the quorum
 * (Fig. 5 C.4 `state := CS` on the last LOCKED; Fig. 7 B.3 on GRANT): the object is InCS as soon
 * as that message is handled, before any continuation runs (ARCHITECTURE §2, the state flip). An
 * aborted or closed entry rejects with `AbortError` naming the algorithm, the process and the call.
 * surficial(4, 2), subgroup assignment: P1's group-0 quorum is {2, 3}. Controlled mode.
 */
import { groupSpec, isAbortError } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { groupMutex } from '../src/index.js';
import { enter } from './helpers.js';

function controlled(variant: 'M' | 'S'): SimCluster<number> {
  return createCluster({
    factory: groupMutex({ system: surficial(4, 2), variant }),
    spec: groupSpec(2, 4),
    mode: 'controlled',
  });
}

describe('the flip to InCS happens in the handler of the completing message', () => {
  it('Maekawa_M: InCS when the last LOCKED is handled (C.4)', async () => {
    const c = controlled('M');
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST');
    await deliver(c.net, 1, 3, 'REQUEST');
    await deliver(c.net, 2, 1, 'LOCKED');
    expect(c.objects[1]!.state).toBe('OutCS');
    const last = deliver(c.net, 3, 1, 'LOCKED');
    expect(c.objects[1]!.state).toBe('InCS'); // no continuation has run yet
    await last;
    await p1;
  });

  it('Maekawa_S: InCS when GRANT is handled (B.3)', async () => {
    const c = controlled('S');
    const p1 = enter(c, 1, 0);
    await c.net.settle();
    await deliver(c.net, 1, 2, 'REQUEST');
    await deliver(c.net, 2, 3, 'REQUEST');
    expect(c.objects[1]!.state).toBe('OutCS');
    const grant = deliver(c.net, 3, 1, 'GRANT');
    expect(c.objects[1]!.state).toBe('InCS');
    await grant;
    await p1;
  });
});

describe('an entry that does not complete rejects with AbortError naming the algorithm, process and call', () => {
  for (const [variant, name] of [
    ['M', 'Maekawa_M'],
    ['S', 'Maekawa_S'],
  ] as const) {
    it(`${name}: aborted, and closed while waiting`, async () => {
      const c = controlled(variant);
      const ac = new AbortController();
      const aborted = enter(c, 1, 0, { signal: ac.signal });
      await c.net.settle();
      ac.abort();
      await expect(aborted).rejects.toSatisfy(isAbortError);
      await expect(aborted).rejects.toThrow(`${name}: P1 entry() aborted`);
      const closed = enter(c, 2, 1);
      await c.net.settle();
      void c.objects[2]!.close();
      await expect(closed).rejects.toSatisfy(isAbortError);
      await expect(closed).rejects.toThrow(`${name}: P2 was closed while waiting in entry()`);
    });
  }
});
