/**
 * When the state flips (ARCHITECTURE §2, "The state flip"; Fig. 1): InCS in the handler of the
 * OK that completes `K = Q` ("In := true"), before any continuation of `entry()` runs; OutCS at
 * the `exit()` call itself, before a `release` is handled anywhere. A round fires exactly two
 * `statechange` events, InCS then OutCS, each while its call is still in flight. One arbiter
 * pair {P0, P1} for every quorum, n = 3, k = 2, controlled mode.
 */
import type { CSState } from '@critsec/core';
import { deliver, deliverAll } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { fixedCluster } from './helpers.js';

describe('the state flips in the handler of the last OK and at the exit() call', () => {
  it('InCS when the last OK is handled, OutCS when exit() is called; two statechange events a round', async () => {
    const c = fixedCluster(3, 2, [0, 1]);
    const cs = c.objects[2]!;
    const seen: [CSState, string | null][] = [];
    cs.on('statechange', (s) => seen.push([s, cs.pending]));
    c.monitor.setRequest(2, 1);
    const e = cs.entry(1);
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request');
    await deliver(c.net, 2, 1, 'request');
    await deliver(c.net, 0, 2, 'OK');
    expect(cs.state).toBe('OutCS');
    const last = deliver(c.net, 1, 2, 'OK');
    expect(cs.state).toBe('InCS'); // no continuation has run yet
    expect(seen).toEqual([['InCS', 'entry']]);
    await last;
    await e;
    const x = cs.exit();
    expect(cs.state).toBe('OutCS'); // flipped before exit() returned its promise
    expect(seen).toEqual([
      ['InCS', 'entry'],
      ['OutCS', 'exit'],
    ]);
    await x;
    await deliverAll(c.net);
    expect(seen).toHaveLength(2);
    expect(c.firstViolation).toBeNull();
  });
});
