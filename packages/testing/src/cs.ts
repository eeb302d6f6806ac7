/**
 * `@critsec/testing/cs` — the CS compliance suite (DESIGN.md 4), the libp2p / Keyv way: an
 * algorithm package calls {@link csCompliance} with its factory and the test runner's `it`, and
 * gets the whole battery — CSMIC errors, safety and liveness over many seeded schedules across
 * delay models, the sequential (uncontended) workload, determinism, abort, close, and coverage
 * of rare paths. Every failure names the seed and writes a replayable trace.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { mutexSpec } from '@critsec/core';
 * import { csCompliance } from '@critsec/testing/cs';
 * import { maekawa } from '../src/index.js';
 *
 * describe('maekawa on a 3×3 grid', () => {
 *   csCompliance({ it, name: 'maekawa-grid-9', factory: maekawa({ coterie: grid(9) }), spec: mutexSpec(9) });
 * });
 * ```
 *
 * @packageDocumentation
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CSFactory,
  type CSObject,
  type CSState,
  collectReached,
  describeSpec,
  isAbortError,
  type ProblemSpec,
  type ProcessId,
  type ReachCollector,
} from '@critsec/core';
import {
  type DelayModel,
  exponentialDelay,
  formatDelay,
  type Rng,
  uniformDelay,
  unitDelay,
} from '@critsec/transport-sim';
import { type ClusterOptions, createCluster, type SimCluster } from './cluster.js';
import { runWorkload, type WorkloadOptions, type WorkloadResult, WorkloadFailure } from './workload.js';

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
  readonly hold?: number;
  /** Abort test: `false` to skip for algorithms that document they cannot abort; seeds default 200. */
  readonly abort?:
    | false
    | { readonly seeds?: number; readonly probability?: number; readonly within?: number };
  /** Rare paths (`reach` labels) that must each be taken at least once across the safety seeds. */
  readonly coverage?: readonly string[];
  /** Timeout of each registered test, in milliseconds (default 300,000). */
  readonly timeout?: number;
  /** Directory for failure traces (default `.traces` under the working directory). */
  readonly traceDir?: string;
}

/** Delay models the suite uses by default. */
export const defaultDelays: readonly DelayModel[] = [unitDelay, uniformDelay(0.1, 2), exponentialDelay(1)];

function slug(s: string): string {
  return s.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
}

