/*
 * The workload engine (DESIGN.md 4): one loop of entry and exit calls per process, the same for
 * the simulator (virtual clock) and for real clusters (wall clock). It draws think and hold times,
 * requests and aborts from each process's seeded generator in a fixed order, keeps one
 * {@link InvocationRecord} per call, counts rounds, lets a finished process keep cycling
 * (uncounted) until every process has finished, and reports progress. The host says how a call is
 * made (`invoke`) and what time is (`clock`); `runWorkload` is this engine on a simulated cluster.
 *
 * The draw order of a concurrent process, per call: the think (OutCS) or hold (InCS) time; after
 * the sleep, the request of an entry; then, with `abort`, the abort chance and the abort delay.
 */
import { type CSObject, type CSState, isAbortError, type ProcessId } from '@critsec/core';
import type { Rng } from '@critsec/transport-sim';
import type { WorkloadClock } from './clock.js';

/** One `entry` or `exit` call of a workload. Times are in the clock's unit. */
export interface InvocationRecord {
  /** The calling process. */
  readonly process: ProcessId;
  /** Which call. */
  readonly op: 'entry' | 'exit';
  /** 0-based round of the process. */
  readonly round: number;
  /** The request (entry of a request-taking object). */
  readonly request: unknown;
  /** Time of the call. */
  readonly start: number;
  /** Time it settled (NaN while pending). */
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
  /** Set (true) on a call cut by a crash of its process (see {@link EngineOptions.isCut}). */
  cut?: true;
}

/** One process the engine drives. */
export interface WorkloadProcess {
  /** The process's id. */
  readonly id: ProcessId;
  /** Its state now: the next call is `entry` when OutCS, `exit` when InCS. */
  state(): CSState;
  /** Its call in flight (for stuck reports). */
  pending(): 'entry' | 'exit' | null;
  /** Think, hold and abort draws (and requests, unless `requestRng`). */
  readonly rng: Rng;
  /** Request draws, when they come from a generator of their own. */
  readonly requestRng?: Rng;
}

/** A {@link WorkloadProcess} of a CS object. */
export function objectProcess<Req>(object: CSObject<Req>, rng: Rng, requestRng?: Rng): WorkloadProcess {
  return {
    id: object.id,
    state: () => object.state,
    pending: () => object.pending,
    rng,
    ...(requestRng === undefined ? {} : { requestRng }),
  };
}

/**
 * Makes the call a record describes on a CS object: `entry(request, { signal })` for an object
 * that takes a request, `entry({ signal })` otherwise, `exit({ signal })`. Returns the object's
 * promise itself.
 */
export function callObject<Req>(
  object: CSObject<Req>,
  rec: InvocationRecord,
  signal: AbortSignal | undefined,
): Promise<void> {
  const cs = object as CSObject<unknown>;
  if (rec.op === 'exit') return cs.exit({ signal });
  return cs.takesRequest
    ? (cs.entry as (r: unknown, o?: object) => Promise<void>)(rec.request, { signal })
    : (cs.entry as (o?: object) => Promise<void>)({ signal });
}

/** Withdrawal of a fraction of calls (see {@link EngineOptions.abort}). */
export interface AbortDraw {
  /** Probability that a call is withdrawn. */
  readonly probability: number;
  /** The withdrawal comes after a delay uniform in [0, within] (clock units). */
  readonly within: number;
  /** Withdraw exits too (default: entries only). */
  readonly exits?: boolean;
}

