import { hOutOfKSpec, type ProcessId } from '@critsec/core';
import { fromHKQuorums, type HKArbiter } from '@critsec/coteries';
import {
  createCluster,
  type InvocationRecord,
  runWorkload,
  type SimCluster,
  type WorkloadResult,
} from '@critsec/harness';
import { exitEntryPairs, type ScheduleRun, type ScheduleSetup } from '@critsec/testing';
import { exponentialDelay, type Rng, uniformDelay } from '@critsec/transport-sim';
import { type HOutOfKSnapshot, hOutOfK, hOutOfKBounds } from '../src/index.js';

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

/** A controlled-mode cluster of n processes running h-out-of-k over {@link fixedArbiter}`(n, k, q)`. */
export function fixedCluster(n: number, k: number, q: readonly ProcessId[]): SimCluster<number> {
  return createCluster({
    factory: hOutOfK({ k, arbiter: fixedArbiter(n, k, q) }),
    spec: hOutOfKSpec(k, n),
    mode: 'controlled',
  });
}

/**
 * entry(h) on P`i`, then exit() as soon as it is InCS; resolves after the exit. `order`, if
 * given, records who entered, in order.
 */
export function cycle(c: SimCluster<number>, i: number, h: number, order?: number[]): Promise<void> {
  const cs = c.objects[i]!;
  c.monitor.setRequest(i, h);
  return cs.entry(h).then(() => {
    order?.push(i);
    return cs.exit();
  });
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

/**
 * One run of Sec. 4.3's contended workload (`rounds` per process, h uniform in 1..k per entry,
 * causal attribution): an even seed draws exponential(1) delays, an odd one uniform(0.1, 2);
 * seeds ≡ 0, 1 (mod 4) run at full contention (think 0), the others at think 0.5; hold 1. `trace`
 * receives the simulator's trace lines (e.g. `PaperAccounting.sink`).
 */
export function contendedRun(
  arbiter: HKArbiter,
  seed: number,
  rounds: number,
  trace?: (line: string) => void,
): Promise<WorkloadResult> {
  const { n, k } = arbiter;
  const delay = seed % 2 === 0 ? exponentialDelay(1) : uniformDelay(0.1, 2);
  const cluster = createCluster({
    factory: hOutOfK({ k, arbiter }),
    spec: hOutOfKSpec(k, n),
    seed,
    delay,
    attribution: true,
    ...(trace === undefined ? {} : { trace }),
  });
  return runWorkload(cluster, {
    rounds,
    think: seed % 4 < 2 ? 0 : 0.5,
    hold: 1,
    request: randomH(k),
  });
}

/** Every process contending, h ∈ 1..k picked by the schedule, `rounds` rounds each. */
export function contended(arbiter: HKArbiter, rounds = 1): ScheduleSetup<number> {
  const { n, k } = arbiter;
  return {
    cluster: { factory: hOutOfK({ k, arbiter }), spec: hOutOfKSpec(k, n) },
    requests: Array.from({ length: k }, (_, t) => t + 1),
    rounds,
  };
}

/** The largest `messages − (3h+3)·|q_{h,k}|` over the run's pairs (−∞ without a pair). */
export function excess(arbiter: HKArbiter): (run: ScheduleRun) => number {
  const bound = hOutOfKBounds(arbiter).map((b) => b.messagesContended);
  return (run) =>
    Math.max(
      Number.NEGATIVE_INFINITY,
      ...run.pairs.map((p) => p.messages - bound[(p.request as number) - 1]!),
    );
}
