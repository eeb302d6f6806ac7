import {
  ConfigurationError,
  type CSObject,
  type CSState,
  checkConfiguration,
  type ProcessId,
} from '@critsec/core';
import type { Rng, SimCounters } from '@critsec/transport-sim';
import { simulatedClock } from './clock.js';
import type { SimCluster } from './cluster.js';
import { type CrashRecovery, type CrashStats, ProcessCrashedError } from './crash-recovery.js';
import {
  callObject,
  type EngineOptions,
  type InvocationRecord,
  WorkloadEngine,
  type WorkloadProcess,
} from './engine.js';
import type { Violation } from './monitor.js';
import { runSequential } from './sequential.js';
import { type Distribution, distribution, perPairMessages } from './stats.js';

export type { InvocationRecord } from './engine.js';

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
  readonly abort?: {
    /** Probability that an entry is aborted. */
    readonly probability: number;
    /** The abort comes after a delay uniform in [0, within] time units. */
    readonly within: number;
  };
  /** Event budget of the run (default 5,000,000): exceeding it reports the processes still busy. */
  readonly maxEvents?: number;
  /** Virtual-time budget (default unbounded). */
  readonly maxTime?: number;
  /** Called after every completed invocation. */
  readonly onProgress?: (completed: number, total: number) => void;
}

/** A process that did not finish its rounds. */
export interface StuckProcess {
  /** The process. */
  readonly process: ProcessId;
  /** Its state when the run ended. */
  readonly state: CSState;
  /** Its call in flight, or `null`. */
  readonly pending: 'entry' | 'exit' | null;
  /** Counted calls it completed. */
  readonly completedInvocations: number;
  /** Counted calls it should have completed (2 × rounds). */
  readonly expectedInvocations: number;
}

/** What a workload run produced. */
export interface WorkloadResult {
  /** The run's seed. */
  readonly seed: number;
  /** The workload. */
  readonly kind: 'concurrent' | 'sequential';
  /** Every process finished its rounds, nothing broke. */
  readonly ok: boolean;
  /** The first safety violation, or `null`. */
  readonly violation: Violation | null;
  /** Processes that did not finish (deadlock, starvation, budget). */
  readonly stuck: readonly StuckProcess[];
  /** Why the run ended early, if it did. */
  readonly failure: string | null;
  /** Every call made, in the order made. */
  readonly records: readonly InvocationRecord[];
  /** Entries completed. */
  readonly entries: number;
  /** Exits completed. */
  readonly exits: number;
  /** Calls aborted by the workload. */
  readonly aborted: number;
  /** Simulated time at the end, time units. */
  readonly simulatedTime: number;
  /** Simulator events processed. */
  readonly events: number;
  /** The network's message counters. */
  readonly messages: SimCounters;
  /** Waiting time (time units) of completed entries and exits. */
  readonly waiting: {
    /** From `entry()` called to InCS. */
    readonly entry: Distribution;
    /** From `exit()` called to OutCS. */
    readonly exit: Distribution;
  };
  /**
   * Messages per exit+entry pair (the k-th completed entry with the k-th completed exit of a
   * process). Exact in sequential mode. In concurrent mode the distribution needs
   * `attribution: true` (each message is charged to the invocation that caused it); without it
   * only `mean` is given, as total messages / completed pairs (an upper estimate: the calls still
   * in flight when the run stops add their messages).
   */
  readonly perPair: Distribution;
  /**
   * With crashes (`createCluster({ crashes })`): what they did, and the calls they cut (a cut call
   * is not counted; its process goes on with its rounds after its restart). Absent otherwise.
   */
  readonly crashes?: CrashStats & {
    /** Calls cut by a crash of their process. */
    readonly cutCalls: number;
    /** Messages handed over, not acknowledged at a crash, and delivered again after the restart. */
    readonly redelivered: number;
  };
}

/**
 * Whether the spec allows process `i`'s move from the monitored configuration (the sequential
 * workload keeps to the problem).
 */
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
 * in flight), waiting times and message counts. It is the {@link WorkloadEngine} on the
 * network's virtual clock ({@link simulatedClock}). Never throws for an algorithm failure:
 * inspect `ok`, `violation`, `stuck` and `failure` (see {@link assertWorkloadOk}).
 * @throws ConfigurationError (rejects) for the sequential workload on a cluster with crashes.
 */
