import type { CSObject, ProcessId } from '@critsec/core';
import type { Rng } from '@critsec/transport-sim';
import { type ClusterOptions, createCluster, type SimCluster } from '@critsec/harness';
import type { Violation } from '@critsec/harness';

/** A CS object that exposes its protocol variables, so explored states can be deduplicated. */
export interface Inspectable {
  /** A JSON-serializable snapshot of every protocol variable (the paper's names). */
  inspect(): unknown;
}

/** Options of {@link exploreSchedules}. */
export interface ExploreOptions<Req = void> {
  /** The cluster (its `mode` is forced to `'controlled'`). */
  readonly cluster: Omit<ClusterOptions<Req>, 'mode' | 'delay' | 'linkDelay' | 'trace'>;
  /** Rounds per process (default 1). */
  readonly rounds?: number;
  /** Draws each entry's request. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /** Stop after this many complete schedules (default 10,000). */
  readonly maxSchedules?: number;
  /** Stop after visiting this many states (default unbounded). */
  readonly maxStates?: number;
  /** Stop after this much wall-clock time, in milliseconds (default unbounded): a budget, not a measurement. */
  readonly maxMillis?: number;
  /** Deduplicate visited states by fingerprint when every object is {@link Inspectable} (default true). */
  readonly dedup?: boolean;
}

/** A schedule that broke something: the choice indices that replay it. */
export interface ExploreFailure {
  /** A safety violation, or a deadlock: no event pending while some process has not finished. */
  readonly kind: 'violation' | 'deadlock';
  /** The choice index at every step: replays the schedule. */
  readonly path: readonly number[];
  /** What went wrong, in words. */
  readonly message: string;
}

/** What {@link exploreSchedules} covered. */
export interface ExploreResult {
  /** Complete schedules explored (every process done, or stuck). */
  readonly schedules: number;
  /** Distinct states visited (with dedup), else interior nodes visited. */
  readonly states: number;
  /** Whether the whole schedule space was explored within the caps (schedules, states, time). */
  readonly exhaustive: boolean;
  /** Whether states were deduplicated. */
  readonly deduplicated: boolean;
  /** The longest schedule, in events. */
  readonly maxDepth: number;
  /** The schedules that broke something. */
  readonly failures: readonly ExploreFailure[];
}

interface Live<Req> {
  cluster: SimCluster<Req>;
  done: number[];
  expected: number;
}

function build<Req>(options: ExploreOptions<Req>): Live<Req> {
  const cluster = createCluster<Req>({ ...options.cluster, mode: 'controlled' });
  const rounds = options.rounds ?? 1;
  const expected = 2 * rounds;
  const done = new Array<number>(cluster.n).fill(0);
  const net = cluster.net;
  const loop = async (i: ProcessId) => {
    const cs = cluster.objects[i] as CSObject<unknown>;
    const rng = net.rng(`explore/${i}`);
    while (done[i]! < expected) {
      const op = cs.state === 'OutCS' ? 'entry' : 'exit';
      await new Promise<void>((resolve) => net.schedule(0, resolve, `P${i} ${op}`));
      if (op === 'entry') {
        const req = options.request?.(rng, i, Math.floor(done[i]! / 2));
        cluster.monitor.setRequest(i, req);
        await (cs.takesRequest
          ? (cs.entry as (r: unknown) => Promise<void>)(req)
          : (cs.entry as () => Promise<void>)());
      } else {
        await cs.exit();
      }
      done[i]!++;
    }
  };
  for (let i = 0; i < cluster.n; i++) void loop(i);
  return { cluster, done, expected };
}

function fingerprint<Req>(live: Live<Req>): string | null {
  const inspected: unknown[] = [];
  for (const o of live.cluster.objects) {
    const f = (o as Partial<Inspectable>).inspect;
    if (typeof f !== 'function') return null;
    inspected.push(f.call(o));
  }
  return JSON.stringify([
    inspected,
    live.cluster.monitor.states,
    live.cluster.monitor.requests,
    live.done,
    live.cluster.net.snapshot(),
  ]);
}

/**
 * Explores delivery orders exhaustively (DESIGN.md 4) in controlled mode: every interleaving of
 * message deliveries (the head of each FIFO link) and invocations (each process's next call),
 * depth first, replaying the prefix on backtrack. With {@link Inspectable} objects, states are
 * deduplicated by fingerprint (sound: the fingerprint holds every protocol variable, the
 * monitor's configuration, the workload's progress and every queued message).
 */
export async function exploreSchedules<Req>(options: ExploreOptions<Req>): Promise<ExploreResult> {
  const maxSchedules = options.maxSchedules ?? 10_000;
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const deadline =
    options.maxMillis === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.maxMillis;
  const seen = new Set<string>();
  const failures: ExploreFailure[] = [];
  let schedules = 0;
  let states = 0;
  let maxDepth = 0;
  let capped = false;
  let deduplicated = options.dedup ?? true;

  const replay = async (path: readonly number[]): Promise<Live<Req>> => {
    const live = build(options);
    await live.cluster.net.settle();
    for (const c of path) await live.cluster.net.deliver(c);
    return live;
  };

  const violationOf = (v: Violation | null): string | null =>
    v === null ? null : `${v.message} (state change ${v.step})`;

  const visit = async (live: Live<Req>, path: number[]): Promise<void> => {
    if (capped) return;
    const violation = violationOf(live.cluster.firstViolation);
    if (violation !== null) {
      failures.push({ kind: 'violation', path: [...path], message: violation });
      schedules++;
      return;
    }
    const pending = live.cluster.net.pending();
    if (pending.length === 0) {
      schedules++;
      maxDepth = Math.max(maxDepth, path.length);
      if (live.done.some((d) => d < live.expected)) {
        const stuck = live.done.flatMap((d, i) =>
          d < live.expected
            ? [`P${i} (${live.cluster.objects[i]!.state}, ${live.cluster.objects[i]!.pending ?? 'idle'})`]
            : [],
        );
        failures.push({
          kind: 'deadlock',
          path: [...path],
          message: `no event pending but not done: ${stuck.join(', ')}`,
        });
      }
      if (schedules >= maxSchedules) capped = true;
      return;
    }
    if (deduplicated) {
      const fp = fingerprint(live);
      if (fp === null) deduplicated = false;
      else if (seen.has(fp)) return;
      else seen.add(fp);
    }
    states++;
    if (states >= maxStates || Date.now() > deadline) capped = true;
    for (let c = 0; c < pending.length; c++) {
      if (capped) return;
      const next = c === 0 ? live : await replay(path);
      await next.cluster.net.deliver(c);
      path.push(c);
      await visit(next, path);
      path.pop();
    }
  };

  await visit(await replay([]), []);
  return { schedules, states, exhaustive: !capped, deduplicated, maxDepth, failures };
}
