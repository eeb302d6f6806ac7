/**
 * The one setup object of the CS compliance suite (`@critsec/testing/cs`): what the algorithm
 * package passes ({@link CSComplianceSetup}), the defaults resolved once into a
 * {@link CSComplianceContext} that every concern's registrar (safety, liveness, determinism,
 * abort, close, usage errors, coverage) receives, and the small helpers they share.
 */
import type { CSFactory, CSObject, CSState, ProblemSpec, ProcessId } from '@critsec/core';
import { describeSpec, type ReachCollector } from '@critsec/core/kit';
import { type DelayModel, exponentialDelay, type Rng, uniformDelay, unitDelay } from '@critsec/transport-sim';
import type { ClusterOptions, SimCluster } from '@critsec/harness';
import type { WorkloadOptions } from '@critsec/harness';

/** The test-registration function of the runner (vitest's or jest's `it`). */
export type TestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void;

/** What {@link csCompliance} needs to know about the algorithm under test. */
export interface CSComplianceSetup<Req = void> {
  /** A short name, used in test titles and trace file names. */
  readonly name: string;
  /** The runner's `it` (the suite does not own the runner). */
  readonly it: TestFn;
  /** The algorithm. */
  readonly factory: CSFactory<Req>;
  /** The problem it claims to solve (the monitor checks it at every state change). */
  readonly spec: ProblemSpec;
  /**
   * The problem the sequential (uncontended) workload picks its moves from and checks, when it is
   * narrower than `spec` — e.g. LKCS, which keeps tightened bounds unless its deadlock breaker
   * runs, so an uncontended move that only `spec` allows would wait forever (default `spec`).
   */
  readonly sequentialSpec?: ProblemSpec;
  /** Initial configuration (default: the first l processes InCS, see `defaultInitial`). */
  readonly initial?: readonly CSState[];
  /** Requests held initially by processes InCS (units, groups). */
  readonly initialRequests?: readonly unknown[];
  /** Draws each entry's request; required when the objects take one. */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /** Seeds per delay model for safety + liveness (default 1,000). */
  readonly seeds?: number;
  /** First seed (default 1). */
  readonly firstSeed?: number;
  /** Rounds per process per run (default 2). */
  readonly rounds?: number;
  /** Delay models (default: unit, uniform(0.1, 2), exponential(1)). */
  readonly delays?: readonly DelayModel[];
  /** Workload think/hold means in time units (defaults 2 / 1). */
  readonly think?: number;
  /** Mean hold time InCS before an exit, time units (default 1). */
  readonly hold?: number;
  /** Abort test: `false` to skip for algorithms that document they cannot abort; seeds default 200. */
  readonly abort?:
    | false
    | {
        /** Seeded runs (default 200). */
        readonly seeds?: number;
        /** Probability that an entry is aborted. */
        readonly probability?: number;
        /** The abort comes after a delay uniform in [0, within] time units. */
        readonly within?: number;
      };
  /** Rare paths (`reach` labels) that must each be taken at least once across the safety seeds. */
  readonly coverage?: readonly string[];
  /**
   * Timeout of each registered test, in milliseconds (default none: the runner's own per-test
   * timeout applies). A seeded suite is bounded by its seeds and rounds; a wall-clock deadline
   * only makes it fail on a loaded machine.
   */
  readonly timeout?: number;
  /** Directory for failure traces (default `.traces` under the working directory). */
  readonly traceDir?: string;
}

/** Delay models the suite uses by default. */
export const defaultDelays: readonly DelayModel[] = [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)];

/**
 * A {@link CSComplianceSetup} with its defaults resolved, handed to every concern's registrar.
 * One per {@link csCompliance} call: the registrars of one call share `reached`.
 */
export interface CSComplianceContext<Req = void> {
  /** The setup as the algorithm package wrote it. */
  readonly setup: CSComplianceSetup<Req>;
  /** The runner's `it`. */
  readonly it: TestFn;
  /** Seeds per delay model (default 1,000). */
  readonly seeds: number;
  /** First seed (default 1). */
  readonly first: number;
  /** Rounds per process per run (default 2). */
  readonly rounds: number;
  /** Timeout of each registered test, in milliseconds (`undefined`: the runner's own). */
  readonly timeout: number | undefined;
  /** Delay models (default {@link defaultDelays}). */
  readonly delays: readonly DelayModel[];
  /** The prefix of every test title: `name (spec)`. */
  readonly title: string;
  /** The rare-path collector, started by the first safety test and read by the coverage test. */
  readonly reached: {
    /** The collector, once the first safety test started it. */
    collector?: ReachCollector;
  };
}

/** Resolves a setup's defaults (see {@link CSComplianceContext}). */
export function complianceContext<Req>(setup: CSComplianceSetup<Req>): CSComplianceContext<Req> {
  return {
    setup,
    it: setup.it,
    seeds: setup.seeds ?? 1000,
    first: setup.firstSeed ?? 1,
    rounds: setup.rounds ?? 2,
    timeout: setup.timeout,
    delays: setup.delays ?? defaultDelays,
    title: `${setup.name} (${describeSpec(setup.spec)})`,
    reached: {},
  };
}

/** The cluster of one seeded run of the setup's algorithm. */
export function clusterOptions<Req>(
  setup: CSComplianceSetup<Req>,
  seed: number,
  delay: DelayModel,
): ClusterOptions<Req> {
  return {
    factory: setup.factory,
    spec: setup.spec,
    initial: setup.initial,
    initialRequests: setup.initialRequests,
    seed,
    delay,
  };
}

/** The workload of one seeded run (the setup's rounds, think, hold and request, then `extra`). */
export function workloadOptions<Req>(
  setup: CSComplianceSetup<Req>,
  extra: Partial<WorkloadOptions<Req>> = {},
): WorkloadOptions<Req> {
  return {
    rounds: setup.rounds ?? 2,
    think: setup.think,
    hold: setup.hold,
    request: setup.request,
    ...extra,
  };
}

/** `entry()` on P`i` with a request drawn as the workload would (the monitor is told it). */
export function enterArgs<Req>(
  setup: CSComplianceSetup<Req>,
  cluster: SimCluster<Req>,
  i: ProcessId,
): Promise<void> {
  const cs = cluster.objects[i] as CSObject<unknown>;
  const req = setup.request?.(cluster.net.rng(`csmic/${i}`), i, 0);
  cluster.monitor.setRequest(i, req);
  return cs.takesRequest
    ? (cs.entry as (r: unknown) => Promise<void>)(req)
    : (cs.entry as () => Promise<void>)();
}

/** Resolves if `p` rejects with a `CSMICError`; otherwise throws naming `what`. */
export async function expectCSMIC(what: string, p: Promise<void>): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof Error) || (err as { code?: string }).code !== 'CSMIC') {
    throw new Error(`${what}: expected a CSMICError, got ${err === null ? 'success' : String(err)}`);
  }
}

/** Throws `Error(message)` unless `cond` holds (the suite does not depend on a runner's `expect`). */
export function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(message);
}
