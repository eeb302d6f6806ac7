/**
 * A read-modify-write workload over a {@link FencedStore} in the simulator (issue 28 §1–3): the
 * check of **exclusion of effects** under time-bounded grants. Every process, `rounds` times:
 * thinks, enters, takes its tenure (`hasTenure` of `@critsec/core`), possibly is paused right
 * there (seeded: SIGSTOP past its TTL), reads the register with its token, holds, writes
 * `read + 1` with its token, exits. Sleeps run on the process's own clock (`SimCluster.clocks`),
 * so a paused process's code runs late, as a stopped real process's would.
 *
 * Counted: entries; `lostUpdates` (the store's); `rejected` (stale tokens refused);
 * `fencingViolations` — an entry whose tenure was still valid at entry (`remaining() > 0`) with a
 * token not above every earlier valid entry's (successive holders must get strictly increasing
 * tokens; a holder whose deadline passed before its entry completed is already fenced off);
 * `expiredGrants` — CSs whose tenure had expired by their exit; `stuck` — processes that had not
 * finished when the run stopped.
 *
 * Faults besides the pauses: crash-stops (`crashStop`: counted by what the victim was doing —
 * InCS, or waiting in `entry()`, where a quorum algorithm may hold some of its locks) and
 * partitions (`partitions`: one seeded member at a time cut off from all the others, then healed;
 * the entries the others complete while it is cut off are counted).
 */
import { hasTenure, type ProcessId, type Rng } from '@critsec/core';
import type { SimCluster } from './cluster.js';
import type { FencedStore } from './fenced-store.js';

/** Options of {@link runFencedWorkload}. */
export interface FencedRunOptions {
  /** The cluster (its objects must give tenures: e.g. Maekawa with `ttl`). */
  readonly cluster: SimCluster;
  /** The resource. */
  readonly store: FencedStore;
  /** CSs per process. */
  readonly rounds: number;
  /** Think time before each entry, uniform in [min, max] time units (default [0, 4]). */
  readonly think?: readonly [number, number];
  /** Hold time, uniform in [min, max] (default [1, 3]), split around the read. */
  readonly hold?: readonly [number, number];
  /** A holder is paused right after its entry with this probability, for a duration uniform in the range. */
  readonly pauseInCS?: {
    /** Chance that a holder is paused right after its entry, in [0, 1]. */
    readonly probability: number;
    /** The pause's duration, uniform in [min, max] time units. */
    readonly duration: readonly [number, number];
  };
  /** Virtual-time horizon: processes not finished by then are stuck (default 10⁶). */
  readonly until?: number;
  /**
   * Crash-stop: `count` processes drawn from `among` (default all) crash at times uniform in
   * [0, window] and never come back (no durable layer needed).
   */
  readonly crashStop?: {
    /** Processes to crash-stop (distinct; fewer if `among` is shorter). */
    readonly count: number;
    /** Crash times are uniform in [0, window] time units. */
    readonly window: number;
    /** The processes that may crash (default all). */
    readonly among?: readonly ProcessId[];
  };
  /**
   * `Q_p` of each process: a live process whose quorum holds a crashed one is excused from
   * finishing (without quorum reselection it cannot). Default: every process must finish.
   */
  readonly quorumOf?: (p: ProcessId) => readonly ProcessId[];
  /**
   * Partitions: `count` times, after a gap, one member drawn from `among` (default all) is cut off
   * from every other process (`SimNetwork.partitions`: messages wait in their links) for a while,
   * then healed. Gaps and durations are uniform in their [min, max] time units.
   */
  readonly partitions?: {
    /** Cuts, one after the other. */
    readonly count: number;
    /** Time units before each cut, from the start or the previous heal. */
    readonly gap: readonly [number, number];
    /** Time units each cut lasts. */
    readonly duration: readonly [number, number];
    /** The members that may be cut off (default all). */
    readonly among?: readonly ProcessId[];
  };
}

/** What {@link runFencedWorkload} counted. */
export interface FencedRunResult {
  /** CSs entered. */
  entries: number;
  /** Updates lost at the store. */
  lostUpdates: number;
  /** Operations the store refused for a stale token. */
  rejected: number;
  /** Valid entries whose token did not exceed every earlier valid entry's. */
  fencingViolations: number;
  /** CSs whose tenure had expired by their exit. */
  expiredGrants: number;
  /** Live processes whose quorum is alive that did not finish their rounds. */
  stuck: ProcessId[];
  /** Processes crash-stopped. */
  crashed: ProcessId[];
  /** Of {@link crashed}: those that crashed InCS. */
  crashedInCS: number;
  /** Of {@link crashed}: those that crashed waiting in `entry()`. */
  crashedWaiting: number;
  /** Cuts that happened (`partitions`). */
  cuts: number;
  /** Entries completed by processes not cut off while a cut was in force. */
  entriesDuringCuts: number;
  /** Virtual time at the end. */
  now: number;
}

