import { mutexSpec } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { createCluster, runWorkload } from '@critsec/harness';
import { centralMutex, deliver, deliverAll, drainToRest, pendingList, queuedList } from '../src/index.js';

const controlled = () =>
  createCluster({ factory: centralMutex(), spec: mutexSpec(3), mode: 'controlled', seed: 1 });

describe('scripting a schedule in controlled mode', () => {
  it('names pending and queued messages, delivers one by sender, receiver and type', async () => {
    const c = controlled();
    const p1 = c.objects[1]!.entry();
    const p2 = c.objects[2]!.entry();
    await c.net.settle();
    expect(pendingList(c.net)).toEqual(['1→0 REQUEST', '2→0 REQUEST']);
    expect(queuedList(c.net)).toEqual(['1→0 REQUEST', '2→0 REQUEST']);
    await deliver(c.net, 2, 0, 'REQUEST'); // the coordinator hears P2 first
    expect(pendingList(c.net)).toEqual(['1→0 REQUEST', '0→2 GRANT']);
    await deliver(c.net, 0, 2, 'GRANT');
    await p2;
    expect(c.objects[2]!.state).toBe('InCS');
    expect(c.objects[1]!.state).toBe('OutCS');
    void c.objects[2]!.exit();
    expect(await deliverAll(c.net)).toBe(3); // P1's REQUEST, P2's RELEASE, the GRANT to P1
    await p1;
    expect(c.objects[1]!.state).toBe('InCS');
    expect(c.firstViolation).toBeNull();
  });

  it('deliver throws, naming what is pending, when the script asks for a message that is not', async () => {
    const c = controlled();
    void c.objects[1]!.entry();
    await c.net.settle();
    await expect(deliver(c.net, 0, 1, 'GRANT')).rejects.toThrow('no pending 0→1 GRANT; pending: 1→0 REQUEST');
  });

  it('deliverAll gives up after max events', async () => {
    const c = controlled();
    void c.objects[1]!.entry();
    await c.net.settle();
    await expect(deliverAll(c.net, 1)).rejects.toThrow('still busy after 1 events');
  });

  it('drainToRest exits every process left InCS and empties the network', async () => {
    const c = createCluster({
      factory: centralMutex(),
      spec: mutexSpec(4),
      seed: 2,
      initial: ['InCS', 'OutCS', 'OutCS', 'OutCS'],
    });
    const entries = [1, 2, 3].map((i) => c.objects[i]!.entry());
    await drainToRest(c);
    await Promise.all(entries);
    expect(c.objects.map((o) => o.state)).toEqual(['OutCS', 'OutCS', 'OutCS', 'OutCS']);
    expect(c.net.inFlight).toBe(0);
    const r = await runWorkload(c, { rounds: 1 });
    expect(r.ok).toBe(true);
  });
});