/** Settings of a {@link WorkloadEngine}. Durations are in the clock's unit. */
export interface EngineOptions<Req = unknown> {
  /** The clock of sleeps and record times (the simulator's time units, or ms). */
  readonly clock: WorkloadClock;
  /** Counted rounds per process (one entry and one exit each, from the initial state). */
  readonly rounds: number;
  /** Mean think time OutCS before an entry (uniform in [0, 2·think]; default 2). */
  readonly think?: number;
  /** Mean hold time InCS before an exit (uniform in [0, 2·hold]; default 1). */
  readonly hold?: number;
  /** Draws the request of each entry (0-based round); entries carry `undefined` without it. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /** Withdraws a fraction of calls through their abort signal; a withdrawn call is retried after a think (hold) time. */
  readonly abort?: AbortDraw;
  /**
   * Makes the call of `rec` (record number `index`) and returns its promise — directly, not
   * wrapped (e.g. `attribution.run(index, () => callObject(cs, rec, signal))`).
   */
  readonly invoke: (
    rec: InvocationRecord,
    signal: AbortSignal | undefined,
    index: number,
  ) => Promise<unknown>;
  /** After every counted call completed. */
  readonly onProgress?: (completed: number, total: number) => void;
  /** After every call that completed (counted or extra; not aborted or withdrawn), its `end` set. */
  readonly onComplete?: (rec: InvocationRecord) => void;
  /** When a process completed its counted rounds. */
  readonly onProcessFinished?: (id: ProcessId) => void;
  /** When every process finished (locally, or when `allFinished` resolved). */
  readonly onAllFinished?: () => void;
  /** When the run failed (a call rejected, `giveUp`). */
  readonly onFailure?: (message: string) => void;
  /** Checked after every sleep: true ends the loops (the simulator: a safety violation). */
  readonly halted?: () => boolean;
  /**
   * For a process of a distributed cluster: resolves when every member finished its rounds.
   * Without it, the run is finished when the engine's own processes have.
   */
  readonly allFinished?: PromiseLike<unknown>;
  /**
   * Calls carry a signal that withdraws them when the run gives up and, for uncounted calls, when
   * every process finished (wall clock). Default false (the simulator just stops the network).
   */
  readonly withdraw?: boolean;
  /**
   * A process that may crash (the simulator's crash schedules): resolves once `id` is up and
   * recovered, `undefined` when it is. The loop waits for it before each call's think or hold.
   */
  readonly ready?: (id: ProcessId) => Promise<void> | undefined;
  /** True for a rejection that means the call was cut by a crash: counted, the loop goes on. */
  readonly isCut?: (err: unknown) => boolean;
}

const drawTime = (rng: Rng, mean: number): number => (mean <= 0 ? 0 : rng.next() * 2 * mean);

/**
 * Drives a workload over some processes (see the module comment). Build it, then `runConcurrent()`
 * (every process alternates entry and exit) or `runSequential()` of `./sequential.js`.
 */
export class WorkloadEngine<Req = unknown> {
  /** Every call made, in call order. */
  readonly records: InvocationRecord[] = [];
  /** Calls expected per process (2 · rounds). */
  readonly expected: number;
  /** Counted calls expected of the engine's processes. */
  readonly total: number;
  /** Counted calls completed. */
  completed = 0;
  /** Uncounted calls completed, and calls withdrawn (give-up, end of the run). */
  extraCalls = 0;
  /** Calls withdrawn (give-up, end of the run). */
  withdrawn = 0;
  /** Why the run failed, if it did. */
  failure: string | null = null;
  /** Calls cut by a crash of their process. */
  cut = 0;
  /** The processes the engine drives. */
  readonly processes: readonly WorkloadProcess[];
  /** The options it was made with. */
  readonly options: EngineOptions<Req>;
  readonly #done = new Map<ProcessId, number>();
  #allFinished: boolean;
  readonly #end = new AbortController();
  readonly #giveUp = new AbortController();

