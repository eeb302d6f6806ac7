import { type CSObject, type CSState, checkConfiguration, isAbortError, type ProcessId } from '@critsec/core';
import type { Rng, SimCounters } from '@critsec/transport-sim';
import type { SimCluster } from './cluster.js';
import type { Violation } from './monitor.js';
import { type Distribution, distribution } from './stats.js';

/** Options of {@link runWorkload}. */
export interface WorkloadOptions<Req = void> {
  /**
   * `'concurrent'` (default): every process alternates entry/exit for `rounds` rounds with seeded
   * think and hold times. `'sequential'`: one invocation in flight in the whole cluster at a
   * time, each chosen among the moves the current global state allows, and the network
   * quiescent between invocations — the uncontended setting of the papers' bounds.
   */
  readonly kind?: 'concurrent' | 'sequential';
  /** Rounds per process; a round is one entry and one exit, starting from the process's initial state (default 3). */
  readonly rounds?: number;
  /** Mean time OutCS before an entry, in time units (uniform in [0, 2·think]; default 2; concurrent only). */
  readonly think?: number;
  /** Mean time InCS before an exit, in time units (uniform in [0, 2·hold]; default 1; concurrent only). */
  readonly hold?: number;
  /** Draws the request of each entry (h-out-of-k units, a group); required when the objects take one. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /**
   * Withdraws a fraction of entries: each entry is aborted with `probability`, after a delay
   * uniform in [0, within] time units; an aborted entry is retried after a think time.
   */
  readonly abort?: { readonly probability: number; readonly within: number };
  /** Event budget of the run (default 5,000,000): exceeding it reports the processes still busy. */
  readonly maxEvents?: number;
  /** Virtual-time budget (default unbounded). */
  readonly maxTime?: number;
  /** Called after every completed invocation. */
  readonly onProgress?: (completed: number, total: number) => void;
}

/** One `entry` or `exit` call of the workload. */
export interface InvocationRecord {
  readonly process: ProcessId;
  readonly op: 'entry' | 'exit';
  /** 0-based round of the process. */
  readonly round: number;
  /** The request (entry of a request-taking object). */
  readonly request: unknown;
  /** Virtual time of the call. */
  readonly start: number;
  /** Virtual time it settled (NaN while pending). */
  end: number;
  /** Messages attributed to it (sequential: sent until the network was quiescent; concurrent: causal, with `attribution`). */
  messages: number;
  /** True if it was aborted by the workload. */
  aborted: boolean;
  /**
   * True for a call made after the process finished its rounds: a finished process keeps
   * cycling (uncounted) until every process has finished, so that it never blocks the others
   * by stopping InCS (mutual exclusion) or OutCS (mutual inclusion).
   */
  readonly extra: boolean;
}

/** A process that did not finish its rounds. */
export interface StuckProcess {
  readonly process: ProcessId;
  readonly state: CSState;
  readonly pending: 'entry' | 'exit' | null;
  readonly completedInvocations: number;
  readonly expectedInvocations: number;
}

/** What a workload run produced. */
export interface WorkloadResult {
  readonly seed: number;
  readonly kind: 'concurrent' | 'sequential';
  /** Every process finished its rounds, nothing broke. */
  readonly ok: boolean;
  readonly violation: Violation | null;
  /** Processes that did not finish (deadlock, starvation, budget). */
  readonly stuck: readonly StuckProcess[];
  /** Why the run ended early, if it did. */
  readonly failure: string | null;
  readonly records: readonly InvocationRecord[];
  readonly entries: number;
  readonly exits: number;
  readonly aborted: number;
  readonly simulatedTime: number;
  readonly events: number;
  readonly messages: SimCounters;
  /** Waiting time (time units) of completed entries and exits. */
  readonly waiting: { readonly entry: Distribution; readonly exit: Distribution };
  /**
   * Messages per exit+entry pair (the k-th completed entry with the k-th completed exit of a
   * process). Exact in sequential mode. In concurrent mode the distribution needs
   * `attribution: true` (each message is charged to the invocation that caused it); without it
   * only `mean` is given, as total messages / completed pairs (an upper estimate: the calls still
   * in flight when the run stops add their messages).
   */
  readonly perPair: Distribution;
}

