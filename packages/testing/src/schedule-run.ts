/**
 * One run of a **controlled schedule** (issue 26 §2): every choice the simulator leaves open is
 * read from a choice sequence, so the sequence replays the run exactly. Two schedule spaces:
 *
 * - `'order'` — controlled mode (`transport-sim`'s `policy.ts`): at every step the schedule picks
 *   one of the deliverable events (the head of each per-link FIFO queue, each process's next
 *   invocation); no time passes but the count of delivered events.
 * - `'timing'` — timed mode: the schedule picks each message's delay from `delays` and each
 *   call's pause before it from `thinks` (time units): waiting times in the papers' time units.
 *
 * Either way each entry's request is picked from `requests`, every message is charged causally to
 * the call that caused it (`attribution`, as `pair-costs.ts` pairs them), and each process makes
 * `rounds` counted rounds, then keeps cycling (uncounted, as the workload engine does) until every
 * process has finished, so that none blocks the others by stopping.
 */
import type { CSObject, ProcessId } from '@critsec/core';
import { constantDelay } from '@critsec/transport-sim';
import { PriorityOrder } from './priority-order.js';
import { PRIORITIES, type ScheduleChoices } from './schedule-choices.js';
import type { ClusterOptions } from '@critsec/harness';
import { createCluster, type SimCluster } from '@critsec/harness';
import { callObject, type InvocationRecord } from '@critsec/harness';
import { exitEntryPairs } from './pair-costs.js';

/** What a schedule controls and how long it runs: everything but the choices themselves. */
export interface ScheduleSetup<Req = void> {
  /** The cluster (mode, delays, trace and attribution are the schedule's). */
  readonly cluster: Omit<ClusterOptions<Req>, 'mode' | 'delay' | 'linkDelay' | 'trace' | 'attribution'>;
  /** `'order'` (default): delivery order in controlled mode; `'timing'`: delays and pauses in timed mode. */
  readonly space?: 'order' | 'timing';
  /** Counted rounds (entry + exit) per process (default 1). */
  readonly rounds?: number;
  /**
   * The processes that make calls (default all); the others only answer. One process alone is the
   * papers' uncontended setting of their waiting-time bounds.
   */
  readonly active?: readonly ProcessId[];
  /**
   * Whether a process that made its counted calls keeps cycling (uncounted) until every active
   * one has: needed when an exit waits for someone to enter (a lower bound l or l_i > 0), so the
   * default is true exactly then. Uncounted calls' messages are in no pair.
   */
  readonly cycle?: boolean;
  /** The requests an entry may make (h-out-of-k units, groups); the schedule picks one per entry. */
  readonly requests?: readonly Req[];
  /** `'timing'`: the message delays to pick from, time units, each in (0, 1] for the papers' unit (default `[1, 0.5, 0.25]`). */
  readonly delays?: readonly number[];
  /** `'timing'`: the pauses before a call to pick from, time units (default `[0, 0.5, 1, 2]`). */
  readonly thinks?: readonly number[];
  /** Events one run may take before it is cut (a livelock guard; default 100,000). */
  readonly maxEventsPerRun?: number;
}

/** One exit+entry pair of a run. */
export interface SchedulePair {
  /** The process. */
  readonly process: ProcessId;
  /** The entry's request (`undefined` for an object that takes none). */
  readonly request: unknown;
  /** Messages charged causally to the entry and the exit. */
  readonly messages: number;
}

/** One run of a schedule and what it measured. */
export interface ScheduleRun {
  /** The choices the run made, lane by lane ({@link ScheduleChoices}): replays it. */
  readonly choices: ReadonlyMap<string, readonly number[]>;
  /** Every call, counted and extra; `messages` charged causally. */
  readonly records: readonly InvocationRecord[];
  /** Every exit+entry pair of the counted calls (`exitEntryPairs`), with its messages. */
  readonly pairs: readonly SchedulePair[];
  /** Events delivered (order space) or processed (timing space): the run's cost in the search budget. */
  readonly steps: number;
  /** Largest number of calls in flight at once (processes waiting in entry or exit). */
  readonly maxWaiting: number;
  /** Whether every counted call completed. */
  readonly complete: boolean;
  /** The first safety violation or a call that threw, in words, or `null`. */
  readonly failure: string | null;
}

const DEFAULT_DELAYS = [1, 0.5, 0.25];
const DEFAULT_THINKS = [0, 0.5, 1, 2];

/** The state of one run while it goes: the cluster, the records, the processes' progress. */
class Run<Req> {
  readonly timing: boolean;
  readonly cluster: SimCluster<Req>;
  readonly records: InvocationRecord[] = [];
  readonly errors: string[] = [];
  readonly order: PriorityOrder | undefined;
  readonly active: readonly ProcessId[];
  readonly #setup: ScheduleSetup<Req>;
  readonly #choices: ScheduleChoices;
  readonly #thinks: readonly number[];
  readonly #expected: number;
  readonly #cycle: boolean;
  readonly #done: number[];
  #inFlight = 0;
  maxWaiting = 0;

