/**
 * The seeded run of time-bounded, fenced h-out-of-k the tenure tests share (issue 28 §1–3): five
 * processes, k = 2, h drawn in {1, 2} per entry, over an (h,k)-arbiter whose arbiters are
 * {0, 1, 2} (P3 and P4 request but arbitrate nothing) or the uniform (h,k)-arbiter of n = 5;
 * ttl 12 time units; holders paused past the ttl, a seeded pause of anyone (arbiters included),
 * a seeded partition that cuts a random minority off for a while and heals, and a **crash-stop**
 * of P3 or P4 (a dead holder or waiter is what the ttl frees; a process whose quorum holds a
 * crashed one is excused from finishing — none here with the first arbiter).
 *
 * With `reselect` (issue 28 §4, `src/reselect.ts`) the simulator's failure detector suspects a
 * crashed or cut-off process after 2 time units, and the crash-stop hits **any process whose
 * death leaves, for every h, a quorum avoiding it** — an arbiter included (P1–P4 of the first
 * arbiter, whose every 1-unit quorum holds P0; any of the uniform one's five): only the crashed
 * process is excused, every live one must finish.
 *
 * Every CS: `begin` at the {@link UnitsStore} with its token and h, hold, `end`. Counted: entries;
 * `conflicts` (committed effects of conflicting requests interleaved at the store); fencing
 * violations (a valid entry — `remaining() > 0` — whose token is not above every earlier valid
 * entry's of a conflicting request); expired grants; stuck processes.
 */
import { hasTenure, hOutOfKSpec, type ProcessId } from '@critsec/core';
import { fromHKQuorums, type HKArbiter, quorumAvoiding, uniformHKArbiter } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { hOutOfK } from '../src/index.js';
import { UnitsStore } from './units-store.js';

const [N, K, TTL] = [5, 2, 12];

/**
 * Arbiters {0, 1, 2}: every h = 1 quorum holds P0 (any three share it), the h = 2 quorums meet
 * each other and every h = 1 quorum.
 */
const threeArbiters = fromHKQuorums(N, K, [
  [
    [0, 1],
    [0, 1],
    [0, 2],
    [0, 1],
    [0, 2],
  ],
  [
    [0, 1],
    [1, 2],
    [0, 2],
    [1, 2],
    [0, 1],
  ],
]);

/** The structures the runs use. */
export const STRUCTURES = { three: threeArbiters, uniform: uniformHKArbiter(N, K) } as const;

/** Options of one seed. */
export interface TenureRunOptions {
  readonly structure?: keyof typeof STRUCTURES;
  /** CSs per process (default 2). */
  readonly rounds?: number;
  /** The store rejects stale tokens (default true). */
  readonly fencing?: boolean;
  /** Grants expire (default true; false: fencing only, grants never expire). */
  readonly ttl?: boolean;
  /**
   * Crash-stop P3 or P4 (default true). Over the uniform arbiter every process arbitrates, and a
   * waiter blocked on a dead arbiter keeps its other OKs alive by its keep-alives, blocking
   * lower-priority requests there too (README, "What is left"): that needs quorum reselection.
   */
  readonly crash?: boolean;
  /**
   * Quorum reselection on the simulator's failure detector (suspicion after 2 time units), and
   * the crash-stop drawn among every process a quorum for every h can avoid (default false).
   */
  readonly reselect?: boolean;
  /**
   * Draw the crash-stop among {@link avoidable} processes and excuse only the crashed one
   * (default: as `reselect`) — with `reselect: false`, the run that shows reselection is needed.
   */
  readonly crashAny?: boolean;
}

/** What one seed counted. */
interface TenureRunResult {
  entries: number;
  conflicts: number;
  overCapacity: number;
  violations: number;
  expired: number;
  rejected: number;
  stuck: ProcessId[];
  /** The process crash-stopped (−1: none). */
  crashed: ProcessId;
}

/** The processes whose crash leaves every other one, for every h, a quorum avoiding it. */
function avoidable(arbiter: HKArbiter): ProcessId[] {
  const all = Array.from({ length: arbiter.n }, (_, p) => p);
  const avoids = (dead: ProcessId) => (h: number) =>
    all.every((i) => i === dead || quorumAvoiding(arbiter.quorumSet(h), i, new Set([dead])) !== undefined);
  return all.filter((dead) => Array.from({ length: arbiter.k }, (_, h) => h + 1).every(avoids(dead)));
}

