import type { ProcessId } from '@critsec/core';
import { fromHKQuorums, type HKArbiter } from '@critsec/coteries';
import type { InvocationRecord, SimCluster } from '@critsec/testing';
import type { Rng, SimNetwork } from '@critsec/transport-sim';
import type { HOutOfKSnapshot } from '../src/index.js';

/** h drawn uniformly in 1..k for each entry (the "h drawn per round"). */
export const randomH =
  (k: number) =>
  (rng: Rng): number =>
    1 + rng.int(k);

/** An (h,k)-arbiter whose every quorum, for every h, is `q` (validated by `fromHKQuorums`). */
export function fixedArbiter(n: number, k: number, q: readonly ProcessId[]): HKArbiter {
  const perProcess = Array.from({ length: n }, () => [...q]);
  return fromHKQuorums(
    n,
    k,
    Array.from({ length: k }, () => perProcess),
  );
}

/** The object's `inspect()`. */
export function inspectH(cluster: SimCluster<number>, i: ProcessId): HOutOfKSnapshot {
  return (cluster.objects[i] as unknown as { inspect(): HOutOfKSnapshot }).inspect();
}

/** Pending events of a controlled network, as `from→to TYPE`. */
export function pendingList(net: SimNetwork): string[] {
  return net
    .pending()
    .map((e) => (e.kind === 'message' ? `${e.from}→${e.to} ${e.msg.type}` : `timer ${e.label}`));
}

/** Every queued message (all of each link, FIFO order), as `from→to TYPE`. */
export function queuedList(net: SimNetwork): string[] {
  return net.snapshot().links.flatMap((l) => l.queued.map((m) => `${l.from}→${l.to} ${m.type}`));
}

/**
 * Delivers the first pending message `from → to` of `type` (controlled mode).
 * @throws if there is none (the script went wrong).
 */
export async function deliver(net: SimNetwork, from: ProcessId, to: ProcessId, type: string): Promise<void> {
  const i = net
    .pending()
    .findIndex((e) => e.kind === 'message' && e.from === from && e.to === to && e.msg.type === type);
  if (i < 0) throw new Error(`no pending ${from}→${to} ${type}; pending: ${pendingList(net).join(', ')}`);
  await net.deliver(i);
}

/** Delivers pending events (always the first) until none is left; returns how many. */
export async function deliverAll(net: SimNetwork, max = 100_000): Promise<number> {
  let k = 0;
  while (net.pending().length > 0) {
    if (++k > max) throw new Error(`still busy after ${max} events`);
    await net.deliver(0);
  }
  return k;
}

/** Smallest number of requesters any arbiter serves for some h (`min_h min_r |R_r|`). */
export function minRequesters(arbiter: HKArbiter): number {
  let min = Number.POSITIVE_INFINITY;
  for (let h = 1; h <= arbiter.k; h++)
    for (let r = 0; r < arbiter.n; r++) {
      const s = arbiter.reportersOf(r, h).length;
      if (s > 0) min = Math.min(min, s);
    }
  return min;
}

/** Per exit+entry pair of each process: `[h, messages]` (the k-th entry with the k-th exit). */
export function pairs(records: readonly InvocationRecord[]): [number, number][] {
  const byProcess = new Map<number, { entries: InvocationRecord[]; exits: InvocationRecord[] }>();
  for (const r of records) {
    if (r.extra || r.aborted || Number.isNaN(r.end)) continue;
    const b = byProcess.get(r.process) ?? { entries: [], exits: [] };
    byProcess.set(r.process, b);
    (r.op === 'entry' ? b.entries : b.exits).push(r);
  }
  const out: [number, number][] = [];
  for (const { entries, exits } of byProcess.values())
    for (let t = 0; t < Math.min(entries.length, exits.length); t++)
      out.push([entries[t]!.request as number, entries[t]!.messages + exits[t]!.messages]);
  return out;
}
