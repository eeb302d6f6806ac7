/**
 * The check of **exclusion of effects** for group mutual exclusion under time-bounded grants
 * (issue 28 §1–3): a fencing-aware resource for groups and the seeded workload the fencing tests
 * share (crash-stop — holders included —, holders paused past the ttl, seeded pauses of anyone,
 * seeded partitions that heal).
 *
 * The resource, {@link GroupFencedStore}: every operation carries the group and the fencing token
 * of the CS it belongs to. With fencing on it **rejects an operation of group g with token t once
 * an operation of another group with a token > t was accepted** (same-group operations never
 * fence each other: holders of one group may share or interleave tokens). It counts an
 * **interleaving** — a violation of group mutual exclusion on effects — when an operation of a CS
 * is accepted after an operation of another group was accepted since that CS's first accepted
 * operation: the accepted effects of conflicting CSs must not interleave.
 */
import { hasTenure, type ProcessId } from '@critsec/core';
import type { SimCluster } from '@critsec/harness';

/** One CS's operations at the store. */
export interface StoreSession {
  readonly g: number;
  readonly token: number;
  /** Sequence number of the session's first accepted operation. */
  first?: number;
}

/** A fencing-aware resource for groups (see the module comment). */
export class GroupFencedStore {
  /** Operations accepted. */
  accepted = 0;
  /** Operations rejected for a stale token (fencing on). */
  rejected = 0;
  /** Operations accepted while another group's had been accepted since the session's first. */
  interleavings = 0;
  readonly #fencing: boolean;
  /** Per group: the highest token an accepted operation carried (−1: none). */
  readonly #highest: number[];
  /** Per group: the sequence number of its last accepted operation (0: none). */
  readonly #last: number[];
  #seq = 0;

  constructor(m: number, fencing = true) {
    this.#fencing = fencing;
    this.#highest = new Array<number>(m).fill(-1);
    this.#last = new Array<number>(m).fill(0);
  }

