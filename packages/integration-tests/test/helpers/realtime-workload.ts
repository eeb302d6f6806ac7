/**
 * The concurrent compliance workload of `@critsec/testing` in real time, for a {@link TcpCluster}:
 * the same {@link WorkloadEngine} as `runWorkload` (kind `concurrent`), on the wall clock. Every
 * process alternates entry and exit for `rounds` rounds, starting from its initial state, with
 * think (OutCS) and hold (InCS) times drawn uniformly from [0, 2·mean] ms by a seeded generator.
 * A process that has finished its rounds keeps cycling (uncounted) until every process has, so it
 * never blocks the others by stopping InCS (mutual exclusion) or OutCS (mutual inclusion); then
 * the uncounted calls still in flight are withdrawn through their abort signal. The monitor of
 * the cluster checks safety at every state change throughout.
 */
import type { CSState, ProcessId } from '@critsec/core';
import {
  callObject,
  type InvocationRecord,
  objectProcess,
  type Violation,
  WorkloadEngine,
  wallClock,
} from '@critsec/harness';
import { noProgressMs, progressWatchdog } from '@critsec/testing';
import { createRng, type Rng } from '@critsec/transport-sim';
import type { TcpCluster } from './tcp-cluster.js';

/** Options of {@link runRealtimeWorkload}. */
export interface RealtimeWorkloadOptions<Req = void> {
  /** Counted rounds per process (one entry and one exit each). */
  readonly rounds: number;
  /** Mean think time OutCS before an entry, ms (default 2). */
  readonly thinkMs?: number;
  /** Mean hold time InCS before an exit, ms (default 1). */
  readonly holdMs?: number;
  /** Seed of the think/hold draws (default 1). */
  readonly seed?: number;
  /**
   * Give up after this long with no call completed (counted or not), ms (default `noProgressMs()`
   * of `@critsec/testing`, two minutes): every call is withdrawn and the run fails. Progress, not
   * a deadline: a loaded machine only makes the run longer.
   */
  readonly stallMs?: number;
  /** Draws the request of each entry, for objects that take one. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /**
   * Withdraws a fraction of the calls (entries and exits): each is aborted with `probability`,
   * after a delay uniform in [0, withinMs] ms; a withdrawn call is retried after a think (or
   * hold) time. A call that completes before its abort fires counts as usual.
   */
  readonly abort?: { readonly probability: number; readonly withinMs: number };
  /** Called after every counted call completes. */
  readonly onProgress?: (completed: number, total: number) => void;
}

/** A process that did not complete its rounds. */
interface StuckProcess {
  readonly process: ProcessId;
  readonly state: CSState;
  readonly pending: 'entry' | 'exit' | null;
  readonly completed: number;
  readonly expected: number;
}

/** What {@link runRealtimeWorkload} saw. */
export interface RealtimeWorkloadResult {
  /** Every process completed its rounds, no violation, no failed call. */
  readonly ok: boolean;
  readonly failure: string | null;
  /** Every violation the safety monitor saw during the run. */
  readonly violations: readonly Violation[];
  /** Counted entries / exits completed per process. */
  readonly entries: readonly number[];
  readonly exits: readonly number[];
  /** Uncounted calls completed after a process's rounds, and calls withdrawn at the end (or when the run stalled). */
  readonly extraCalls: number;
  readonly withdrawn: number;
  /** Calls withdrawn by the `abort` option (and retried). */
  readonly aborted: number;
  readonly stuck: readonly StuckProcess[];
  /** State changes the monitor checked. */
  readonly stateChanges: number;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** Wall-clock waiting time of counted entries, ms. */
  readonly entryWaitMs: { readonly mean: number; readonly max: number };
}

/** Counted entries and exits per process, and the waiting times of counted entries. */
function callCounts(n: number) {
  const entries = new Array<number>(n).fill(0);
  const exits = new Array<number>(n).fill(0);
  const entryWaits: number[] = [];
  const onComplete = (rec: InvocationRecord) => {
    if (rec.extra) return;
    if (rec.op === 'exit') exits[rec.process]!++;
    else {
      entries[rec.process]!++;
      entryWaits.push(rec.end - rec.start);
    }
  };
  return { entries, exits, entryWaits, onComplete };
}

