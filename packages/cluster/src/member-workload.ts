/*
 * The workload of a `critsec` cluster member (`critsec node`, and the members `critsec cluster`
 * spawns), as a workload of `runClusterNode`: every call goes through `ctx.entry` / `ctx.exit`,
 * which append the shared-log records of the launcher's safety check. The loop is the workload
 * engine of @critsec/testing on the wall clock (ms), the message counts its `MessageAttribution`.
 *
 * `concurrent` (the default): the concurrent workload of `critsec simulate` in wall-clock time —
 * `rounds` counted rounds of entry and exit (from the member's initial state) with think (OutCS)
 * and hold (InCS) times drawn uniformly from [0, 2·mean] ms, seeded. A member that has finished
 * its rounds keeps cycling, uncounted, until every member has (`ctx.allFinished`), so that it
 * never blocks the others by staying InCS (mutual exclusion) or OutCS (mutual inclusion); then it
 * withdraws its uncounted call in flight through the abort signal.
 *
 * `sequential`: member 0 coordinates over `ctx.control` (member-sequential.ts): one call in flight
 * in the whole cluster, each chosen among the moves the problem allows from the current state
 * (and requests), the network quiescent before the next — the papers' uncontended setting, over
 * TCP. It needs the message counts of `instrument`.
 */
import {
  ConfigurationError,
  type CSFactory,
  isAbortError,
  type ProblemSpec,
  type ProcessId,
} from '@critsec/core';
import {
  type InvocationRecord,
  MessageAttribution,
  objectProcess,
  WorkloadEngine,
  wallClock,
} from '@critsec/harness';
import type { Rng } from '@critsec/transport-sim';
import { memberRng, runSequentialMember } from './member-sequential.js';
import type { RequestDraw } from '@critsec/core';
import type { ClusterWorkload, ClusterWorkloadContext } from './member-workload-contract.js';

/** What `critsec` adds to a member's report (`ClusterNodeReport` of `runClusterNode`). */
export interface NodeMeasurements {
  /** Counted entries / exits completed. */
  readonly entries: number;
  /** Counted exits completed. */
  readonly exits: number;
  /** Wall-clock waiting times of counted calls, ms. */
  readonly entryWaitsMs: readonly number[];
  /** Wall-clock waiting times of counted exits, ms. */
  readonly exitWaitsMs: readonly number[];
  /** Messages this member's CS object sent (self-messages included) and received. */
  readonly sent: number;
  /** Messages this member's CS object received. */
  readonly delivered: number;
  /** Sent per `channel TYPE`. */
  readonly byType: Readonly<Record<string, number>>;
  /** Sent per invocation key `"<process>:<round>:<entry|exit>"` (counted calls of any member). */
  readonly byInvocation: Readonly<Record<string, number>>;
  /** Uncounted calls made after this member's rounds, and whether the last was withdrawn. */
  readonly extraCalls: number;
  /** Whether the last uncounted call was withdrawn (aborted) when every member had finished. */
  readonly withdrawn: boolean;
}

/** Settings of {@link memberWorkload}. */
export interface MemberWorkloadOptions {
  /** Seed of the think and hold times and of the sequential coordinator's choices (default 1). */
  readonly seed?: number;
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  readonly workload?: 'concurrent' | 'sequential';
  /** The problem the sequential coordinator keeps to (default: any move). */
  readonly spec?: ProblemSpec;
  /**
   * Draws each entry's request (h units, a group) from the member's seeded generator, for
   * objects that take one (default: the configuration's fixed `workload.request`). The
   * sequential coordinator draws them for every member and sends them with its `INVOKE`.
   */
  readonly request?: RequestDraw;
}

/** One member's workload and its measurements. */
export interface MemberWorkload {
  /** The workload to hand to `runClusterNode` (runs once). */
  readonly run: ClusterWorkload;
  /**
   * Wraps the CS object's factory so its messages are counted and attributed to the invocation
   * that caused them (`MessageAttribution` of @critsec/testing); every member of the cluster
   * must do the same.
   */
  instrument<Req>(factory: CSFactory<Req>): CSFactory<Req>;
  /** The measurements so far (final once `run` and the member have finished). */
  measurements(): NodeMeasurements;
}

/** What a member's engine reports back besides its records. */
interface EngineSinks {
  readonly waits: { readonly entry: number[]; readonly exit: number[] };
  /** The first error a call rejected with (not a withdrawal), rethrown by `run`. */
  firstError: unknown;
}