  /** An operation of `s`; false when rejected. */
  op(s: StoreSession): boolean {
    let otherToken = -1;
    let otherLast = 0;
    for (let g = 0; g < this.#highest.length; g++) {
      if (g === s.g) continue;
      otherToken = Math.max(otherToken, this.#highest[g]!);
      otherLast = Math.max(otherLast, this.#last[g]!);
    }
    if (this.#fencing && otherToken > s.token) {
      this.rejected++;
      return false;
    }
    const seq = ++this.#seq;
    if (s.first !== undefined && otherLast > s.first) this.interleavings++;
    s.first ??= seq;
    this.#last[s.g] = seq;
    this.#highest[s.g] = Math.max(this.#highest[s.g]!, s.token);
    this.accepted++;
    return true;
  }
}

/** Options of {@link runGroupFenced}. */
export interface GroupFencedOptions {
  readonly cluster: SimCluster<number>;
  readonly store: GroupFencedStore;
  /** Number of groups. */
  readonly m: number;
  /** CSs per process. */
  readonly rounds: number;
  /** Think time, uniform in [min, max] time units. */
  readonly think: readonly [number, number];
  /** Hold time, uniform in [min, max], split around the two operations. */
  readonly hold: readonly [number, number];
  /** A holder is paused right after its entry with this probability, for a duration in the range. */
  readonly pauseInCS?: { readonly probability: number; readonly duration: readonly [number, number] };
  /**
   * Crash-stop `count` processes drawn from `among` (default all), each at a time uniform in
   * [0, window] or, with `inCS`, right after the entry of a round drawn uniformly (a holder).
   */
  readonly crashStop?: {
    readonly count: number;
    readonly window: number;
    readonly among?: readonly ProcessId[];
    readonly inCS?: boolean;
  };
  /** Whether the crashed processes `down` may keep live process `p` from finishing (it is then excused). */
  readonly blocked: (p: ProcessId, down: ReadonlySet<ProcessId>) => boolean;
  /** Virtual-time horizon. */
  readonly until: number;
}

/** What {@link runGroupFenced} counted. */
export interface GroupFencedResult {
  entries: number;
  /** Accepted operations of conflicting CSs that interleaved (the store's count). */
  interleavings: number;
  rejected: number;
  /** Entries valid at entry whose token did not exceed every earlier valid entry's of another group. */
  fencingViolations: number;
  /** CSs whose tenure had expired by their exit. */
  expiredGrants: number;
  /** Live processes whose nodes are all alive that did not finish. */
  stuck: ProcessId[];
  crashed: ProcessId[];
}

/** Runs the workload to completion (or the horizon). */
export async function runGroupFenced(o: GroupFencedOptions): Promise<GroupFencedResult> {
  const { cluster, store, m } = o;
  const rng = cluster.net.rng('group-fenced');
  const draw = (r: readonly [number, number]) => r[0] + rng.next() * (r[1] - r[0]);
  const r: GroupFencedResult = {
    entries: 0,
    interleavings: 0,
    rejected: 0,
    fencingViolations: 0,
    expiredGrants: 0,
    stuck: [],
    crashed: [],
  };
  const maxValid = new Array<number>(m).fill(Number.NEGATIVE_INFINITY);
  const done = new Array<boolean>(cluster.n).fill(false);
  const down = new Set<ProcessId>();
  const excused = (p: ProcessId) => down.has(p) || o.blocked(p, down);
  const crash = (p: ProcessId) => {
    down.add(p);
    cluster.net.crash(p);
    cluster.clocks.crashed(p);
  };
  /** Per process, the round after whose entry it crashes (holders crash-stopped in their CS). */
  const crashAt = new Map<ProcessId, number>();
  const pool = [...(o.crashStop?.among ?? Array.from({ length: cluster.n }, (_, p) => p))];
  for (let k = 0; k < (o.crashStop?.count ?? 0) && pool.length > 0; k++) {
    const [p] = pool.splice(rng.int(pool.length), 1);
    if (o.crashStop!.inCS === true) crashAt.set(p!, rng.int(o.rounds));
    else cluster.net.schedule(rng.next() * o.crashStop!.window, () => crash(p!));
  }
  const loop = async (id: ProcessId): Promise<void> => {
    const clock = cluster.clocks.clock(id);
    const sleep = (d: number) => new Promise<void>((resolve) => clock.setTimer(d, resolve));
    const cs = cluster.objects[id]!;
    for (let k = 0; k < o.rounds; k++) {
      await sleep(draw(o.think));
      const g = rng.int(m);
      cluster.monitor.setRequest(id, g);
      await cs.entry(g);
      const t = hasTenure(cs) ? cs.tenure() : undefined;
      if (t === undefined) throw new Error(`P${id} is InCS without a tenure: build with fencing`);
      r.entries++;
      if (crashAt.get(id) === k) {
        crash(id); // a holder crash-stopped in its CS: its locks are reclaimed by the ttl alone
        return;
      }
      if (t.remaining() > 0) {
        if (maxValid.some((v, h) => h !== g && v >= t.token)) r.fencingViolations++;
        maxValid[g] = Math.max(maxValid[g]!, t.token);
      }
      if (o.pauseInCS !== undefined && rng.next() < o.pauseInCS.probability)
        cluster.clocks.pause(id, draw(o.pauseInCS.duration));
      const session: StoreSession = { g, token: t.token };
      const h = draw(o.hold);
      await sleep(h / 2);
      store.op(session);
      await sleep(h / 2);
      store.op(session);
      if (t.remaining() <= 0) r.expiredGrants++;
      await cs.exit();
    }
    done[id] = true;
  };
  const failures: unknown[] = [];
  for (let id = 0; id < cluster.n; id++) loop(id).catch((e: unknown) => failures.push(e));
  const finished = () => done.every((d, p) => d || excused(p));
  await cluster.net.run({ until: o.until, stopWhen: () => finished() || failures.length > 0 });
  if (failures.length > 0) throw failures[0];
  r.interleavings = store.interleavings;
  r.rejected = store.rejected;
  r.stuck = done.flatMap((d, p) => (d || excused(p) ? [] : [p]));
  r.crashed = [...down].sort((a, b) => a - b);
  return r;
}