export async function runWorkload<Req>(
  cluster: SimCluster<Req>,
  options: WorkloadOptions<Req> = {},
): Promise<WorkloadResult> {
  const kind = options.kind ?? 'concurrent';
  if (kind === 'sequential' && cluster.crash !== undefined)
    throw new ConfigurationError('runWorkload: crashes need the concurrent workload');
  const net = cluster.net;
  const attribution = cluster.attribution;
  let current: InvocationRecord | undefined;
  // only the sequential workload counts sends here (a listener makes every send build its event)
  const offSend =
    kind === 'sequential'
      ? net.onSend(() => {
          if (current !== undefined) current.messages++;
        })
      : undefined;
  const rngs = Array.from({ length: cluster.n }, (_, i) => net.rng(`workload/${i}`));
  const objects = cluster.objects; // the current incarnation of each process (a restart replaces it)
  const crash = cluster.crash;
  const engine: WorkloadEngine<Req> = new WorkloadEngine(currentProcesses(objects, rngs), {
    clock: simulatedClock(net),
    rounds: options.rounds ?? 3,
    think: options.think,
    hold: options.hold,
    request: options.request,
    abort: options.abort && { probability: options.abort.probability, within: options.abort.within },
    invoke: (rec, signal, index) => {
      if (rec.op === 'entry') cluster.monitor.setRequest(rec.process, rec.request);
      const call =
        crash === undefined
          ? () => callObject(objects[rec.process]!, rec, signal)
          : () => crash.guard(rec.process, () => callAfterCrash(objects[rec.process]!, rec, signal));
      current = rec;
      return attribution !== undefined ? attribution.run(index, call) : call();
    },
    onProgress: options.onProgress,
    onAllFinished: () => net.stop(),
    onFailure: () => net.stop(),
    halted: () => cluster.firstViolation !== null,
    ...crashHooks(crash),
  });
  const offCharge =
    kind === 'concurrent' ? attribution?.onCharge((index) => engine.records[index]!.messages++) : undefined;
  const maxEvents = options.maxEvents ?? 5_000_000;
  let events = 0;
  if (kind === 'concurrent') {
    void engine.runConcurrent();
    const r = await net.run({ maxEvents, until: options.maxTime });
    events = r.events;
    if (r.reason === 'maxEvents' || r.reason === 'until') {
      engine.failure ??= `budget exhausted (${r.reason === 'maxEvents' ? `${r.events} events` : `time ${r.now}`}) before every process finished`;
    }
  } else {
    await runSequential(engine, {
      rng: net.rng('workload/sequential'),
      allowed: (i, op, req) => isMoveAllowed(cluster as SimCluster<unknown>, i, op, req),
      quiesce: async () => {
        const r = await net.run({ maxEvents });
        events += r.events;
        current = undefined;
        return r.reason === 'idle' ? 'quiet' : `past its budget (${r.reason})`;
      },
    });
  }
  offSend?.();
  offCharge?.();
  return summarize(
    cluster as SimCluster<unknown>,
    engine as WorkloadEngine<unknown>,
    kind,
    events,
    kind === 'sequential' || attribution !== undefined,
  );
}

/** The engine's view of each process: its current incarnation's object (a restart replaces it). */
function currentProcesses(objects: readonly CSObject<unknown>[], rngs: readonly Rng[]): WorkloadProcess[] {
  return objects.map((_, i) => ({
    id: i,
    state: () => objects[i]!.state,
    pending: () => objects[i]!.pending,
    rng: rngs[i]!,
  }));
}

/** With crashes: the engine waits for a crashed process's recovery and counts the calls cut. */
function crashHooks(crash: CrashRecovery | undefined): Pick<EngineOptions, 'ready' | 'isCut'> {
  if (crash === undefined) return {};
  return {
    ready: (id: ProcessId) => crash.ready(id),
    isCut: (err: unknown) => err instanceof ProcessCrashedError,
  };
}

/**
 * A call of a process that may have crashed since the loop chose it: when the recovered object
 * is no longer in the state the call starts from, the call counts as cut.
 */
function callAfterCrash<Req>(
  object: SimCluster<Req>['objects'][number],
  rec: InvocationRecord,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (object.state !== (rec.op === 'entry' ? 'OutCS' : 'InCS') || object.pending !== null)
    return Promise.reject(new ProcessCrashedError(rec.process));
  return callObject(object, rec, signal);
}

function summarize(
  cluster: SimCluster<unknown>,
  engine: WorkloadEngine<unknown>,
  kind: 'concurrent' | 'sequential',
  events: number,
  attributed: boolean,
): WorkloadResult {
  const records = engine.records;
  const stuck: StuckProcess[] = engine.stuck().map((s) => ({
    process: s.process,
    state: s.state,
    pending: s.pending,
    completedInvocations: s.done,
    expectedInvocations: engine.expected,
  }));
  const violation = cluster.firstViolation;
  const finished = records.filter((r) => !r.aborted && !r.extra && !Number.isNaN(r.end));
  const entriesDone = finished.filter((r) => r.op === 'entry');
  const exitsDone = finished.filter((r) => r.op === 'exit');
  const messages = cluster.net.counters();
  const crash = cluster.crash;
  const failure =
    engine.failure ??
    cluster.recoveryFailures[0] ??
    (stuck.length > 0
      ? `${stuck.length} process(es) did not finish their rounds (the network went quiet: deadlock or starvation)`
      : null);
  return {
    seed: cluster.seed,
    kind,
    ok:
      violation === null &&
      stuck.length === 0 &&
      engine.failure === null &&
      cluster.recoveryFailures.length === 0,
    violation,
    stuck,
    failure,
    records,
    entries: entriesDone.length,
    exits: exitsDone.length,
    aborted: records.filter((r) => r.aborted).length,
    simulatedTime: cluster.net.now,
    events,
    messages,
    waiting: {
      entry: distribution(entriesDone.map((r) => r.end - r.start)),
      exit: distribution(exitsDone.map((r) => r.end - r.start)),
    },
    perPair: perPairMessages(records, cluster.n, attributed ? undefined : messages.sent),
    ...(crash === undefined
      ? {}
      : {
          crashes: {
            ...crash.stats,
            cutCalls: engine.cut,
            redelivered: cluster.net.crashCounters().redelivered,
          },
        }),
  };
}

/** A workload that failed: safety violation, stuck processes, or an unexpected rejection. */
export class WorkloadFailure extends Error {
  /** The failed run's result. */
  readonly result: WorkloadResult;
  /** The failure of the run `label` (named in the message with its seed). */
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
