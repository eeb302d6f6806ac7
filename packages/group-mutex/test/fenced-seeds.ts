/**
 * The seeded runs of time-bounded, fenced Maekawa_M the fencing tests share (issue 28 §3): five
 * processes, three groups, T_3 of the majorities of the nodes {0, 1, 2} (P3 and P4 request but are
 * nodes of no quorum; each process uses its own quorum for every group), ttl 12 time units; per
 * seed one crash-stop of P3 or P4 — in its CS on odd seeds (a dead holder: what the ttl is for),
 * at a random time on even ones —, holders paused past the ttl (30 %), one seeded pause of anyone
 * (nodes included), and two seeded partitions of a random minority that heal. Without quorum
 * reselection nodes are not crash-stopped: a dead node blocks the processes whose quorum holds
 * it, and through the locks they keep renewing while they wait, others too (README). With
 * `reselect` (issue 28 §4) the crash-stopped process is any of the five and waiting requests move
 * to another quorum of the cartel; a process counts as stuck unless some cartel has no quorum
 * avoiding the crashed.
 */
import { groupSpec, type ProcessId } from '@critsec/core';
import { fromQuorums, groupFromCoterie } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { groupMutex } from '../src/index.js';
import { GroupFencedStore, type GroupFencedResult, runGroupFenced } from './fenced-run.js';

const coterie = fromQuorums(5, [
  [0, 1],
  [0, 2],
  [1, 2],
  [0, 1],
  [1, 2],
]);
const system = groupFromCoterie(coterie, 3);

/** Without reselection: P_p is blocked once a node of its quorum (one for every group: `assignment: 'system'`) is down. */
function ownQuorumDown(p: ProcessId, down: ReadonlySet<ProcessId>): boolean {
  return system.quorumOf(p, 0).some((a) => down.has(a));
}

/** With reselection: a process is blocked only once some group's cartel has no quorum avoiding the crashed. */
function noQuorumAlive(_p: ProcessId, down: ReadonlySet<ProcessId>): boolean {
  return system.cartels.some((c) => c.every((q) => q.some((a) => down.has(a))));
}

/** What a run varies: the ttl (none: fencing only), the store's fencing, the faults. */
export interface FencedSeedOptions {
  readonly ttl?: number;
  readonly storeFencing?: boolean;
  readonly rounds?: number;
  readonly crash?: boolean;
  readonly partitions?: boolean;
  readonly pauseInCS?: number;
  readonly until?: number;
  /**
   * Quorum reselection (issue 28 §4) on a failure detector suspecting after 2 time units: then
   * the crash-stopped process is any of the five (nodes included) instead of P3 or P4.
   */
  readonly reselect?: boolean;
}

/** One seed. */
async function fencedSeed(seed: number, o: FencedSeedOptions = {}): Promise<GroupFencedResult> {
  const ttl = 'ttl' in o ? o.ttl : 12;
  const cluster = createCluster<number>({
    factory: groupMutex({
      system,
      variant: 'M',
      assignment: 'system',
      ...(ttl === undefined ? { fencing: true } : { ttl }),
      ...(o.reselect ? { reselect: true } : {}),
    }),
    ...(o.reselect ? { suspectAfter: 2 } : {}),
    spec: groupSpec(system.m, system.n),
    seed,
    pauses: { count: 1, duration: [5, 20], window: 40 },
  });
  // exclusion of the code is not promised past the ttl (README, "the guarantee"): the store checks effects
  cluster.monitor.change = () => null;
  if (o.partitions ?? true) cluster.net.partitions.random({ count: 2, gap: 15, duration: 10 });
  const r = await runGroupFenced({
    cluster,
    store: new GroupFencedStore(system.m, o.storeFencing ?? true),
    m: system.m,
    rounds: o.rounds ?? 2,
    think: [0, 30],
    hold: [1, 3],
    pauseInCS: { probability: o.pauseInCS ?? 0.3, duration: [13, 24] },
    ...((o.crash ?? true)
      ? {
          crashStop: {
            count: 1,
            window: 40,
            among: o.reselect ? [0, 1, 2, 3, 4] : [3, 4],
            inCS: seed % 2 === 1,
          },
        }
      : {}),
    blocked: o.reselect ? noQuorumAlive : ownQuorumDown,
    until: o.until ?? 20_000,
  });
  await cluster.close();
  return r;
}

/** Sums of a batch of seeds. */
export interface FencedTotals {
  seeds: number;
  entries: number;
  expired: number;
  rejected: number;
  crashed: number;
  interleavings: number;
  violations: number;
  stuck: number;
  /** The first seeds with an interleaving, a fencing violation or a stuck process. */
  bad: number[];
}

/** Runs seeds `from..to` and sums them. */
export async function fencedBatch(
  from: number,
  to: number,
  o: FencedSeedOptions = {},
): Promise<FencedTotals> {
  const t: FencedTotals = {
    seeds: 0,
    entries: 0,
    expired: 0,
    rejected: 0,
    crashed: 0,
    interleavings: 0,
    violations: 0,
    stuck: 0,
    bad: [],
  };
  for (let seed = from; seed <= to; seed++) {
    const r = await fencedSeed(seed, o);
    t.seeds++;
    t.entries += r.entries;
    t.expired += r.expiredGrants;
    t.rejected += r.rejected;
    t.crashed += r.crashed.length;
    t.interleavings += r.interleavings;
    t.violations += r.fencingViolations;
    t.stuck += r.stuck.length;
    if ((r.interleavings || r.fencingViolations || r.stuck.length) && t.bad.length < 5) t.bad.push(seed);
  }
  return t;
}
