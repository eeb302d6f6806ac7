/*
 * `critsec simulate`: a cluster on the deterministic simulated network (@critsec/transport-sim)
 * driven by the workloads of @critsec/testing, with the safety monitor on all the way
 * (DESIGN.md 4–5).
 */
import { ConfigurationError } from '@critsec/core';
import { createCluster, runWorkload, type WorkloadResult } from '@critsec/harness';
import { type DelayModel, formatDelay, parseDelay } from '@critsec/transport-sim';
import { clusterArguments, type RunInput, type RunSettings, resolveRun } from '@critsec/cluster';
import type { SimulationRecorder } from './report-recording.js';
import {
  boundsField,
  clusterFields,
  initialField,
  measurePerformance,
  problemFields,
  type RunSummary,
} from './summary.js';

/** Everything `critsec simulate` takes: a run (think and hold in time units) and the network's delay model. */
export interface SimulateInput extends RunInput {
  /** `unit` (default), `constant:D`, `uniform:MIN:MAX` or `exponential:MEAN` (time units). */
  readonly delay?: string;
}

/** A validated simulation: think and hold in the simulated network's time units. */
export interface SimulationSettings extends RunSettings<'time units'> {
  /** The network's message delay model. */
  readonly delay: DelayModel;
}

/**
 * Validates a simulation's options (see {@link resolveRun} for the run and its cluster).
 * @throws ConfigurationError with a one-line message for any invalid value.
 */
export function resolveSimulation(input: SimulateInput): SimulationSettings {
  const run = resolveRun(input, 'time units');
  let delay: DelayModel;
  try {
    delay = parseDelay(input.delay ?? 'unit');
  } catch (err) {
    throw new ConfigurationError(`--delay: ${(err as Error).message}`);
  }
  return { ...run, delay };
}

/** The command line that reproduces a simulation. */
export function replayCommand(s: SimulationSettings): string {
  const parts = ['npx critsec simulate', s.cluster.algorithm, ...clusterArguments(s.cluster)];
  parts.push(
    `--rounds ${s.rounds}`,
    `--seed ${s.seed}`,
    `--delay ${formatDelay(s.delay)}`,
    `--workload ${s.workload}`,
  );
  if (s.workload === 'concurrent') parts.push(`--think ${s.think}`, `--hold ${s.hold}`);
  return parts.join(' ');
}

/** Hooks of {@link runSimulation}. */
export interface SimulationHooks {
  /** Called after every completed entry or exit (`total` = 2 · n · rounds). */
  readonly onProgress?: (completed: number, total: number) => void;
  /** Receives every line of the JSON-lines trace (messages, timers, state changes). */
  readonly trace?: (line: string) => void;
  /** Collects the run's state changes and calls for `--report` (only when given). */
  readonly recorder?: SimulationRecorder;
  /** Called as each step starts: `creating <n> processes`, then `running <rounds> rounds`. */
  readonly onStep?: (label: string) => void;
}

const EPS = 1e-9;

/**
 * Runs a simulation to the end and summarizes it. Never throws for an algorithm failure: a
 * safety violation or a process that could not finish is reported in the summary (`ok: false`,
 * `violation`, `failure`).
 *
 * Under the concurrent workload messages are attributed causally to the invocation that caused
 * them (`attribution: true` of `createCluster`), so the per-pair distribution is exact there too.
 */
export async function runSimulation(s: SimulationSettings, hooks: SimulationHooks = {}): Promise<RunSummary> {
  const c = s.cluster;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  hooks.onStep?.(`creating ${c.n.toLocaleString('en-US')} processes`);
  const cluster = createCluster({
    factory: c.factory,
    // the sequential workload moves within the algorithm's own narrower bounds, if it has them
    spec: s.workload === 'sequential' ? (c.sequentialSpec ?? c.spec) : c.spec,
    initial: c.initial,
    seed: s.seed,
    delay: s.delay,
    attribution: s.workload === 'concurrent',
    ...(hooks.trace ? { trace: hooks.trace } : {}),
  });
  hooks.recorder?.attach(cluster);
  const pairs = c.n * s.rounds;
  hooks.onStep?.(`running ${s.rounds} rounds per process`);
  const r = await runWorkload(cluster, {
    kind: s.workload,
    rounds: s.rounds,
    think: s.think,
    hold: s.hold,
    ...(c.request === null ? {} : { request: c.request }),
    // a generous event budget: a livelock ends the run instead of hanging it
    maxEvents: Math.max(5_000_000, 100 * pairs * Math.max(1, c.bounds.messagesPerPair)),
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
  });
  await cluster.close();
  const wallMs = performance.now() - t0;
  const cpu = measurePerformance(cpu0, r.messages.delivered);
  hooks.recorder?.finish(r);
  const summary = simulationSummary(
    s,
    r,
    { violations: cluster.monitor.violations.length, maxInCS: cluster.monitor.maxInCS },
    wallMs,
  );
  return { ...summary, performance: cpu };
}

/** Whether each measured maximum is within its bound: under the sequential workload only (waiting times: with unit delays). */
function boundsMet(s: SimulationSettings, r: WorkloadResult): RunSummary['boundsMet'] {
  const { bounds } = s.cluster;
  const sequential = s.workload === 'sequential';
  const unit = s.delay.kind === 'unit';
  const within = (x: number, bound: number) => x <= bound + EPS;
  return {
    messagesPerPair: sequential && r.perPair.count > 0 ? within(r.perPair.max, bounds.messagesPerPair) : null,
    waitingTimeEntry:
      sequential && unit && r.waiting.entry.count > 0
        ? within(r.waiting.entry.max, bounds.waitingTimeEntry)
        : null,
    waitingTimeExit:
      sequential && unit && r.waiting.exit.count > 0
        ? within(r.waiting.exit.max, bounds.waitingTimeExit)
        : null,
  };
}

/** The `--json` summary of a finished simulation (`monitor`: the safety monitor's counts). */
function simulationSummary(
  s: SimulationSettings,
  r: WorkloadResult,
  monitor: { violations: number; maxInCS: number },
  wallMs: number,
): RunSummary {
  const c = s.cluster;
  const byType: Record<string, number> = {};
  for (const [key, count] of Object.entries(r.messages.byType).sort(([a], [b]) => a.localeCompare(b))) {
    byType[key.trim()] = count;
  }
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  const v = r.violation;
  return {
    ...clusterFields(c),
    rounds: s.rounds,
    seed: s.seed,
    delay: formatDelay(s.delay),
    workload: s.workload,
    think: s.think,
    hold: s.hold,
    timeUnit: 'time units',
    initial: initialField(c),
    entries: r.entries,
    exits: r.exits,
    safetyViolations: monitor.violations,
    violation: v === null ? null : { step: v.step, time: v.time, process: v.process, message: v.message },
    ok: r.ok,
    failure: r.failure,
    messages: {
      total: r.messages.sent,
      perPair: { mean: num(r.perPair.mean), p99: num(r.perPair.p99), max: num(r.perPair.max) },
      byType,
    },
    waitingTime: {
      entry: { mean: r.waiting.entry.mean, max: r.waiting.entry.max },
      exit: { mean: r.waiting.exit.mean, max: r.waiting.exit.max },
    },
    bounds: boundsField(c),
    boundsMet: boundsMet(s, r),
    simulatedTime: r.simulatedTime,
    wallMs,
    messagesPerSecond: wallMs > 0 ? (r.messages.sent * 1000) / wallMs : 0,
    replay: replayCommand(s),
    ...problemFields(c),
    concurrency: { max: monitor.maxInCS },
  };
}