/**
 * Resolves true when `run` settles, false when it has not settled `graceMs` after `gaveUp` resolved
 * (a call that ignores its abort signal must not hang the test).
 */
function settleAfterGiveUp(run: Promise<void>, gaveUp: Promise<void>, graceMs: number): Promise<boolean> {
  const settled = run.then(() => true);
  const hardStop = gaveUp.then(
    () =>
      new Promise<boolean>((r) => {
        const t = setTimeout(() => r(false), graceMs);
        void settled.then(() => clearTimeout(t));
      }),
  );
  return Promise.race([settled, hardStop]);
}

/** Runs the workload to the end (see the module comment). Never throws for an algorithm failure. */
export async function runRealtimeWorkload<Req>(
  cluster: TcpCluster<Req>,
  options: RealtimeWorkloadOptions<Req>,
): Promise<RealtimeWorkloadResult> {
  const { rounds, thinkMs = 2, holdMs = 1, seed = 1, stallMs = noProgressMs() } = options;
  const { entries, exits, entryWaits, onComplete } = callCounts(cluster.n);
  const violationsBefore = cluster.monitor.violations.length;
  const stepsBefore = cluster.monitor.steps;
  const root = createRng(seed);
  const objects = cluster.objects;
  const engine = new WorkloadEngine(
    objects.map((o, i) => objectProcess(o, root.fork(`P${i}`))),
    {
      clock: wallClock(),
      rounds,
      think: thinkMs,
      hold: holdMs,
      request: options.request,
      abort: options.abort && {
        probability: options.abort.probability,
        within: options.abort.withinMs,
        exits: true,
      },
      invoke: (rec, signal) => callObject(objects[rec.process]!, rec, signal),
      onComplete: (rec) => {
        watchdog.progress();
        onComplete(rec);
      },
      onProgress: options.onProgress,
      withdraw: true,
    },
  );
  let gaveUp!: () => void;
  const gaveUpAt = new Promise<void>((r) => {
    gaveUp = r;
  });
  const watchdog = progressWatchdog({
    limitMs: stallMs,
    onStall: () => {
      engine.giveUp(`no call completed for ${stallMs} ms before every process completed its rounds`);
      gaveUp();
    },
  });
  const t0 = performance.now();
  const finished = await settleAfterGiveUp(engine.runConcurrent(), gaveUpAt, stallMs);
  watchdog.stop();
  if (!finished) engine.fail('a call did not settle after its abort signal fired');
  const durationMs = performance.now() - t0;
  const stuck = engine.stuck().map((s) => ({
    process: s.process,
    state: s.state,
    pending: s.pending,
    completed: s.done,
    expected: engine.expected,
  }));
  const violations = cluster.monitor.violations.slice(violationsBefore);
  const mean = entryWaits.length ? entryWaits.reduce((a, b) => a + b, 0) / entryWaits.length : 0;
  return {
    ok: engine.failure === null && violations.length === 0 && stuck.length === 0,
    failure: engine.failure,
    violations,
    entries,
    exits,
    extraCalls: engine.extraCalls,
    withdrawn: engine.withdrawn,
    aborted: engine.records.filter((r) => r.aborted).length,
    stuck,
    stateChanges: cluster.monitor.steps - stepsBefore,
    durationMs,
    entryWaitMs: { mean, max: entryWaits.length ? Math.max(...entryWaits) : 0 },
  };
}

/** One line for a test log: rounds, state changes, violations, timing. */
export function describeRun(name: string, r: RealtimeWorkloadResult): string {
  const e = r.entries.reduce((a, b) => a + b, 0);
  return (
    `${name}: ${e} counted entries (${r.entries.join('/')} per process), ${r.stateChanges} state changes checked, ` +
    `${r.violations.length} violations, ${r.extraCalls} extra calls, ${r.withdrawn} withdrawn at the end, ${r.aborted} withdrawn and retried, ` +
    `${r.durationMs.toFixed(0)} ms, entry wait mean ${r.entryWaitMs.mean.toFixed(1)} / max ${r.entryWaitMs.max.toFixed(1)} ms`
  );
}