function drawTime(rng: Rng, mean: number): number {
  return mean <= 0 ? 0 : rng.next() * 2 * mean;
}

function isMoveAllowed(
  cluster: SimCluster<unknown>,
  i: ProcessId,
  op: 'entry' | 'exit',
  req: unknown,
): boolean {
  const spec = cluster.spec;
  const monitor = cluster.monitor;
  if (spec.kind === 'global') {
    return op === 'entry' ? monitor.inCS + 1 <= spec.k : monitor.inCS - 1 >= spec.l;
  }
  const states = [...monitor.states];
  const requests = [...monitor.requests];
  states[i] = op === 'entry' ? 'InCS' : 'OutCS';
  if (op === 'entry') requests[i] = req;
  return checkConfiguration(spec, states, requests) === null;
}

/**
 * Drives a workload on a cluster (DESIGN.md 4) and reports safety (the monitor's first
 * violation), liveness (processes that did not complete their rounds, with their state and call
 * in flight), waiting times and message counts. Never throws for an algorithm failure: inspect
 * `ok`, `violation`, `stuck` and `failure` (see {@link assertWorkloadOk}).
 */
export async function runWorkload<Req>(
  cluster: SimCluster<Req>,
  options: WorkloadOptions<Req> = {},
): Promise<WorkloadResult> {
  const kind = options.kind ?? 'concurrent';
  const rounds = options.rounds ?? 3;
  const net = cluster.net;
  const n = cluster.n;
  const objects = cluster.objects;
  const records: InvocationRecord[] = [];
  const done = new Array<number>(n).fill(0);
  const expected = 2 * rounds;
  const total = n * expected;
  let completed = 0;
  let failure: string | null = null;
  const als = cluster.attribution;
  let current: InvocationRecord | undefined;
  const offSend = net.onSend(() => {
    if (kind === 'sequential') {
      if (current !== undefined) current.messages++;
    } else if (als !== undefined) {
      const idx = als.getStore();
      if (idx !== undefined) records[idx]!.messages++;
    }
  });
  const rngs = Array.from({ length: n }, (_, i) => net.rng(`workload/${i}`));
  const nextOp = (i: ProcessId): 'entry' | 'exit' => (objects[i]!.state === 'OutCS' ? 'entry' : 'exit');
  const drawRequest = (i: ProcessId): Req =>
    options.request ? options.request(rngs[i]!, i, Math.floor(done[i]! / 2)) : (undefined as Req);

  const invoke = (
    i: ProcessId,
    op: 'entry' | 'exit',
    req: Req,
    signal?: AbortSignal,
  ): { rec: InvocationRecord; p: Promise<void> } => {
    const cs = objects[i] as CSObject<unknown>;
    const rec: InvocationRecord = {
      process: i,
      op,
      round: Math.floor(done[i]! / 2),
      request: req,
      start: net.now,
      end: Number.NaN,
      messages: 0,
      aborted: false,
      extra: done[i]! >= expected,
    };
    const idx = records.push(rec) - 1;
    if (op === 'entry') cluster.monitor.setRequest(i, req);
    const call = () =>
      op === 'entry'
        ? cs.takesRequest
          ? (cs.entry as (r: unknown, o?: object) => Promise<void>)(req, { signal })
          : (cs.entry as (o?: object) => Promise<void>)({ signal })
        : cs.exit({ signal });
    current = rec;
    const p = als !== undefined ? als.run(idx, call) : call();
    return { rec, p };
  };

  const finish = (i: ProcessId, rec: InvocationRecord) => {
    if (Number.isNaN(rec.end)) rec.end = net.now;
    if (rec.extra) return;
    done[i]!++;
    completed++;
    options.onProgress?.(completed, total);
    if (completed === total) net.stop();
  };

  let events = 0;
  if (kind === 'concurrent') {
    const sleep = (delay: number, label: string) =>
      new Promise<void>((resolve) => {
        net.schedule(delay, resolve, label);
      });
    const loop = async (i: ProcessId) => {
      const rng = rngs[i]!;
      while (completed < total && failure === null) {
        const op = nextOp(i);
        await sleep(
          drawTime(rng, op === 'entry' ? (options.think ?? 2) : (options.hold ?? 1)),
          `P${i} ${op}`,
        );
        if (cluster.firstViolation !== null || failure !== null || completed === total) return;
        const req = op === 'entry' ? drawRequest(i) : (undefined as Req);
        let ac: AbortController | undefined;
        let cancelAbort: (() => void) | undefined;
        if (op === 'entry' && options.abort && rng.chance(options.abort.probability)) {
          const controller = new AbortController();
          ac = controller;
          cancelAbort = net.schedule(
            rng.next() * options.abort.within,
            () => controller.abort('workload abort'),
            `P${i} abort`,
          );
        }
        const { rec, p } = invoke(i, op, req, ac?.signal);
        try {
          await p;
          cancelAbort?.();
          finish(i, rec);
        } catch (err) {
          cancelAbort?.();
          rec.end = net.now;
          if (ac?.signal.aborted && isAbortError(err)) {
            rec.aborted = true;
            continue;
          }
          failure ??= `P${i} ${op}() rejected: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
          net.stop();
          return;
        }
      }
    };
    for (let i = 0; i < n; i++) void loop(i);
    const r = await net.run({ maxEvents: options.maxEvents ?? 5_000_000, until: options.maxTime });
    events = r.events;
    if (r.reason === 'maxEvents' || r.reason === 'until') {
      failure ??= `budget exhausted (${r.reason === 'maxEvents' ? `${r.events} events` : `time ${r.now}`}) before every process finished`;
    }
  } else {
    const rng = net.rng('workload/sequential');
    let extraMoves = 0;
    for (;;) {
      if (cluster.firstViolation !== null || failure !== null) break;
      if (completed === total) break;
      // counted moves first; a finished process moves (uncounted) only when no counted move is allowed
      let chosen: { i: ProcessId; op: 'entry' | 'exit'; req: Req } | undefined;
      for (const counted of [true, false]) {
        const candidates: ProcessId[] = [];
        for (let i = 0; i < n; i++) if (done[i]! < expected === counted) candidates.push(i);
        while (candidates.length > 0) {
          const k = rng.int(candidates.length);
          const i = candidates[k]!;
          const op = nextOp(i);
          const req = op === 'entry' ? drawRequest(i) : (undefined as Req);
          if (isMoveAllowed(cluster as SimCluster<unknown>, i, op, req)) {
            chosen = { i, op, req };
            break;
          }
          candidates[k] = candidates[candidates.length - 1]!;
          candidates.pop();
        }
        if (chosen !== undefined) break;
      }
      extraMoves = chosen !== undefined && done[chosen.i]! >= expected ? extraMoves + 1 : 0;
      if (chosen === undefined || extraMoves > 4 * n) {
        failure = 'sequential workload: no remaining move is allowed by the spec from this configuration';
        break;
      }
      const { rec, p } = invoke(chosen.i, chosen.op, chosen.req);
      let settled = false;
      let error: unknown;
      p.then(
        () => {
          settled = true;
          rec.end = net.now;
        },
        (err: unknown) => {
          settled = true;
          error = err ?? new Error('rejected');
        },
      );
      const r = await net.run({ maxEvents: options.maxEvents ?? 5_000_000 });
      events += r.events;
      current = undefined;
      if (cluster.firstViolation !== null) break;
      if (!settled) {
        failure = `P${chosen.i} ${chosen.op}() did not complete although it was the only invocation and the network went ${r.reason === 'idle' ? 'quiet' : `past its budget (${r.reason})`}`;
        break;
      }
      if (error !== undefined) {
        failure = `P${chosen.i} ${chosen.op}() rejected: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
        break;
      }
      finish(chosen.i, rec);
    }
  }
  offSend();

  const stuck: StuckProcess[] = [];
  for (let i = 0; i < n; i++) {
    if (done[i]! < expected) {
      const cs = objects[i]!;
      stuck.push({
        process: i,
        state: cs.state,
        pending: cs.pending,
        completedInvocations: done[i]!,
        expectedInvocations: expected,
      });
    }
  }
  const violation = cluster.firstViolation;
  const finished = records.filter((r) => !r.aborted && !r.extra && !Number.isNaN(r.end));
  const entriesDone = finished.filter((r) => r.op === 'entry');
  const exitsDone = finished.filter((r) => r.op === 'exit');
  const pairs: number[] = [];
  const byProcess = new Map<ProcessId, { entries: InvocationRecord[]; exits: InvocationRecord[] }>();
  for (const r of records) {
    if (r.extra) continue;
    let b = byProcess.get(r.process);
    if (b === undefined) {
      b = { entries: [], exits: [] };
      byProcess.set(r.process, b);
    }
    if (r.op === 'entry') b.entries.push(r);
    else b.exits.push(r);
  }
  const messages = net.counters();
  const attributed = kind === 'sequential' || als !== undefined;
  for (const { entries, exits } of byProcess.values()) {
    // aborted attempts belong to the pair of the entry that finally succeeded
    let carry = 0;
    const completedEntries: number[] = [];
    for (const e of entries) {
      if (e.aborted) carry += e.messages;
      else if (!Number.isNaN(e.end)) {
        completedEntries.push(e.messages + carry);
        carry = 0;
      }
    }
    const completedExits = exits.filter((x) => !Number.isNaN(x.end)).map((x) => x.messages);
    const m = Math.min(completedEntries.length, completedExits.length);
    for (let k = 0; k < m; k++) pairs.push(completedEntries[k]! + completedExits[k]!);
  }
  let perPair = distribution(pairs);
  if (!attributed && pairs.length > 0) {
    // every pair, extra cycles included, shares the total
    let allPairs = 0;
    for (let i = 0; i < n; i++) {
      const mine = records.filter((r) => r.process === i && !r.aborted && !Number.isNaN(r.end));
      allPairs += Math.min(
        mine.filter((r) => r.op === 'entry').length,
        mine.filter((r) => r.op === 'exit').length,
      );
    }
    const mean = messages.sent / allPairs;
    perPair = { count: pairs.length, mean, p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  }
  const ok = violation === null && stuck.length === 0 && failure === null;
  return {
    seed: cluster.seed,
    kind,
    ok,
    violation,
    stuck,
    failure:
      failure ??
      (stuck.length > 0
        ? `${stuck.length} process(es) did not finish their rounds (the network went quiet: deadlock or starvation)`
        : null),
    records,
    entries: entriesDone.length,
    exits: exitsDone.length,
    aborted: records.filter((r) => r.aborted).length,
    simulatedTime: net.now,
    events,
    messages,
    waiting: {
      entry: distribution(entriesDone.map((r) => r.end - r.start)),
      exit: distribution(exitsDone.map((r) => r.end - r.start)),
    },
    perPair,
  };
}

/** A workload that failed: safety violation, stuck processes, or an unexpected rejection. */
export class WorkloadFailure extends Error {
  readonly result: WorkloadResult;
  constructor(label: string, result: WorkloadResult) {
    super(describeFailure(label, result));
    this.name = 'WorkloadFailure';
    this.result = result;
  }
}

/** One paragraph: what failed, the seed to replay, the stuck processes. */
export function describeFailure(label: string, r: WorkloadResult): string {
  const parts = [`${label}: seed ${r.seed} (${r.kind} workload)`];
  if (r.violation !== null) {
    parts.push(
      `safety violated at state change ${r.violation.step} (t = ${r.violation.time}, P${r.violation.process}): ${r.violation.message}`,
    );
  }
  if (r.failure !== null) parts.push(r.failure);
  if (r.stuck.length > 0) {
    const shown = r.stuck
      .slice(0, 8)
      .map(
        (s) =>
          `P${s.process} ${s.state}${s.pending ? ` waiting in ${s.pending}()` : ''} after ${s.completedInvocations}/${s.expectedInvocations} calls`,
      );
    parts.push(`stuck: ${shown.join('; ')}${r.stuck.length > 8 ? `; … ${r.stuck.length - 8} more` : ''}`);
  }
  return parts.join(' — ');
}

/** Throws a {@link WorkloadFailure} (naming the seed) unless the run was ok. */
export function assertWorkloadOk(label: string, r: WorkloadResult): void {
  if (!r.ok) throw new WorkloadFailure(label, r);
}