/**
 * The engine of one member: its CS object on the wall clock, each call made through
 * `ctx.entry` / `ctx.exit` inside its attribution key (`"<id>:<round>:<op>"`, none for an
 * uncounted call), the waiting times `ctx` measured kept for counted calls.
 */
function memberEngine(
  ctx: ClusterWorkloadContext,
  options: MemberWorkloadOptions,
  attribution: MessageAttribution,
  sinks: EngineSinks,
): WorkloadEngine {
  const seed = options.seed ?? 1;
  const draw = options.request;
  const call = (rec: InvocationRecord, signal: AbortSignal | undefined): Promise<number> => {
    const round = rec.round + 1;
    const opts = {
      ...(signal === undefined ? {} : { signal }),
      ...(rec.extra ? { counted: false } : {}),
      ...(rec.request === undefined ? {} : { request: rec.request }),
    };
    return rec.op === 'entry' ? ctx.entry(round, opts) : ctx.exit(round, opts);
  };
  const { thinkMs = 2, holdMs = 1 } = ctx.workload;
  return new WorkloadEngine(
    [objectProcess(ctx.cs as never, memberRng(seed, ctx.id), memberRng(seed, ctx.id, true))],
    {
      clock: wallClock(),
      rounds: ctx.workload.rounds,
      think: thinkMs,
      hold: holdMs,
      ...(draw === undefined
        ? {}
        : { request: (rng: Rng, id: ProcessId, round0: number) => draw(rng, id, round0 + 1) }),
      invoke: (rec, signal) =>
        attribution
          .run(rec.extra ? null : `${ctx.id}:${rec.round + 1}:${rec.op}`, () => call(rec, signal))
          .then(
            (waited) => {
              if (!rec.extra) sinks.waits[rec.op].push(waited);
            },
            (err: unknown) => {
              if (!isAbortError(err)) sinks.firstError ??= err;
              throw err;
            },
          ),
      allFinished: ctx.allFinished,
      withdraw: true,
      onProcessFinished: () => void ctx.finish(),
    },
  );
}

/**
 * The workload of one `critsec` member (see the module comment).
 * @throws ConfigurationError (from `run`) for the sequential workload without `instrument`;
 *   `run` rethrows the first error a call rejected with.
 */
export function memberWorkload(options: MemberWorkloadOptions = {}): MemberWorkload {
  const mode = options.workload ?? 'concurrent';
  const attribution = new MessageAttribution();
  const sinks: EngineSinks = { waits: { entry: [], exit: [] }, firstError: undefined };
  let instrumented = false;
  let engine: WorkloadEngine | undefined;

  const run: ClusterWorkload = async (ctx) => {
    if (mode === 'sequential' && !instrumented) {
      throw new ConfigurationError(
        'the sequential workload needs the message counts of the critsec member (critsec node / critsec cluster)',
      );
    }
    const e = memberEngine(ctx, options, attribution, sinks);
    engine = e;
    if (mode === 'sequential') {
      await runSequentialMember({
        ctx,
        engine: e,
        attribution,
        seed: options.seed ?? 1,
        ...pickSequential(options),
      });
    } else {
      await e.runConcurrent();
      if (e.failure !== null) throw sinks.firstError ?? new Error(e.failure);
    }
    await ctx.allFinished;
    return ctx.workload.rounds;
  };

  return {
    run,
    instrument(factory) {
      instrumented = true;
      return (c) => factory({ ...c, endpoint: attribution.endpoint(c.endpoint) });
    },
    measurements: () => ({
      entries: sinks.waits.entry.length,
      exits: sinks.waits.exit.length,
      entryWaitsMs: sinks.waits.entry,
      exitWaitsMs: sinks.waits.exit,
      sent: attribution.sent,
      delivered: attribution.delivered,
      byType: Object.fromEntries(attribution.byType),
      byInvocation: Object.fromEntries(attribution.byKey),
      extraCalls: engine?.extraCalls ?? 0,
      withdrawn: (engine?.withdrawn ?? 0) > 0,
    }),
  };
}

function pickSequential(options: MemberWorkloadOptions): { spec?: ProblemSpec; request?: RequestDraw } {
  return {
    ...(options.spec === undefined ? {} : { spec: options.spec }),
    ...(options.request === undefined ? {} : { request: options.request }),
  };
}