function clusterOptions<Req>(
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

function workloadOptions<Req>(
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

/**
 * Runs one seed; on failure re-runs it with a trace, writes the trace to the trace directory and
 * throws a {@link WorkloadFailure} naming the seed, the delay model and the trace path.
 */
export async function runSeed<Req>(
  setup: CSComplianceSetup<Req>,
  seed: number,
  delay: DelayModel,
  extra: Partial<WorkloadOptions<Req>> = {},
): Promise<WorkloadResult> {
  const cluster = createCluster(clusterOptions(setup, seed, delay));
  const result = await runWorkload(cluster, workloadOptions(setup, extra));
  const dropped = cluster.errors.length;
  if (result.ok && dropped === 0) return result;
  const replay = createCluster({ ...clusterOptions(setup, seed, delay), trace: true });
  await runWorkload(replay, workloadOptions(setup, extra));
  const dir = setup.traceDir ?? join(process.cwd(), '.traces');
  const file = join(dir, `${slug(setup.name)}-${slug(formatDelay(delay))}-seed${seed}.jsonl`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${replay.net.trace.join('\n')}\n`);
  } catch {
    /* the failure below is what matters */
  }
  const label = `${setup.name} [${describeSpec(setup.spec)}, delay ${formatDelay(delay)}]`;
  if (!result.ok) {
    const err = new WorkloadFailure(label, result);
    err.message += ` — trace: ${file}`;
    throw err;
  }
  throw new Error(
    `${label}: seed ${seed}: ${dropped} error event(s), first: ${cluster.errors[0]!.error.message} — trace: ${file}`,
  );
}

function enterArgs<Req>(
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

async function expectCSMIC(what: string, p: Promise<void>): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof Error) || (err as { code?: string }).code !== 'CSMIC') {
    throw new Error(`${what}: expected a CSMICError, got ${err === null ? 'success' : String(err)}`);
  }
}

function assert(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

/**
 * Registers the compliance tests for one algorithm configuration (see the module comment).
 * Each test is independent and deterministic; failures name the seed and write a trace.
 */
export function csCompliance<Req = void>(setup: CSComplianceSetup<Req>): void {
  const { it } = setup;
  const seeds = setup.seeds ?? 1000;
  const first = setup.firstSeed ?? 1;
  const timeout = setup.timeout ?? 300_000;
  const delays = setup.delays ?? defaultDelays;
  const title = `${setup.name} (${describeSpec(setup.spec)})`;
  let collector: ReachCollector | undefined;

  it(
    `${title}: CSMIC violations reject with CSMICError and send nothing`,
    async () => {
      const cluster = createCluster(clusterOptions(setup, first, unitDelay));
      const net = cluster.net;
      const outs = cluster.initial.flatMap((s, i) => (s === 'OutCS' ? [i] : []));
      const ins = cluster.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
      if (outs.length > 0) {
        const i = outs[0]!;
        const before = net.counters().sent;
        await expectCSMIC(`exit() on P${i} while OutCS`, cluster.objects[i]!.exit());
        await net.settle();
        assert(net.counters().sent === before, `exit() on P${i} while OutCS sent messages`);
      }
      if (ins.length > 0) {
        const i = ins[0]!;
        const before = net.counters().sent;
        await expectCSMIC(`entry() on P${i} while InCS`, enterArgs(setup, cluster, i));
        await net.settle();
        assert(net.counters().sent === before, `entry() on P${i} while InCS sent messages`);
      }
      // a second call while one is in flight
      const i = outs[0] ?? ins[0]!;
      const cs = cluster.objects[i]!;
      // the first call is in flight from its invocation on, even for an algorithm whose call can
      // complete without waiting for a message (n = 1): the second calls are made in the same tick
      const firstCall = cs.state === 'OutCS' ? enterArgs(setup, cluster, i) : cs.exit();
      firstCall.catch(() => {});
      const before = net.counters().sent;
      const secondEntry = enterArgs(setup, cluster, i);
      const secondExit = cs.exit();
      assert(net.counters().sent === before, `a rejected call on P${i} sent messages`);
      await expectCSMIC(`entry() on P${i} while a call is in flight`, secondEntry);
      await expectCSMIC(`exit() on P${i} while a call is in flight`, secondExit);
      await cluster.close();
    },
    timeout,
  );

  delays.forEach((delay, d) => {
    it(
      `${title}: safety and liveness over ${seeds} seeds, delay ${formatDelay(delay)}`,
      async () => {
        collector ??= collectReached();
        for (let s = 0; s < seeds; s++) {
          await runSeed(setup, first + d * 1_000_003 + s, delay, { think: setup.think, hold: setup.hold });
        }
      },
      timeout,
    );
  });

  it(
    `${title}: sequential (uncontended) workload completes every invocation alone`,
    async () => {
      const runs = Math.max(1, Math.min(20, Math.ceil(seeds / 50)));
      for (let s = 0; s < runs; s++) {
        const seq = setup.sequentialSpec === undefined ? setup : { ...setup, spec: setup.sequentialSpec };
        const r = await runSeed(seq, first + s, unitDelay, { kind: 'sequential' });
        assert(
          r.entries === r.exits && r.entries === setup.spec.n * (setup.rounds ?? 2),
          `seed ${first + s}: wrong count`,
        );
      }
    },
    timeout,
  );

  it(
    `${title}: determinism — the same seed gives the same trace`,
    async () => {
      for (const delay of delays) {
        const traces: string[] = [];
        for (let k = 0; k < 2; k++) {
          const cluster = createCluster({ ...clusterOptions(setup, first + 7, delay), trace: true });
          await runWorkload(cluster, workloadOptions(setup));
          traces.push(cluster.net.trace.join('\n'));
        }
        assert(traces[0]!.length > 0, 'empty trace');
        assert(traces[0] === traces[1], `seed ${first + 7}, delay ${formatDelay(delay)}: two runs differ`);
      }
    },
    timeout,
  );

  if (setup.abort !== false) {
    const abort = setup.abort ?? {};
    it(
      `${title}: aborted entries leave the cluster safe and live`,
      async () => {
        const runs = abort.seeds ?? Math.min(200, seeds);
        let aborted = 0;
        let waited = false;
        for (let s = 0; s < runs; s++) {
          const delay = delays[s % delays.length]!;
          const r = await runSeed(setup, first + 500_000 + s, delay, {
            abort: { probability: abort.probability ?? 0.3, within: abort.within ?? 3 },
          });
          aborted += r.aborted;
          waited ||= r.waiting.entry.max > 0 || r.aborted > 0;
        }
        // an algorithm whose entries never wait (e.g. n = 1) has nothing to abort
        assert(
          !waited || aborted > 0,
          `no entry was actually aborted in ${runs} runs: the test did not exercise abort`,
        );
      },
      timeout,
    );
  }

  it(
    `${title}: close() settles calls in flight; later calls reject; nothing is sent after`,
    async () => {
      const cluster = createCluster(clusterOptions(setup, first + 11, unitDelay));
      const net = cluster.net;
      const calls: Promise<unknown>[] = [];
      cluster.objects.forEach((cs, i) => {
        const p = cs.state === 'OutCS' ? enterArgs(setup, cluster, i) : Promise.resolve();
        calls.push(
          p.then(
            () => 'resolved',
            (e: unknown) => (isAbortError(e) || e instanceof Error ? 'rejected' : 'odd'),
          ),
        );
      });
      await net.run({ maxEvents: Math.max(1, cluster.n) });
      await Promise.all(cluster.objects.map((cs) => cs.close()));
      const sentAtClose = net.counters().sent;
      await net.run();
      let settled = 0;
      for (const c of calls) void c.then(() => settled++);
      await net.settle();
      assert(settled === calls.length, `${calls.length - settled} call(s) still pending after close()`);
      assert(net.counters().sent === sentAtClose, 'messages were sent after close()');
      await expectCSMIC('entry() after close()', enterArgs(setup, cluster, 0));
      await cluster.objects[0]!.close();
    },
    timeout,
  );

  if (setup.coverage !== undefined && setup.coverage.length > 0) {
    const expected = setup.coverage;
    it(
      `${title}: every rare path was taken across the seed set (${expected.join(', ')})`,
      async () => {
        const c = collector;
        c?.stop();
        assert(c !== undefined, 'the safety tests did not run before the coverage check');
        const missing = c.missing(expected);
        assert(missing.length === 0, `never reached: ${missing.join(', ')}`);
      },
      timeout,
    );
  }
}

export { runWorkload, WorkloadFailure } from './workload.js';
