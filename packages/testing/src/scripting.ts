/**
 * Scripting a schedule by hand in controlled mode (`mode: 'controlled'`): name the pending and
 * queued messages, deliver one by sender, receiver and type, deliver everything, drive a cluster
 * to rest. Shared by the algorithm packages' scripted tests, which replay the papers' and the
 * counterexamples' schedules step by step.
 *
 * @example
 * ```ts
 * const c = createCluster({ factory: maekawa({ coterie: grid(4) }), spec: mutexSpec(4), mode: 'controlled' });
 * const p = c.objects[1]!.entry();
 * await c.net.settle();
 * await deliver(c.net, 1, 0, 'REQUEST'); // throws, listing what is pending, if there is none
 * await deliverAll(c.net);
 * ```
 */
import type { ProcessId } from '@critsec/core';
import type { SimNetwork } from '@critsec/transport-sim';
import type { SimCluster } from '@critsec/harness';

/** Pending events of a controlled network, as `from→to TYPE` strings (timers as `timer label`). */
export function pendingList(net: SimNetwork): string[] {
  return net
    .pending()
    .map((e) => (e.kind === 'message' ? `${e.from}→${e.to} ${e.msg.type}` : `timer ${e.label}`));
}

/** Every queued message of a controlled network (all of each link, FIFO order), as `from→to TYPE`. */
export function queuedList(net: SimNetwork): string[] {
  return net.snapshot().links.flatMap((l) => l.queued.map((m) => `${l.from}→${l.to} ${m.type}`));
}

/**
 * Delivers the first pending message `from → to` of `type` (controlled mode).
 * @throws Error naming the pending events if there is none (the script went wrong).
 */
export async function deliver(net: SimNetwork, from: ProcessId, to: ProcessId, type: string): Promise<void> {
  const i = net
    .pending()
    .findIndex((e) => e.kind === 'message' && e.from === from && e.to === to && e.msg.type === type);
  if (i < 0) throw new Error(`no pending ${from}→${to} ${type}; pending: ${pendingList(net).join(', ')}`);
  await net.deliver(i);
}

/**
 * Delivers pending events (always the first) until none is left; returns how many.
 * @throws Error if more than `max` events were delivered (a livelock).
 */
export async function deliverAll(net: SimNetwork, max = 100_000): Promise<number> {
  let k = 0;
  while (net.pending().length > 0) {
    if (++k > max) throw new Error(`still busy after ${max} events`);
    await net.deliver(0);
  }
  return k;
}

/**
 * Drives a cluster to rest after a workload: drains the network, exits every process left InCS
 * (and lets entries still in flight complete, then exits them), until nothing moves.
 * @throws Error if the cluster still moves after 1,000 rounds.
 */
export async function drainToRest<Req>(cluster: SimCluster<Req>): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    await cluster.net.run();
    let moved = false;
    for (const cs of cluster.objects) {
      if (cs.state === 'InCS' && cs.pending === null) {
        moved = true;
        await cs.exit();
      }
    }
    if (!moved && cluster.net.inFlight === 0) return;
  }
  throw new Error('cluster did not come to rest');
}