/** One seed (see the module comment). */
async function tenureRun(seed: number, o: TenureRunOptions = {}): Promise<TenureRunResult> {
  const arbiter: HKArbiter = STRUCTURES[o.structure ?? 'three'];
  const reselect = o.reselect ?? false;
  const grants = o.ttl === false ? { fencing: true } : { ttl: TTL };
  const cluster = createCluster({
    factory: hOutOfK({ k: K, arbiter, reselect, ...grants }),
    spec: hOutOfKSpec(K, N),
    seed,
    pauses: { count: 1, duration: [5, 20], window: 40 },
    ...(reselect ? { suspectAfter: 2 } : {}),
  });
  // exclusion of the code is not promised past the ttl (README, "The guarantee"): the store checks effects
  cluster.monitor.change = () => null;
  const { net, clocks } = cluster;
  const rng = net.rng('tenure-run');
  const store = new UnitsStore(K, { fencing: o.fencing ?? true });
  const draw = (lo: number, hi: number) => lo + rng.next() * (hi - lo);
  const crashAny = o.crashAny ?? reselect;
  const victims = crashAny ? avoidable(arbiter) : [3, 4];
  const crashed = o.crash === false ? -1 : victims[rng.int(victims.length)]!;
  if (crashed >= 0)
    net.schedule(draw(0, 40), () => [net.crash(crashed), clocks.crashed(crashed)], `P${crashed} crash-stop`);
  net.partitions.random({ count: 1, gap: draw(5, 40), duration: draw(10, 40) });
  const r: TenureRunResult = {
    entries: 0,
    conflicts: 0,
    overCapacity: 0,
    violations: 0,
    expired: 0,
    rejected: 0,
    stuck: [],
    crashed,
  };
  const maxValid = new Array<number>(K).fill(Number.NEGATIVE_INFINITY); // per h: the largest valid token
  const done = new Array<boolean>(N).fill(false);
  const excused = (p: ProcessId) =>
    p === crashed || (!crashAny && [1, 2].some((h) => arbiter.quorumOf(p, h).includes(crashed)));
  const loop = async (id: ProcessId): Promise<void> => {
    const clock = clocks.clock(id);
    const sleep = (d: number) => new Promise<void>((resolve) => clock.setTimer(d, resolve));
    const cs = cluster.objects[id]!;
    for (let round = 0; round < (o.rounds ?? 2); round++) {
      await sleep(draw(0, 30));
      const h = 1 + rng.int(K);
      await cs.entry(h);
      const t = hasTenure(cs) ? cs.tenure() : undefined;
      if (t === undefined) throw new Error(`P${id} is InCS without a tenure`);
      r.entries++;
      if (t.remaining() > 0) {
        for (let g = K - h + 1; g <= K; g++) if (maxValid[g - 1]! >= t.token) r.violations++;
        maxValid[h - 1] = Math.max(maxValid[h - 1]!, t.token);
      }
      if (rng.next() < 0.3) clocks.pause(id, draw(13, 24));
      await sleep(draw(0.5, 1.5));
      const handle = store.begin(t.token, h);
      await sleep(draw(0.5, 1.5));
      store.end(handle, t.token, h);
      if (t.remaining() <= 0) r.expired++;
      await cs.exit();
    }
    done[id] = true;
  };
  const failures: unknown[] = [];
  for (let id = 0; id < N; id++) loop(id).catch((e: unknown) => failures.push(e));
  await net.run({
    until: 20_000,
    stopWhen: () => failures.length > 0 || done.every((d, p) => d || excused(p)),
  });
  if (failures.length > 0) throw failures[0];
  await cluster.close(); // rejects the entries of the crashed and the excused: not failures
  r.conflicts = store.conflicts;
  r.overCapacity = store.overCapacity;
  r.rejected = store.rejected;
  r.stuck = done.flatMap((d, p) => (d || excused(p) ? [] : [p]));
  return r;
}

/** Sums of a batch of seeds. */
export interface TenureTotals {
  seeds: number;
  entries: number;
  conflicts: number;
  overCapacity: number;
  violations: number;
  expired: number;
  rejected: number;
  stuck: number;
  /** Seeds whose crash-stopped process is an arbiter (in some quorum). */
  arbiterCrashes: number;
  /** The first seeds with a conflict, a fencing violation or a stuck process. */
  bad: number[];
}

/** Runs seeds `from..to` and sums them. */
export async function tenureBatch(from: number, to: number, o: TenureRunOptions = {}): Promise<TenureTotals> {
  const t: TenureTotals = {
    seeds: 0,
    entries: 0,
    conflicts: 0,
    overCapacity: 0,
    violations: 0,
    expired: 0,
    rejected: 0,
    stuck: 0,
    arbiterCrashes: 0,
    bad: [],
  };
  const arbiter = STRUCTURES[o.structure ?? 'three'];
  const arbitrates = (p: ProcessId) =>
    [1, 2].some((h) => arbiter.quorumSet(h).quorums.some((q) => q.includes(p)));
  for (let seed = from; seed <= to; seed++) {
    const r = await tenureRun(seed, o);
    if (r.crashed >= 0 && arbitrates(r.crashed)) t.arbiterCrashes++;
    t.seeds++;
    t.entries += r.entries;
    t.conflicts += r.conflicts;
    t.overCapacity += r.overCapacity;
    t.violations += r.violations;
    t.expired += r.expired;
    t.rejected += r.rejected;
    t.stuck += r.stuck.length;
    if ((r.conflicts || r.violations || r.stuck.length) && t.bad.length < 5) t.bad.push(seed);
  }
  return t;
}
