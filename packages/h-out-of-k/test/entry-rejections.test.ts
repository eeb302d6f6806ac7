/**
 * An `entry(h)` that does not complete rejects with `AbortError` naming the algorithm, the process
 * and the call (`PendingCall.messages`), the texts a user sees: aborted by its signal (the units
 * granted or in flight go back with `release`), or closed while waiting (a closed object sends
 * nothing more). One arbiter P0, n = 4, k = 2, controlled mode.
 */
import { isAbortError } from '@critsec/core';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { fixedCluster, inspectH } from './helpers.js';

describe('an entry that does not complete rejects with AbortError naming hOutOfK, the process and entry()', () => {
  it('aborted by its signal: "hOutOfK: P1 entry() aborted", and the granted units come back', async () => {
    const c = fixedCluster(4, 2, [0]);
    const ac = new AbortController();
    c.monitor.setRequest(1, 2);
    const e = c.objects[1]!.entry(2, { signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request'); // granted: x = 0, OK in flight
    ac.abort();
    await expect(e).rejects.toSatisfy(isAbortError);
    await expect(e).rejects.toThrow('hOutOfK: P1 entry() aborted');
    expect(queuedList(c.net)).toContain('1→0 release');
    await deliverAll(c.net);
    expect(inspectH(c, 0).arbiter).toEqual({ x: 2, Que: [] });
    expect(c.objects[1]!.state).toBe('OutCS');
  });

  it('closed while waiting: "hOutOfK: P2 was closed while waiting in entry()", and nothing more is sent', async () => {
    const c = fixedCluster(4, 2, [0]);
    const ac = new AbortController();
    c.monitor.setRequest(2, 1);
    const e = c.objects[2]!.entry(1, { signal: ac.signal });
    await c.net.settle();
    await deliver(c.net, 2, 0, 'request');
    const queued = queuedList(c.net);
    await c.objects[2]!.close();
    await expect(e).rejects.toSatisfy(isAbortError);
    await expect(e).rejects.toThrow('hOutOfK: P2 was closed while waiting in entry()');
    ac.abort(); // after close: no withdrawal, no release
    expect(queuedList(c.net)).toEqual(queued);
  });
});