/** Runs the workload to completion (or the horizon). @throws Error when an object gives no tenure. */
export async function runFencedWorkload(o: FencedRunOptions): Promise<FencedRunResult> {
  const { cluster, store } = o;
  const rng = cluster.net.rng('fenced-workload');
  const think: readonly [number, number] = o.think ?? [0, 4];
  const hold: readonly [number, number] = o.hold ?? [1, 3];
  const draw = (r: readonly [number, number]) => r[0] + rng.next() * (r[1] - r[0]);
  const r = emptyResult();
  let maxValid = Number.NEGATIVE_INFINITY;
  const done = new Array<boolean>(cluster.n).fill(false);
  const down = new Array<boolean>(cluster.n).fill(false);
  const waiting = new Array<boolean>(cluster.n).fill(false);
  const excused = (p: ProcessId) => down[p]! || (o.quorumOf?.(p) ?? []).some((a) => down[a]);
  planCrashes(o, rng, (p) => {
    if (cluster.objects[p]!.state === 'InCS') r.crashedInCS++;
    else if (waiting[p]) r.crashedWaiting++;
    down[p] = true;
    cluster.net.crash(p);
    cluster.clocks.crashed(p);
  });
  let cutOff: ProcessId | undefined;
  planCuts(o, rng, (p) => {
    cutOff = p;
    if (p !== undefined) r.cuts++;
  });
  const loop = async (id: ProcessId): Promise<void> => {
    const clock = cluster.clocks.clock(id);
    const sleep = (d: number) => new Promise<void>((resolve) => clock.setTimer(d, resolve));
    for (let k = 0; k < o.rounds; k++) {
      await sleep(draw(think));
      const cs = cluster.objects[id]!;
      waiting[id] = true;
      await cs.entry();
      waiting[id] = false;
      const t = hasTenure(cs) ? cs.tenure() : undefined;
      if (t === undefined)
        throw new Error(`P${id} is InCS without a tenure: build the algorithm with fencing`);
      r.entries++;
      if (cutOff !== undefined && cutOff !== id) r.entriesDuringCuts++;
      if (t.remaining() > 0) {
        if (t.token <= maxValid) r.fencingViolations++;
        maxValid = Math.max(maxValid, t.token);
      }
      const pause = o.pauseInCS;
      if (pause !== undefined && rng.next() < pause.probability)
        cluster.clocks.pause(id, draw(pause.duration));
      const h = draw(hold);
      await sleep(h / 2);
      const v = store.read(t.token);
      await sleep(h / 2);
      if (v !== undefined) store.write(t.token, v + 1);
      if (t.remaining() <= 0) r.expiredGrants++;
      await cs.exit();
    }
    done[id] = true;
  };
  const failures: unknown[] = [];
  for (let id = 0; id < cluster.n; id++) loop(id).catch((e: unknown) => failures.push(e));
  const finished = () => done.every((d, p) => d || excused(p));
  await cluster.net.run({
    until: o.until ?? 1e6,
    stopWhen: () => finished() || failures.length > 0,
  });
  if (failures.length > 0) throw failures[0];
  r.lostUpdates = store.lostUpdates;
  r.rejected = store.rejected;
  r.stuck = done.flatMap((d, p) => (d || excused(p) ? [] : [p]));
  r.crashed = down.flatMap((d, p) => (d ? [p] : []));
  r.now = cluster.net.now;
  return r;
}

/** A result with nothing counted yet. */
function emptyResult(): FencedRunResult {
  return {
    entries: 0,
    lostUpdates: 0,
    rejected: 0,
    fencingViolations: 0,
    expiredGrants: 0,
    stuck: [],
    crashed: [],
    crashedInCS: 0,
    crashedWaiting: 0,
    cuts: 0,
    entriesDuringCuts: 0,
    now: 0,
  };
}

/** Schedules the crash-stops of `o.crashStop` (distinct processes, drawn from `rng`). */
function planCrashes(o: FencedRunOptions, rng: Rng, crash: (p: ProcessId) => void): void {
  const c = o.crashStop;
  if (c === undefined) return;
  const pool = [...(c.among ?? Array.from({ length: o.cluster.n }, (_, p) => p))];
  for (let k = 0; k < c.count && pool.length > 0; k++) {
    const [p] = pool.splice(rng.int(pool.length), 1);
    o.cluster.net.schedule(rng.next() * c.window, () => crash(p!), `P${p} crash-stop`);
  }
}

/** Schedules the cuts of `o.partitions` one after the other; `cut(p)` at each cut, `cut(undefined)` at each heal. */
function planCuts(o: FencedRunOptions, rng: Rng, cut: (p: ProcessId | undefined) => void): void {
  const c = o.partitions;
  if (c === undefined) return;
  const net = o.cluster.net;
  const pool = c.among ?? Array.from({ length: o.cluster.n }, (_, p) => p);
  const draw = (r: readonly [number, number]) => r[0] + rng.next() * (r[1] - r[0]);
  const next = (left: number) =>
    net.schedule(
      draw(c.gap),
      () => {
        const p = pool[rng.int(pool.length)]!;
        net.partitions.cut([[p]]);
        cut(p);
        net.schedule(
          draw(c.duration),
          () => {
            net.partitions.heal();
            cut(undefined);
            if (left > 1) next(left - 1);
          },
          `P${p} heal`,
        );
      },
      'cut',
    );
  if (c.count > 0 && pool.length > 0) next(c.count);
}