  constructor(setup: ScheduleSetup<Req>, choices: ScheduleChoices) {
    this.#setup = setup;
    this.#choices = choices;
    this.timing = setup.space === 'timing';
    const delays = (setup.delays ?? DEFAULT_DELAYS).map((d) => constantDelay(d));
    this.#thinks = setup.thinks ?? DEFAULT_THINKS;
    this.cluster = createCluster<Req>({
      ...setup.cluster,
      mode: this.timing ? 'timed' : 'controlled',
      attribution: true,
      ...(this.timing
        ? { linkDelay: (from, to) => delays[choices.pick(`m${from}-${to}`, delays.length)] }
        : {}),
    });
    this.#expected = 2 * (setup.rounds ?? 1);
    this.#done = new Array<number>(this.cluster.n).fill(0);
    const spec = setup.cluster.spec;
    this.#cycle =
      setup.cycle ??
      ((spec.kind === 'global' && spec.l > 0) || (spec.kind === 'local' && spec.l.some((l) => l > 0)));
    this.active = setup.active ?? Array.from({ length: this.cluster.n }, (_, i) => i);
    this.order = this.timing ? undefined : new PriorityOrder(this.cluster.net, choices);
  }

  /** Whether every active process made its counted calls. */
  allDone(): boolean {
    return this.active.every((i) => this.#done[i]! >= this.#expected);
  }

  /** P_i's calls: counted rounds, then uncounted cycles until every process has finished. */
  async loop(i: ProcessId): Promise<void> {
    const { cluster, timing } = this;
    const net = cluster.net;
    const cs = cluster.objects[i] as CSObject<unknown>;
    for (let call = 0; ; call++) {
      const extra = call >= this.#expected;
      if (extra && (!this.#cycle || this.allDone())) return;
      const op = cs.state === 'OutCS' ? 'entry' : 'exit';
      const choice = this.#choices.pick(`p${i}`, timing ? this.#thinks.length : PRIORITIES);
      await new Promise<void>((resolve) => {
        this.order?.timer(`P${i} ${op}`, choice);
        net.schedule(timing ? this.#thinks[choice]! : 0, resolve, `P${i} ${op}`);
      });
      if (extra && this.allDone()) return;
      const requests = this.#setup.requests;
      const request =
        op === 'entry' && requests !== undefined
          ? requests[this.#choices.pick(`r${i}`, requests.length)]
          : undefined;
      if (op === 'entry') cluster.monitor.setRequest(i, request);
      const rec: InvocationRecord = {
        process: i,
        op,
        round: Math.floor(call / 2),
        request,
        start: net.now,
        end: Number.NaN,
        messages: 0,
        aborted: false,
        extra,
      };
      const index = this.records.push(rec) - 1;
      this.maxWaiting = Math.max(this.maxWaiting, ++this.#inFlight);
      await cluster.attribution!.run(index, () => callObject(cs, rec, undefined));
      this.#inFlight--;
      rec.end = net.now;
      if (!extra) this.#done[i]!++;
    }
  }

  /** Delivers events until none is left or `maxEvents` were; returns how many. */
  async drive(maxEvents: number): Promise<number> {
    const { cluster, order } = this;
    const net = cluster.net;
    if (order === undefined) return (await net.run({ maxEvents })).events;
    await net.settle();
    let steps = 0;
    for (let pending = net.pending(); pending.length > 0 && steps < maxEvents; pending = net.pending()) {
      await net.deliver(order.next(pending));
      steps++;
      if (cluster.firstViolation !== null) break;
    }
    return steps;
  }
}

/**
 * Runs `setup` under the choices of `choices` (see {@link ScheduleChoices}): the same choices give
 * the same run, message for message.
 * @throws ConfigurationError from `createCluster` for a bad cluster.
 */
export async function runSchedule<Req>(
  setup: ScheduleSetup<Req>,
  choices: ScheduleChoices,
): Promise<ScheduleRun> {
  const run = new Run(setup, choices);
  const { cluster, records, errors } = run;
  const off = cluster.attribution!.onCharge((index) => records[index]!.messages++);
  let closing = false;
  for (const i of run.active)
    run.loop(i).catch((err: unknown) => {
      if (!closing) errors.push(`P${i}: ${String(err)}`);
    });
  const steps = await run.drive(setup.maxEventsPerRun ?? 100_000);
  off();
  run.order?.close();
  const v = cluster.firstViolation;
  const failure = v === null ? (errors[0] ?? null) : `${v.message} (state change ${v.step})`;
  const complete = run.allDone();
  closing = true;
  await cluster.close();
  const pairs = exitEntryPairs(records).map(
    ({ process, entry, exit }): SchedulePair => ({
      process,
      request: entry.request,
      messages: entry.messages + exit.messages,
    }),
  );
  return { choices: choices.used, records, pairs, steps, maxWaiting: run.maxWaiting, complete, failure };
}
