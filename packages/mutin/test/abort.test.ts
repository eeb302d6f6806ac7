/**
 * Aborting an Exit(): withdrawn while it waits for mx or for l+1 processes InCS, the process
 * stays InCS, gives mx back, and the cluster carries on; once the Acquire messages are out the
 * exit completes regardless of the signal.
 */
import { AbortError, globalSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';
import { type MutinCS, mutin } from '../src/index.js';

function cluster3() {
  // MUTIN(1) over 3 processes, only P0 InCS: P0 cannot leave until somebody enters
  return createCluster({
    factory: mutin({ l: 1, coterie: majority(3) }),
    spec: globalSpec(1, 3, 3),
    initial: ['InCS', 'OutCS', 'OutCS'],
  });
}

describe('aborting MUTIN Exit()', () => {
  it('while waiting for l+1 InCS: rejects with AbortError, stays InCS, releases mx', async () => {
    const c = cluster3();
    const p0 = c.objects[0] as MutinCS;
    const ac = new AbortController();
    const exit = p0.exit({ signal: ac.signal });
    await c.net.run();
    expect(p0.pending).toBe('exit');
    expect(p0.mx.state).toBe('InCS'); // holds mx, blocked on |currentInCS| ≥ 2
    ac.abort('not now');
    await expect(exit).rejects.toBeInstanceOf(AbortError);
    await c.net.run();
    expect(p0.state).toBe('InCS');
    expect(p0.mx.state).toBe('OutCS');
    expect(c.monitor.violations).toEqual([]);
    // the cluster is live: P1 enters, then P1 can leave again (mx was given back), then P0 too
    await c.objects[1]!.entry();
    const e1 = c.objects[1]!.exit();
    await c.net.run();
    await e1;
    await c.objects[2]!.entry();
    const e0 = p0.exit();
    await c.net.run();
    await e0;
    expect(c.objects.map((o) => o.state)).toEqual(['OutCS', 'OutCS', 'InCS']);
    expect(c.monitor.violations).toEqual([]);
    expect(c.errors).toEqual([]);
  });

  it('a late Response2 for an aborted request is harmless', async () => {
    const c = cluster3();
    const p0 = c.objects[0] as MutinCS;
    const ac = new AbortController();
    const exit = p0.exit({ signal: ac.signal });
    await c.net.run();
    ac.abort();
    await expect(exit).rejects.toBeInstanceOf(AbortError);
    await c.net.run();
    // Q_0's members still remember P0's Query; the next Release answers it with a Response2
    await c.objects[1]!.entry();
    await c.net.run();
    expect(c.net.counters().byType[' Response2']).toBeGreaterThan(0);
    expect(p0.currentInCS.size).toBeGreaterThan(0); // same reqCnt: harmlessly merged, reset at the next Exit()
    const again = p0.exit();
    await c.net.run();
    await again;
    expect(p0.reqCnt).toBe(2);
    expect(c.monitor.violations).toEqual([]);
  });

  it('while waiting for mx: rejects with AbortError and leaves nothing behind', async () => {
    const c = createCluster({
      factory: mutin({ l: 0, coterie: majority(3) }),
      spec: globalSpec(0, 3, 3),
      initial: ['InCS', 'InCS', 'OutCS'],
    });
    const e0 = c.objects[0]!.exit();
    const ac = new AbortController();
    const e1 = c.objects[1]!.exit({ signal: ac.signal });
    ac.abort();
    await expect(e1).rejects.toBeInstanceOf(AbortError);
    await c.net.run();
    await e0;
    expect(c.objects[1]!.state).toBe('InCS');
    const again = c.objects[1]!.exit();
    await c.net.run();
    await again;
    expect(c.objects.map((o) => o.state)).toEqual(['OutCS', 'OutCS', 'OutCS']);
  });

  it('after the Acquire messages are out, the exit completes although the signal fired', async () => {
    const c = createCluster({
      factory: mutin({ l: 1, coterie: majority(3) }),
      spec: globalSpec(1, 3, 3),
      initial: ['InCS', 'InCS', 'OutCS'],
    });
    const p0 = c.objects[0] as MutinCS;
    const ac = new AbortController();
    const exit = p0.exit({ signal: ac.signal });
    let sawAcquire = false;
    const off = c.net.onSend((m) => {
      if (m.msg.type === 'Acquire' && !sawAcquire) {
        sawAcquire = true;
        ac.abort();
      }
    });
    await c.net.run();
    off();
    await expect(exit).resolves.toBeUndefined();
    expect(sawAcquire).toBe(true);
    expect(p0.state).toBe('OutCS');
  });

  it('close() while waiting rejects the exit and sends nothing more', async () => {
    const c = cluster3();
    const exit = c.objects[0]!.exit();
    await c.net.run();
    await c.objects[0]!.close();
    await expect(exit).rejects.toBeInstanceOf(AbortError);
    const fromP0: string[] = [];
    c.net.onSend((m) => {
      if (m.from === 0) fromP0.push(m.msg.type);
    });
    await c.objects[1]!.entry(); // its Release makes Q_1 answer P0's old Query: P0 must stay silent
    await c.net.run();
    expect(c.net.counters().byType[' Response2']).toBe(1);
    expect(fromP0).toEqual([]);
  });
});
