/**
 * Workloads of cluster members: what a member does with its CS object. The default runs
 * `rounds` plain rounds; a configuration can name a module of its own (`workload.module`)
 * exporting `runWorkload(ctx)`. Either way every call goes through `ctx.entry` / `ctx.exit`,
 * which append the shared-log records the safety check needs.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ConfigurationError,
  type CSCallOptions,
  type CSObject,
  type CSState,
  type Endpoint,
  type ProcessId,
} from '@critsec/core';
import type { TcpTransport } from '@critsec/transport-tcp';
import type { LoadedClusterConfig } from './config-cluster.js';

/**
 * A channel of the transport (`__workload`) for a workload's own messages between members (a
 * coordinator's, say): reliable and FIFO per pair like the CS object's channel. Messages that
 * arrive before the workload subscribes are held and handed to its first handler, so a member
 * that starts its workload late misses nothing.
 */
export type ClusterWorkloadChannel = Pick<Endpoint, 'self' | 'peers' | 'send' | 'onMessage'>;

/** What a workload gets. */
export interface ClusterWorkloadContext {
  /** This member's process id. */
  readonly id: ProcessId;
  /** Number of processes in the cluster. */
  readonly n: number;
  /** The member's CS object (use `ctx.entry`/`ctx.exit` so the calls are logged). */
  readonly cs: CSObject<unknown>;
  /** The cluster's initial configuration. */
  readonly initial: readonly CSState[];
  /** `workload` of the configuration (`rounds`, `holdMs`, `thinkMs`, `request`, `settings`, …). */
  readonly workload: {
    /** CS entries per process. */
    readonly rounds: number;
    /** Time spent InCS per round, in ms. */
    readonly holdMs?: number | undefined;
    /** Time spent OutCS between rounds, in ms. */
    readonly thinkMs?: number | undefined;
    /** The request passed to `entry(req)` for objects that take one. */
    readonly request?: unknown;
    /** Settings for a workload module of your own (any JSON). */
    readonly settings?: unknown;
  };
  /**
   * `cs.entry(…)` between `entry-called` and `entry-done` records (`opts.request`, else the
   * configured `request`, is passed to objects that take one, and logged with `entry-called`). An abort is logged as `entry-aborted` and rethrown.
   * `counted: false` keeps the call out of the report (its rounds and waiting times) and marks
   * its progress event `counted: false`. Resolves to the waiting time, in ms (from just after
   * `entry-called` to just before `entry-done`).
   */
  entry(round: number, opts?: CSCallOptions & { counted?: boolean; request?: unknown }): Promise<number>;
  /**
   * `cs.exit(…)` between `exit-called` and `exit-done`; an abort is logged as `exit-aborted` and
   * rethrown. `counted: false` marks its progress event `counted: false`. Resolves to the
   * waiting time, in ms.
   */
  exit(round: number, opts?: CSCallOptions & { counted?: boolean }): Promise<number>;
  /**
   * The member's root endpoint (its TCP transport's), for a workload that runs protocol instances
   * of its own on channels of it — a `@critsec/locks` manager, as `critsec chaos locks` does;
   * `undefined` for a durable member (`durability`), whose channels go through its durable layer:
   * what a workload built beside it would not be persisted.
   */
  readonly root: TcpTransport['endpoint'] | undefined;
  /**
   * Reports a step the workload made by its own means — a named lock granted (`entry-done`), or
   * about to be released (`exit-done`) — to the launcher as the progress event `ctx.entry` /
   * `ctx.exit` send (what a chaos run counts entries and finds holders by). It writes no
   * shared-log record and counts nothing in the member's report; `counted: false` marks the event
   * as `ctx.entry`'s option does.
   */
  progress(event: 'entry-done' | 'exit-done', round: number, opts?: { readonly counted?: boolean }): void;
  /** The workload's own channel between members (see {@link ClusterWorkloadChannel}). */
  readonly control: ClusterWorkloadChannel;
  /**
   * Declares this member's counted work finished (logs `done`, tells every member) and returns
   * the promise that resolves once *every* member has declared it. Idempotent. A workload whose
   * finished member could block the others (e.g. mutual inclusion) keeps cycling until then.
   */
  finish(): Promise<void>;
  /** Resolves once every member has called `finish()`. */
  readonly allFinished: Promise<void>;
  /**
   * A start barrier: tells every member this one is ready to start and resolves once every
   * member has said so (so a contended measurement does not begin with launch skew). Idempotent.
   * @throws TransportError when not every member arrives within `readyTimeoutMs`.
   */
  startTogether(): Promise<void>;
}

/** A workload module's export: runs the work and returns the number of counted rounds. */
export type ClusterWorkload = (ctx: ClusterWorkloadContext) => Promise<number>;

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * The default workload: `rounds` rounds of entry, `holdMs` InCS, exit, `thinkMs` OutCS (a
 * member initially InCS does exit first, then entry). A finished member stays in its final state
 * (OutCS if it started OutCS, InCS otherwise), which never blocks the others when the final
 * states form the (safe) initial configuration — true for mutual exclusion from all-OutCS and
 * mutual inclusion from all-InCS; workloads for other cases cycle until `allFinished`.
 */
export const roundsWorkload: ClusterWorkload = async (ctx) => {
  const { rounds, holdMs = 0, thinkMs = 0 } = ctx.workload;
  for (let r = 1; r <= rounds; r++) {
    if (ctx.cs.state === 'OutCS') {
      await ctx.entry(r);
      await sleep(holdMs);
      await ctx.exit(r);
      await sleep(thinkMs);
    } else {
      await ctx.exit(r);
      await sleep(thinkMs);
      await ctx.entry(r);
      await sleep(holdMs);
    }
  }
  await ctx.finish();
  return rounds;
};

async function loadWorkload(spec: string): Promise<ClusterWorkload> {
  const specifier = isAbsolute(spec) ? pathToFileURL(spec).href : spec;
  let mod: { runWorkload?: unknown };
  try {
    mod = (await import(specifier)) as { runWorkload?: unknown };
  } catch (err) {
    throw new ConfigurationError(`cannot load workload module ${specifier}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (typeof mod.runWorkload !== 'function') {
    throw new ConfigurationError(`workload module ${specifier} does not export runWorkload(ctx)`);
  }
  return mod.runWorkload as ClusterWorkload;
}

/**
 * The workload a configuration names: its `workload.module` (a path relative to the configuration,
 * or a package specifier, exporting `runWorkload(ctx)`), else {@link roundsWorkload}.
 * @throws ConfigurationError when the module cannot be imported or exports no `runWorkload`.
 */
export async function configuredWorkload(loaded: LoadedClusterConfig): Promise<ClusterWorkload> {
  const spec = loaded.config.workload.module;
  if (spec === undefined) return roundsWorkload;
  return loadWorkload(spec.startsWith('.') ? loaded.resolve(spec) : spec);
}
