/**
 * The crash mode of the compliance suite (issue 27): seeded crash and restart schedules
 * (`createCluster({ crashes })` of `@critsec/harness`) over the concurrent workload, for a
 * factory whose objects implement `DurableCSObject`. Every seed must end with no safety
 * violation and no process stuck after the last restart. {@link crashSweep} runs the seeds and
 * counts; {@link crashRecoverySuite} registers one test per crash configuration.
 */
import type { CSFactory, CSState, ProblemSpec, ProcessId } from '@critsec/core';
import {
  type CrashOptions,
  createCluster,
  describeFailure,
  runWorkload,
  type WorkloadResult,
} from '@critsec/harness';
import { type DelayModel, type Rng, uniformDelay } from '@critsec/transport-sim';
import type { TestFn } from './cs-setup.js';

/** One sweep of seeds under a crash schedule. */
export interface CrashSweepOptions<Req = void> {
  /** The algorithm (its objects must be `DurableCSObject`s that build from `ctx.recovered`). */
  readonly factory: CSFactory<Req>;
  /** The problem the monitor checks. */
  readonly spec: ProblemSpec;
  /** The initial configuration (default: every process OutCS; a local or (l,k) problem needs a safe one). */
  readonly initial?: readonly CSState[];
  /** Seeds `firstSeed .. firstSeed + seeds - 1`. */
  readonly seeds: number;
  /** The first seed (default 1). */
  readonly firstSeed?: number;
  /** The crash and restart schedule of every seed. */
  readonly crashes: CrashOptions;
  /** Rounds per process (default 4). */
  readonly rounds?: number;
  /** Mean think time of the workload, time units (default 2). */
  readonly think?: number;
  /** Mean hold time of the workload, time units (default 1). */
  readonly hold?: number;
  /** Event budget of one seed (default 200,000): a run past it fails as stuck. */
  readonly maxEvents?: number;
  /** Delay model (default uniform in [0.5, 2] time units). */
  readonly delay?: DelayModel;
  /** Draws the request of each entry, for objects that take one. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
}

/** What a {@link crashSweep} saw, summed over its seeds. */
export interface CrashSweepResult {
  /** Seeds run. */
  readonly runs: number;
  /** Seeds with a safety violation. */
  readonly violations: number;
  /** Seeds with a process stuck at the end (after the last restart) or another failure. */
  readonly stuck: number;
  /** Crashes that happened. */
  readonly crashes: number;
  /** Crashes that lost a write not yet durable. */
  readonly lostWrites: number;
  /** Held sends the crashes dropped. */
  readonly droppedSends: number;
  /** Messages handed over, not acknowledged, and delivered again after a restart. */
  readonly redelivered: number;
  /** Calls cut by a crash. */
  readonly cutCalls: number;
  /** The first failures, one paragraph each (seed included), at most 5. */
  readonly failures: readonly string[];
}

/** Runs one seed of the concurrent workload with crashes; the cluster is closed after. */
export async function runCrashSeed<Req>(
  options: CrashSweepOptions<Req>,
  seed: number,
): Promise<WorkloadResult> {
  const cluster = createCluster<Req>({
    factory: options.factory,
    spec: options.spec,
    ...(options.initial === undefined ? {} : { initial: options.initial }),
    seed,
    delay: options.delay ?? uniformDelay(0.5, 2),
    crashes: options.crashes,
  });
  try {
    return await runWorkload(cluster, {
      rounds: options.rounds ?? 4,
      maxEvents: options.maxEvents ?? 200_000,
      ...(options.think === undefined ? {} : { think: options.think }),
      ...(options.hold === undefined ? {} : { hold: options.hold }),
      ...(options.request === undefined ? {} : { request: options.request }),
    });
  } finally {
    await cluster.close();
  }
}

/** Runs every seed of `options` and counts violations, stuck runs, crashes and what they lost. */
export async function crashSweep<Req>(options: CrashSweepOptions<Req>): Promise<CrashSweepResult> {
  const first = options.firstSeed ?? 1;
  const failures: string[] = [];
  let violations = 0;
  let stuck = 0;
  let crashes = 0;
  let lostWrites = 0;
  let droppedSends = 0;
  let redelivered = 0;
  let cutCalls = 0;
  for (let seed = first; seed < first + options.seeds; seed++) {
    const r = await runCrashSeed(options, seed);
    const c = r.crashes!;
    crashes += c.crashes;
    lostWrites += c.lostWrites;
    droppedSends += c.droppedSends;
    redelivered += c.redelivered;
    cutCalls += c.cutCalls;
    if (r.violation !== null) violations++;
    else if (!r.ok) stuck++;
    if (!r.ok && failures.length < 5) failures.push(describeFailure('crash recovery', r));
  }
  return {
    runs: options.seeds,
    violations,
    stuck,
    crashes,
    lostWrites,
    droppedSends,
    redelivered,
    cutCalls,
    failures,
  };
}

/** Options of {@link crashRecoverySuite}: a sweep per crash configuration. */
export interface CrashSuiteOptions<Req = void> extends Omit<CrashSweepOptions<Req>, 'crashes'> {
  /** The test runner's `it`. */
  readonly it: TestFn;
  /** Names the tests. */
  readonly name: string;
  /** The crash configurations (default: 3 crashes per run, losing unsynced writes and not). */
  readonly crashes?: readonly CrashOptions[];
}

/** The default crash configurations: 3 crashes a run, restarts after 1–10 time units, with and without lost writes. */
export const defaultCrashes: readonly CrashOptions[] = [
  { count: 3, loseUnsynced: true },
  { count: 3, loseUnsynced: false },
];

/**
 * Registers the crash-recovery tests of one algorithm configuration — the entry point an
 * algorithm calls once its objects implement `DurableCSObject`:
 * `crashRecoverySuite({ it, name, factory, spec, seeds: 200 })`. Each test sweeps the seeds
 * under one crash configuration and fails, naming the seeds, unless every run had no violation
 * and nobody stuck after the last restart (and at least one crash happened).
 */
export function crashRecoverySuite<Req = void>(options: CrashSuiteOptions<Req>): void {
  for (const crashes of options.crashes ?? defaultCrashes) {
    const label = `${options.name}: ${options.seeds} seeds, ${crashes.count} crashes each, ${crashes.loseUnsynced === false ? 'synced' : 'losing unsynced writes'}`;
    options.it(label, async () => {
      const r = await crashSweep({ ...options, crashes });
      if (r.violations > 0 || r.stuck > 0 || r.crashes === 0) {
        throw new Error(
          `${label}: ${r.violations} violations, ${r.stuck} stuck, ${r.crashes} crashes\n${r.failures.join('\n')}`,
        );
      }
    });
  }
}
