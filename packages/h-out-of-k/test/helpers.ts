import type { ProcessId } from '@critsec/core';
import { fromHKQuorums, type HKArbiter } from '@critsec/coteries';
import { exitEntryPairs, type InvocationRecord, type SimCluster } from '@critsec/testing';
import type { Rng } from '@critsec/transport-sim';
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
  return exitEntryPairs(records).map(({ entry, exit }) => [
    entry.request as number,
    entry.messages + exit.messages,
  ]);
}
