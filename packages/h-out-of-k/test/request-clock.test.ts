/**
 * README "Precisions beyond the figure": `c := c + 1` when a request starts is not a line of
 * Fig. 1 (which sends `request(h, p, c)` with the current clock); it is Lamport's rule for a local
 * event (Sec. 4.1's ref. [10]). The request carries the ticked clock: c = 1 for a first request
 * (Fig. 1: 0), and one more than the clock after the process has witnessed others.
 */
import { deliver, deliverAll } from '@critsec/testing';
import { describe, expect, it } from 'vitest';
import { fixedCluster, inspectH } from './helpers.js';

function pendingRequestC(c: ReturnType<typeof fixedCluster>, from: number): number {
  const e = c.net.pending().find((x) => x.kind === 'message' && x.from === from && x.msg.type === 'request');
  if (e?.kind !== 'message') throw new Error('no request pending');
  return (e.msg as unknown as { c: number }).c;
}

describe('the request clock ticks at initiation (not in Fig. 1)', () => {
  it('a first request carries c = 1, a later one the witnessed clock + 1', async () => {
    const c = fixedCluster(2, 1, [0]);
    expect(inspectH(c, 1).c).toBe(0);
    const first = c.objects[1]!.entry(1);
    await c.net.settle();
    expect(inspectH(c, 1).c).toBe(1);
    expect(pendingRequestC(c, 1)).toBe(1); // Fig. 1 as printed would send c = 0
    await deliver(c.net, 1, 0, 'request');
    await deliver(c.net, 0, 1, 'OK'); // witnessed: c := max(1, ts) + 1
    await first;
    const before = inspectH(c, 1).c;
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    const second = c.objects[1]!.entry(1);
    await c.net.settle();
    expect(pendingRequestC(c, 1)).toBe(before + 1);
    await deliverAll(c.net);
    await second;
    await c.close();
  });
});
