/**
 * The seeded runs of time-bounded, fenced Maekawa_M the fencing tests share (issue 28 §3): five
 * processes, three groups, T_3 of the majorities of the nodes {0, 1, 2} (P3 and P4 request but are
 * nodes of no quorum; each process uses its own quorum for every group), ttl 12 time units; per
 * seed one crash-stop of P3 or P4 — in its CS on odd seeds (a dead holder: what the ttl is for),
 * at a random time on even ones —, holders paused past the ttl (30 %), one seeded pause of anyone
 * (nodes included), and two seeded partitions of a random minority that heal. Nodes are not
 * crash-stopped: without quorum reselection a dead node blocks the processes whose quorum holds
 * it, and through the locks they keep renewing while they wait, others too (README).
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

/** Every node P_p uses (its quorum, for every group: `assignment: 'system'`). */
function nodesOf(p: ProcessId): readonly ProcessId[] {
  return system.quorumOf(p, 0);
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
    }),
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
      ? { crashStop: { count: 1, window: 40, among: [3, 4], inCS: seed % 2 === 1 } }
      : {}),
    nodesOf,
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