  /** An engine for `processes`; nothing runs before `runConcurrent()` (or a caller driving `begin`). */
  constructor(processes: readonly WorkloadProcess[], options: EngineOptions<Req>) {
    this.processes = processes;
    this.options = options;
    this.expected = 2 * options.rounds;
    this.total = processes.length * this.expected;
    for (const p of processes) this.#done.set(p.id, 0);
    this.#allFinished = options.allFinished === undefined && this.total === 0;
    if (options.allFinished !== undefined)
      void Promise.resolve(options.allFinished).then(() => this.#finishAll());
  }

  /** True once every process finished (the loops stop at their next check). */
  get allFinished(): boolean {
    return this.#allFinished;
  }

  /** Counted calls process `id` completed. */
  done(id: ProcessId): number {
    return this.#done.get(id) ?? 0;
  }

  /** Draws the request of `p`'s next entry (its current round), or `undefined` without `request`. */
  drawRequest(p: WorkloadProcess): Req {
    const draw = this.options.request;
    return draw ? draw(p.requestRng ?? p.rng, p.id, Math.floor(this.done(p.id) / 2)) : (undefined as Req);
  }

  /** Opens the record of a call of `p` now and makes the call through `invoke`. */
  begin(
    p: WorkloadProcess,
    op: 'entry' | 'exit',
    req: Req | undefined,
    signal: AbortSignal | undefined,
  ): {
    /** The call's record (its `end` is set when it settles). */
    rec: InvocationRecord;
    /** The call's promise, as `invoke` returned it. */
    call: Promise<unknown>;
  } {
    const d = this.done(p.id);
    const rec: InvocationRecord = {
      process: p.id,
      op,
      round: Math.floor(d / 2),
      request: req,
      start: this.options.clock.now(),
      end: Number.NaN,
      messages: 0,
      aborted: false,
      extra: d >= this.expected,
    };
    const index = this.records.push(rec) - 1;
    return { rec, call: this.options.invoke(rec, signal, index) };
  }

  /** Closes a completed call: counts it (unless extra), reports progress, finishes the run. */
  complete(rec: InvocationRecord): void {
    if (Number.isNaN(rec.end)) rec.end = this.options.clock.now();
    this.options.onComplete?.(rec);
    if (rec.extra) {
      this.extraCalls++;
      return;
    }
    const d = this.done(rec.process) + 1;
    this.#done.set(rec.process, d);
    this.completed++;
    this.options.onProgress?.(this.completed, this.total);
    if (d === this.expected) this.options.onProcessFinished?.(rec.process);
    if (this.options.allFinished === undefined && this.completed === this.total) this.#finishAll();
  }

  /** Records a failure (the first one stays) and reports it through `onFailure`. */
  fail(message: string): void {
    this.failure ??= message;
    this.options.onFailure?.(message);
  }

  /** Fails the run with `reason` and withdraws every call in flight (with `withdraw`). */
  giveUp(reason: string): void {
    this.fail(reason);
    this.#giveUp.abort(new Error(reason));
  }

  /**
   * Runs every process's loop (all start synchronously, in order); resolves when they all
   * returned (never rejects for an algorithm failure: see `failure`). With no rounds, reports
   * every process finished at once. Under a simulated clock the promise settles only while the
   * network runs.
   */
  runConcurrent(): Promise<void> {
    if (this.expected === 0) for (const p of this.processes) this.options.onProcessFinished?.(p.id);
    return Promise.all(this.processes.map((p) => this.#loop(p))).then(() => undefined);
  }

  /** The processes that did not complete their counted rounds. */
  stuck(): {
    /** The process. */
    process: ProcessId;
    /** Its state now. */
    state: CSState;
    /** Its call in flight, or `null`. */
    pending: 'entry' | 'exit' | null;
    /** Counted calls it completed. */
    done: number;
  }[] {
    return this.processes
      .filter((p) => this.done(p.id) < this.expected)
      .map((p) => ({ process: p.id, state: p.state(), pending: p.pending(), done: this.done(p.id) }));
  }

  #finishAll(): void {
    if (this.#allFinished) return;
    this.#allFinished = true;
    this.#end.abort(new Error('every process finished its rounds'));
    this.options.onAllFinished?.();
  }

  async #loop(p: WorkloadProcess): Promise<void> {
    const o = this.options;
    while (!this.#allFinished && this.failure === null) {
      const down = o.ready?.(p.id);
      if (down !== undefined) {
        await down;
        continue;
      }
      const op = p.state() === 'OutCS' ? 'entry' : 'exit';
      await o.clock.sleep(drawTime(p.rng, op === 'entry' ? (o.think ?? 2) : (o.hold ?? 1)), `P${p.id} ${op}`);
      if (o.halted?.() || this.failure !== null || this.#allFinished) return;
      const req = op === 'entry' ? this.drawRequest(p) : undefined;
      const abort = this.#armAbort(p, op);
      const extra = this.done(p.id) >= this.expected;
      const { rec, call } = this.begin(p, op, req, this.#signal(extra, abort?.signal));
      try {
        await call;
        abort?.cancel();
        this.complete(rec);
      } catch (err) {
        abort?.cancel();
        rec.end = o.clock.now();
        if (this.#retry(rec, err, abort?.signal)) continue;
        return;
      }
    }
  }

  /** After a rejection: true to go on (a workload abort), false to end the loop. */
  #retry(rec: InvocationRecord, err: unknown, abortSignal: AbortSignal | undefined): boolean {
    if (this.options.isCut?.(err)) {
      rec.cut = true;
      this.cut++;
      return true;
    }
    if (isAbortError(err)) {
      if (this.options.withdraw && (this.#giveUp.signal.aborted || (rec.extra && this.#end.signal.aborted))) {
        this.withdrawn++;
        return false;
      }
      if (abortSignal?.aborted) {
        rec.aborted = true;
        return true;
      }
    }
    this.fail(
      `P${rec.process} ${rec.op}() rejected: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`,
    );
    return false;
  }

  #armAbort(
    p: WorkloadProcess,
    op: 'entry' | 'exit',
  ): { signal: AbortSignal; cancel: () => void } | undefined {
    const a = this.options.abort;
    if (a === undefined || (op === 'exit' && !a.exits) || !p.rng.chance(a.probability)) return undefined;
    const controller = new AbortController();
    const cancel = this.options.clock.schedule(
      p.rng.next() * a.within,
      () => controller.abort('workload abort'),
      `P${p.id} abort`,
    );
    return { signal: controller.signal, cancel };
  }

  #signal(extra: boolean, abort: AbortSignal | undefined): AbortSignal | undefined {
    if (!this.options.withdraw) return abort;
    const signals = [this.#giveUp.signal];
    if (extra) signals.push(this.#end.signal);
    if (abort !== undefined) signals.push(abort);
    return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
  }
}
