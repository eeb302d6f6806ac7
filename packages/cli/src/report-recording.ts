/*
 * What `--report` collects from one simulation: every process's state changes with their
 * simulated time, and the workload's invocation records. Collected only when a report is asked
 * for (the recorder listens to the CS objects' `statechange` events and draws no random number,
 * schedules nothing: the run, and its trace, stay the same).
 */
import type { CSState, ProblemSpec, ProcessId } from '@critsec/core';
import type { InvocationRecord, SimCluster, WorkloadResult } from '@critsec/harness';

/** One state change of one process, at a simulated time (time units). */
export interface StateChange {
  /** The process. */
  readonly p: ProcessId;
  /** Its new state. */
  readonly s: CSState;
  /** When, time units. */
  readonly t: number;
}

/** One call of the workload, as the report uses it (times in time units). */
export interface CallRecord {
  /** The calling process. */
  readonly p: ProcessId;
  /** Which call. */
  readonly op: 'entry' | 'exit';
  /** When it was called. */
  readonly start: number;
  /** `NaN` for a call still pending when the run ended. */
  readonly end: number;
  /** Messages attributed to it. */
  readonly messages: number;
  /** Whether the workload aborted it. */
  readonly aborted: boolean;
  /** A call made after the process finished its rounds (not counted in the summary). */
  readonly extra: boolean;
}

/** Everything the simulation report plots, besides the summary. */
export interface SimulationRecording {
  /** The problem the run solved. */
  readonly spec: ProblemSpec;
  /** The initial configuration, one state per process. */
  readonly initial: readonly CSState[];
  /** Every state change, in order. */
  readonly changes: readonly StateChange[];
  /** Every call of the workload, in the order made. */
  readonly calls: readonly CallRecord[];
  /** Simulated time at the end of the run (time units; ms for a cluster). */
  readonly end: number;
  /** `false` when the calls carry no message counts (a cluster's shared log); default true. */
  readonly perCallMessages?: boolean;
}

/**
 * Collects a {@link SimulationRecording}: `attach` right after the cluster is built (before any
 * call), `finish` with the workload's result.
 */
export class SimulationRecorder {
  #spec: ProblemSpec | undefined;
  #initial: readonly CSState[] = [];
  readonly #changes: StateChange[] = [];
  #calls: CallRecord[] = [];
  #end = 0;

  /** Listens to every process's state changes (time: the network's clock). */
  attach<Req>(cluster: SimCluster<Req>): void {
    this.#spec = cluster.spec;
    this.#initial = [...cluster.initial];
    cluster.objects.forEach((cs, p) => {
      cs.on('statechange', (s) => this.#changes.push({ p, s, t: cluster.net.now }));
    });
  }

  /** Keeps the workload's records (copied: the report outlives nothing of the run). */
  finish(result: WorkloadResult): void {
    this.#calls = result.records.map((r: InvocationRecord) => ({
      p: r.process,
      op: r.op,
      start: r.start,
      end: r.end,
      messages: r.messages,
      aborted: r.aborted,
      extra: r.extra,
    }));
    this.#end = result.simulatedTime;
  }

  /**
   * The recording.
   * @throws Error if the recorder was never attached to a cluster.
   */
  recording(): SimulationRecording {
    if (this.#spec === undefined) throw new Error('report recorder: never attached to a cluster');
    return {
      spec: this.#spec,
      initial: this.#initial,
      changes: this.#changes,
      calls: this.#calls,
      end: this.#end,
    };
  }
}
