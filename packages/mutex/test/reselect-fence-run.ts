/**
 * The seeded run of Maekawa with quorum reselection together with fencing tokens and a ttl
 * (issue 28: S5 of `maekawa-reselect.ts`, F5–F7 of `maekawa-fence.ts`), shared by
 * `reselect-fence.test.ts` and `tenure.long.test.ts`. Over `majority(5)` or `tree(7)`, every
 * seed has all of the faults at once:
 *
 * - one **crash-stop** of any member at a seeded instant in the first 40 time units — a holder
 *   InCS, a waiter holding some locks, an arbiter, or an idle process (counted apart);
 * - **pauses past the ttl**: 30 % of holders paused 13–24 time units right after their entry,
 *   and one seeded pause of 5–20 of anyone (arbiters included);
 * - one **partition**: a seeded member cut off from all the others for 8–20 time units (past the
 *   ttl of 12), then healed.
 *
 * The simulator's failure detector suspects a crashed or cut-off member after 2 time units. The
 * store is a `FencedStore` (exclusion of effects: the monitor's exclusion of the code is off,
 * since a paused holder may outlive its grant by design). Every live process must finish: a
 * quorum of live processes always exists (one crash among 5 or 7, the cut heals).
 */
import { mutexSpec } from '@critsec/core';
import type { Coterie } from '@critsec/coteries';
import { createCluster, FencedStore, type FencedRunResult, runFencedWorkload } from '@critsec/harness';
import { maekawa } from '../src/index.js';

/** What the run varies: the ttl (none: fencing alone) and whether the store checks tokens. */
export interface ReselectFenceOptions {
  /** Grant ttl in time units; `undefined`: fencing tokens without time bounds. Default 12. */
  readonly ttl?: number | undefined;
  /** CSs per process (default 2). */
  readonly rounds?: number;
}

/** One seed (see the module comment). */
async function reselectFenceRun(
  coterie: Coterie,
  seed: number,
  o: ReselectFenceOptions = {},
): Promise<FencedRunResult & { errors: string[] }> {
  const n = coterie.n;
  const ttl = 'ttl' in o ? o.ttl : 12;
  const cluster = createCluster({
    factory: maekawa({ coterie, reselect: true, fencing: true, ttl }),
    spec: mutexSpec(n),
    seed,
    suspectAfter: 2,
    pauses: { count: 1, duration: [5, 20], window: 40 },
  });
  cluster.monitor.change = () => null; // effects are checked at the store (README, "the guarantee")
  const r = await runFencedWorkload({
    cluster,
    store: new FencedStore({ fencing: true }),
    rounds: o.rounds ?? 2,
    think: [0, 20],
    pauseInCS: { probability: 0.3, duration: [13, 24] },
    crashStop: { count: 1, window: 40 },
    partitions: { count: 1, gap: [1, 30], duration: [8, 20] },
    until: 5_000,
  });
  const errors = cluster.errors.map((e) => `P${e.process}: ${e.error.message}`);
  await cluster.close();
  return { ...r, errors };
}

/** Sums of a batch of seeds. */
export interface ReselectFenceTotals {
  seeds: number;
  entries: number;
  expired: number;
  rejected: number;
  crashedInCS: number;
  crashedWaiting: number;
  cuts: number;
  entriesDuringCuts: number;
  lost: number;
  violations: number;
  stuck: number;
  errors: number;
  /** The first seeds (up to 5) with a lost update, a fencing violation, a stuck process or an error. */
  bad: number[];
}

/** Runs seeds `from..to` on `coterie` and sums them. */
export async function reselectFenceBatch(
  coterie: Coterie,
  from: number,
  to: number,
  o: ReselectFenceOptions = {},
): Promise<ReselectFenceTotals> {
  const t: ReselectFenceTotals = {
    seeds: 0,
    entries: 0,
    expired: 0,
    rejected: 0,
    crashedInCS: 0,
    crashedWaiting: 0,
    cuts: 0,
    entriesDuringCuts: 0,
    lost: 0,
    violations: 0,
    stuck: 0,
    errors: 0,
    bad: [],
  };
  for (let seed = from; seed <= to; seed++) {
    const r = await reselectFenceRun(coterie, seed, o);
    t.seeds++;
    t.entries += r.entries;
    t.expired += r.expiredGrants;
    t.rejected += r.rejected;
    t.crashedInCS += r.crashedInCS;
    t.crashedWaiting += r.crashedWaiting;
    t.cuts += r.cuts;
    t.entriesDuringCuts += r.entriesDuringCuts;
    t.lost += r.lostUpdates;
    t.violations += r.fencingViolations;
    t.stuck += r.stuck.length;
    t.errors += r.errors.length;
    const bad = r.lostUpdates || r.fencingViolations || r.stuck.length || r.errors.length;
    if (bad && t.bad.length < 5) t.bad.push(seed);
  }
  return t;
}
