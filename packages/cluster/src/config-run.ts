/*
 * The settings of a run, written once for both kinds (issue 25): `critsec simulate` on the
 * simulated network, where think and hold times are the network's time units, and
 * `critsec cluster` over TCP/TLS between OS processes, where they are wall-clock ms. The cluster
 * description of `resolveCluster` plus the workload — rounds, seed, `concurrent` or `sequential`,
 * the mean think and hold times — validated before anything runs.
 */
import { parseChoice, parseInteger, parseNonNegative } from '@critsec/core/kit';
import { type AnyDescriptor, resolveCluster } from './algorithm-resolve.js';
import type { ClusterInput, ResolvedCluster } from './algorithm-resolved.js';

/** The workloads of a run: every member cycling on its own, or one call in flight in the whole cluster. */
export const WORKLOAD_NAMES = ['concurrent', 'sequential'] as const;

/**
 * The unit of a run's think and hold times: the simulated network's `time units` (one unit = the
 * `unit` message delay) for `critsec simulate`, wall-clock `ms` for `critsec cluster`.
 */
export type TimeUnit = 'time units' | 'ms';

/** What describes a run, as strings (command line) or numbers (program). */
export interface RunInput extends ClusterInput {
  /** The algorithms to find `algorithm` among (default: critsec's; add your own descriptors). */
  readonly algorithms?: readonly AnyDescriptor[];
  /** Counted rounds per process, one entry and one exit each (default 20). */
  readonly rounds?: number | string;
  /** Seed of the run: think and hold times, requests (and the simulated network's delays); default 1. */
  readonly seed?: number | string;
  /** `concurrent` (default) or `sequential` (one call in flight in the whole cluster). */
  readonly workload?: string;
  /** Mean think time OutCS before an entry, in the run's {@link TimeUnit} (default 2). */
  readonly think?: number | string;
  /** Mean hold time InCS before an exit, in the run's {@link TimeUnit} (default 1). */
  readonly hold?: number | string;
}

/** A validated run: the cluster and its workload, think and hold in `timeUnit`. */
export interface RunSettings<U extends TimeUnit = TimeUnit> {
  /** The algorithm, n, parameters and bounds. */
  readonly cluster: ResolvedCluster;
  /** `concurrent`, or `sequential`: one call in flight in the whole cluster. */
  readonly workload: (typeof WORKLOAD_NAMES)[number];
  /** Counted rounds per process. */
  readonly rounds: number;
  /** Seed of the run. */
  readonly seed: number;
  /** Mean think time OutCS before an entry, in {@link RunSettings.timeUnit} (drawn uniformly from [0, 2·think]). */
  readonly think: number;
  /** Mean hold time InCS before an exit, in {@link RunSettings.timeUnit} (drawn uniformly from [0, 2·hold]). */
  readonly hold: number;
  /** The unit of `think` and `hold`: `time units` (simulated) or `ms` (real processes). */
  readonly timeUnit: U;
}

/**
 * Validates a run's cluster (see {@link resolveCluster}) and workload; `timeUnit` names the unit
 * of its think and hold times.
 * @throws ConfigurationError (one line) for any invalid value.
 */
export function resolveRun<U extends TimeUnit>(input: RunInput, timeUnit: U): RunSettings<U> {
  const cluster = resolveCluster(
    input,
    input.algorithms === undefined ? {} : { algorithms: input.algorithms },
  );
  return {
    cluster,
    workload: parseChoice('workload', input.workload ?? 'concurrent', WORKLOAD_NAMES),
    rounds: parseInteger('rounds', input.rounds ?? 20, 1),
    seed: parseInteger('seed', input.seed ?? 1, 0),
    think: parseNonNegative('think', input.think ?? 2),
    hold: parseNonNegative('hold', input.hold ?? 1),
    timeUnit,
  };
}
