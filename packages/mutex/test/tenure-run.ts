/**
 * The seeded run of time-bounded, fenced Maekawa the tenure tests share (issue 28 §4): five
 * processes over majorities of the arbiters {0, 1, 2} (P3 and P4 request but arbitrate nothing),
 * ttl 12 time units, holders paused past the ttl, seeded pauses of anyone (arbiters included) and
 * a crash-stop of a non-arbiter — without quorum reselection a dead arbiter blocks its quorums,
 * a dead holder is what the ttl is for.
 */
import { mutexSpec } from '@critsec/core';
import { fromQuorums } from '@critsec/coteries';
import { createCluster, FencedStore, type FencedRunResult, runFencedWorkload } from '@critsec/harness';
import { maekawa } from '../src/index.js';

const tenureCoterie = fromQuorums(5, [
  [0, 1],
  [0, 2],
  [1, 2],
  [0, 1],
  [1, 2],
]);

/** One seed: `rounds` CSs per process. */
async function tenureRun(seed: number, rounds: number, fencing = true): Promise<FencedRunResult> {
  const cluster = createCluster({
    factory: maekawa({ coterie: tenureCoterie, ttl: 12 }),
    spec: mutexSpec(5),
    seed,
    pauses: { count: 1, duration: [5, 20], window: 40 },
  });
  // exclusion of the code is not promised past the ttl (README, "the guarantee"): the store checks effects
  cluster.monitor.change = () => null;
  const r = await runFencedWorkload({
    cluster,
    store: new FencedStore({ fencing }),
    rounds,
    think: [0, 30],
    pauseInCS: { probability: 0.3, duration: [13, 24] },
    crashStop: { count: 1, window: 40, among: [3, 4] },
    quorumOf: (p) => tenureCoterie.quorumOf(p),
    until: 20_000,
  });
  await cluster.close();
  return r;
}

/** Sums of a batch of runs. */
export interface TenureTotals {
  seeds: number;
  entries: number;
  expired: number;
  rejected: number;
  crashed: number;
  lost: number;
  violations: number;
  stuck: number;
  /** The first seeds with a lost update, a fencing violation or a stuck process. */
  bad: number[];
}

/** Runs seeds `from..to` and sums them. */
export async function tenureBatch(from: number, to: number, rounds: number): Promise<TenureTotals> {
  const t: TenureTotals = {
    seeds: 0,
    entries: 0,
    expired: 0,
    rejected: 0,
    crashed: 0,
    lost: 0,
    violations: 0,
    stuck: 0,
    bad: [],
  };
  for (let seed = from; seed <= to; seed++) {
    const r = await tenureRun(seed, rounds);
    t.seeds++;
    t.entries += r.entries;
    t.expired += r.expiredGrants;
    t.rejected += r.rejected;
    t.crashed += r.crashed.length;
    t.lost += r.lostUpdates;
    t.violations += r.fencingViolations;
    t.stuck += r.stuck.length;
    if ((r.lostUpdates || r.fencingViolations || r.stuck.length) && t.bad.length < 5) t.bad.push(seed);
  }
  return t;
}
