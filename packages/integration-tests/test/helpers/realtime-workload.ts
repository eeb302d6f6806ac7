/**
 * The concurrent compliance workload of `@critsec/testing` (`runWorkload`, kind `concurrent`)
 * in real time, for a {@link TcpCluster}: every process alternates entry and exit for `rounds`
 * rounds, starting from its initial state, with think (OutCS) and hold (InCS) times drawn
 * uniformly from [0, 2·mean] ms by a seeded generator. A process that has finished its rounds
 * keeps cycling (uncounted) until every process has, so it never blocks the others by stopping
 * InCS (mutual exclusion) or OutCS (mutual inclusion); then the uncounted calls still in flight
 * are withdrawn through their abort signal. The monitor of the cluster checks safety at every
 * state change throughout.
 */
import { type CSObject, type CSState, isAbortError, type ProcessId } from '@critsec/core';
import type { Violation } from '@critsec/testing';
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
  /** Give up after this long, ms (default 30 000): every call is withdrawn and the run fails. */
  readonly timeoutMs?: number;
  /** Draws the request of each entry, for objects that take one. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /**
   * Withdraws a fraction of the counted calls (entries and exits): each is aborted with
   * `probability`, after a delay uniform in [0, withinMs] ms; a withdrawn call is retried after
   * a think (or hold) time. A call that completes before its abort fires counts as usual.
   */
  readonly abort?: { readonly probability: number; readonly withinMs: number };
  /** Called after every counted call completes. */
  readonly onProgress?: (completed: number, total: number) => void;
}

/** A process that did not complete its rounds. */
export interface StuckProcess {
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
  /** Uncounted calls completed after a process's rounds, and calls withdrawn at the end. */
  readonly extraCalls: number;
  readonly withdrawn: number;
  /** Counted calls withdrawn by the `abort` option (and retried). */
  readonly aborted: number;
  readonly stuck: readonly StuckProcess[];
  /** State changes the monitor checked. */
  readonly stateChanges: number;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** Wall-clock waiting time of counted entries, ms. */
  readonly entryWaitMs: { readonly mean: number; readonly max: number };
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/** Runs the workload to the end (see the module comment). Never throws for an algorithm failure. */
export async function runRealtimeWorkload<Req>(
  cluster: TcpCluster<Req>,
  options: RealtimeWorkloadOptions<Req>,
): Promise<RealtimeWorkloadResult> {
  const { rounds, thinkMs = 2, holdMs = 1, seed = 1, timeoutMs = 30_000 } = options;
  const n = cluster.n;
  const expected = 2 * rounds;
  const total = n * expected;
  const done = new Array<number>(n).fill(0);
  const entries = new Array<number>(n).fill(0);
  const exits = new Array<number>(n).fill(0);
  const entryWaits: number[] = [];
  let completed = 0;
  let extraCalls = 0;
  let withdrawn = 0;
  let aborted = 0;
  let failure: string | null = null;
  const violationsBefore = cluster.monitor.violations.length;
  const stepsBefore = cluster.monitor.steps;
  const allDone = new AbortController(); // withdraws uncounted calls once every process finished
  const giveUp = new AbortController(); // withdraws every call at the timeout
  const timer = setTimeout(() => {
    failure ??= `timed out after ${timeoutMs} ms before every process completed its rounds`;
    giveUp.abort(new Error(failure));
  }, timeoutMs);
  const t0 = performance.now();
  const root = createRng(seed);

  const loop = async (i: ProcessId) => {
    const cs = cluster.objects[i] as CSObject<unknown>;
    const rng = root.fork(`P${i}`);
    const draw = (mean: number) => (mean <= 0 ? 0 : rng.next() * 2 * mean);
    while (!allDone.signal.aborted && !giveUp.signal.aborted && failure === null) {
      const op = cs.state === 'OutCS' ? 'entry' : 'exit';
      await sleep(draw(op === 'entry' ? thinkMs : holdMs));
      if (allDone.signal.aborted || giveUp.signal.aborted || failure !== null) return;
      const counted = done[i]! < expected;
      let withdraw: AbortController | undefined;
      let withdrawTimer: NodeJS.Timeout | undefined;
      if (counted && options.abort && rng.next() < options.abort.probability) {
        const ac = new AbortController();
        withdraw = ac;
        withdrawTimer = setTimeout(
          () => ac.abort(new Error('workload abort')),
          rng.next() * options.abort.withinMs,
        );
      }
      const signal = counted
        ? withdraw
          ? AbortSignal.any([withdraw.signal, giveUp.signal])
          : giveUp.signal
        : AbortSignal.any([allDone.signal, giveUp.signal]);
      const round = Math.floor(done[i]! / 2);
      const start = performance.now();
      try {
        if (op === 'entry') {
          if (cs.takesRequest) {
            const req = options.request?.(rng, i, round);
            await (cs.entry as (r: unknown, o: object) => Promise<void>)(req, { signal });
          } else await (cs.entry as (o: object) => Promise<void>)({ signal });
        } else await cs.exit({ signal });
      } catch (err) {
        if (isAbortError(err) && withdraw?.signal.aborted && !giveUp.signal.aborted) {
          aborted++;
          continue; // withdrawn by the workload: the state is unchanged; retry
        }
        if (isAbortError(err) && signal.aborted) {
          if (!counted) withdrawn++;
          return;
        }
        failure ??= `P${i} ${op}() rejected: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
        return;
      } finally {
        clearTimeout(withdrawTimer);
      }
      if (!counted) {
        extraCalls++;
        continue;
      }
      done[i]!++;
      if (op === 'entry') {
        entries[i]!++;
        entryWaits.push(performance.now() - start);
      } else exits[i]!++;
      completed++;
      options.onProgress?.(completed, total);
      if (completed === total) allDone.abort(new Error('every process completed its rounds'));
    }
  };

  const loops = Array.from({ length: n }, (_, i) => loop(i));
  if (total === 0) allDone.abort(new Error('no rounds'));
  // A call that ignores its abort signal must not hang the test: wait at most 5 s past the timeout.
  const settled = Promise.all(loops).then(() => true);
  const hardStop = new Promise<boolean>((r) => {
    const t = setTimeout(() => r(false), timeoutMs + 5_000);
    void settled.then(() => clearTimeout(t));
  });
  const finished = await Promise.race([settled, hardStop]);
  clearTimeout(timer);
  if (!finished) failure ??= 'a call did not settle after its abort signal fired';
  const durationMs = performance.now() - t0;
  const stuck: StuckProcess[] = [];
  for (let i = 0; i < n; i++) {
    if (done[i]! < expected) {
      const o = cluster.objects[i]!;
      stuck.push({ process: i, state: o.state, pending: o.pending, completed: done[i]!, expected });
    }
  }
  const violations = cluster.monitor.violations.slice(violationsBefore);
  const mean = entryWaits.length ? entryWaits.reduce((a, b) => a + b, 0) / entryWaits.length : 0;
  return {
    ok: failure === null && violations.length === 0 && stuck.length === 0,
    failure,
    violations,
    entries,
    exits,
    extraCalls,
    withdrawn,
    aborted,
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
