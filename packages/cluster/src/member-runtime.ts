/**
 * One member of a cluster of OS processes (issue #6): reads the cluster configuration, starts
 * the TCP transport, builds the configured CS object on channel `cs`, runs the workload while
 * appending `entry-called / entry-done / exit-called / exit-done` to the shared log, then waits
 * until every process has finished its rounds (`DONE` and `BYE` barriers on channel `__cluster`, so no
 * process leaves while others may still need it) and reports.
 */
import {
  ConfigurationError,
  type CSObject,
  type Endpoint,
  isAbortError,
  monotonicClock,
  type ProcessId,
} from '@critsec/core';
import { type TcpLogger, type TcpTransport, tcpTransport } from '@critsec/transport-tcp';
import { type ClusterAlgorithmRegistry, loadClusterAlgorithm } from './algorithm-loader.js';
import { type LoadedClusterConfig, loadClusterConfig } from './config-cluster.js';
import { transportOptionsFor } from './config-transport.js';
import { type Barrier, barrier, heldChannel } from './member-channels.js';
import { barrierStates, type DurableMember, durableMember, openDurable } from './member-durable-run.js';
import {
  callWithDeadline,
  withinDeadline,
  type NodeDeadlines,
  NodeWatch,
  nodeDeadlines,
  withDeadline,
} from './member-deadlines.js';
import {
  MemberMetrics,
  type MemberMetricsOptions,
  type MetricsServer,
  serveMetrics,
} from './member-metrics.js';
import { type ClusterNodeReport, memberReport } from './member-report.js';
import { SharedLogWriter } from './shared-log.js';
import {
  type ClusterWorkload,
  type ClusterWorkloadChannel,
  type ClusterWorkloadContext,
  configuredWorkload,
} from './member-workload-contract.js';

/**
 * Progress of a running node (sent to the launcher): `ready` (every peer connected), each CS call
 * done, `rounds-done` (its counted rounds), and, once ready, `peer-down` / `peer-up` when a
 * connection with `peer` is lost (`detail`: why) and re-established (`detail`: `resumed`, …).
 */
export interface ClusterNodeProgress {
  /** The member's process id. */
  readonly id: ProcessId;
  /** What happened (see above). */
  readonly event: 'ready' | 'entry-done' | 'exit-done' | 'rounds-done' | 'peer-down' | 'peer-up';
  /** The round (1-based) for CS events. */
  readonly round?: number;
  /** `false` for a call the workload made with `counted: false` (absent otherwise). */
  readonly counted?: false;
  /** The peer of `peer-down` / `peer-up`. */
  readonly peer?: ProcessId;
  /** Why the peer went down, or how it came back. */
  readonly detail?: string;
}

export type { ClusterNodeReport } from './member-report.js';

/** Options of {@link runClusterNode}. */
export interface RunClusterNodeOptions {
  /** Path of `cluster.json`. */
  readonly configPath: string;
  /** This process's id. */
  readonly id: ProcessId;
  /** Called at each step of the member's run (ready, round finished, …). */
  readonly onProgress?: (p: ClusterNodeProgress) => void;
  /** Transport warnings (default `console`). */
  readonly logger?: TcpLogger | null;
  /**
   * Algorithms by name: a configuration's `algorithm` found here is used as it is; any other is
   * imported as a module path (relative to the configuration file when it starts with `.`) or
   * package specifier (see `loadClusterAlgorithm`). Default: none.
   */
  readonly algorithms?: ClusterAlgorithmRegistry;
  /**
   * The workload to run, in place of the configuration's `workload.module` (default: that
   * module, else {@link roundsWorkload}) — for a member program that brings its own.
   */
  readonly workload?: ClusterWorkload;
  /**
   * Restart the member from its store (`--recover`; the configuration must have `durability`):
   * its sessions resume, its CS object is rebuilt from the committed state and `recover()`
   * withdraws the call the killed incarnation had in flight (or leaves its CS). Default false: a
   * first start, which refuses a store that exists.
   */
  readonly recover?: boolean;
  /**
   * Serve the member's metrics (`critsec node --metrics`; member-metrics.ts) at
   * `http://host:port/metrics` while it runs; `onListening` gets the URL once bound.
   */
  readonly metrics?: MemberMetricsOptions;
}

/** A started member: its configuration, transport, shared-log writer, CS object and errors. */
interface Member {
  readonly loaded: LoadedClusterConfig;
  readonly id: ProcessId;
  readonly transport: TcpTransport;
  readonly log: SharedLogWriter;
  readonly cs: CSObject<unknown>;
  /** The endpoint every channel is built on (the durable layer's, with `durability`). */
  readonly root: Endpoint;
  /** With `durability`: the durable layer and, with `--recover`, what the store held. */
  readonly durable: DurableMember | undefined;
  readonly deadlines: NodeDeadlines;
  /** Errors reported by the transport or the CS object (first 20). */
  readonly errors: string[];
  readonly noteError: (e: Error) => void;
  /** With `metrics`: the member's registry and series. */
  readonly metrics: MemberMetrics | undefined;
}

/**
 * The shared-log writer of member `id` (incarnation `session`).
 * @throws ConfigurationError naming `log` and the file when it cannot be opened for appending.
 */
function openLog(loaded: LoadedClusterConfig, id: ProcessId, session: string): SharedLogWriter {
  const file = loaded.resolve(loaded.config.log);
  try {
    return new SharedLogWriter(file, { process: id, incarnation: session });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file or directory' : e.message;
    throw new ConfigurationError(
      `cluster config ${loaded.path}: log: cannot open ${file} for appending (${why})`,
      { cause: err },
    );
  }
}

/** Reads the configuration, makes the transport and the shared-log writer, logs `start`, and builds the CS object on channel `cs`. */
async function createMember(options: RunClusterNodeOptions): Promise<Member> {
  const loaded = loadClusterConfig(options.configPath);
  const { config, initial } = loaded;
  const { id } = options;
  const opened = await openDurable(loaded, id, options.recover === true);
  const restored = opened?.recovered?.transport;
  let transport: TcpTransport;
  try {
    transport = tcpTransport({
      ...transportOptionsFor(loaded, id),
      ...(restored === undefined ? {} : { state: restored }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  } catch (err) {
    await opened?.store.close(); // a restored state refused: the store stays as it was
    throw err;
  }
  const durable = opened === undefined ? undefined : durableMember(id, opened, transport, config.algorithm);
  const root = durable?.layer.endpoint(transport.endpoint) ?? transport.endpoint;
  const log = openLog(loaded, id, transport.session);
  const errors: string[] = [];
  const noteError = (e: Error) => {
    if (errors.length < 20) errors.push(e.message);
  };
  transport.on('error', noteError);
  log.append(options.recover === true ? 'recovering' : 'start');
  try {
    const registry = options.algorithms ?? {};
    const named = config.algorithm;
    const algorithm =
      named.startsWith('.') && !Object.hasOwn(registry, named) ? loaded.resolve(named) : named;
    const mod = await loadClusterAlgorithm(algorithm, registry);
    const factory = mod.createFactory(config.params, { n: config.n, initial });
    const recovered = durable?.recovered?.cs;
    const metrics = options.metrics === undefined ? undefined : new MemberMetrics(id);
    metrics?.peers(config.n, id, transport.endpoint.suspicions);
    const cs = factory({
      id,
      n: config.n,
      endpoint: metrics?.endpoint(root.channel('cs')) ?? root.channel('cs'),
      initial,
      // the transport's failure detector (issue 28 §4): a hint, e.g. for quorum reselection
      suspicions: transport.endpoint.suspicions,
      ...(recovered === undefined ? {} : { recovered }),
      clock: monotonicClock(), // issue 28: performance.now() + setTimeout, never the wall clock
    }) as CSObject<unknown>;
    cs.on('error', noteError);
    return {
      loaded,
      id,
      transport,
      log,
      cs,
      root,
      durable,
      deadlines: nodeDeadlines(config),
      errors,
      noteError,
      metrics,
    };
  } catch (err) {
    await transport.close();
    await durable?.layer.close();
    log.close();
    throw err;
  }
}

/** `ctx.entry`: `cs.entry(…)` between `entry-called` and `entry-done` (see {@link ClusterWorkloadContext.entry}). */
function loggedEntry(
  m: Member,
  options: RunClusterNodeOptions,
  waits: number[],
): ClusterWorkloadContext['entry'] {
  const { cs, log, id } = m;
  const takesRequest = cs.takesRequest;
  return async (round, opts = {}) => {
    const { counted = true, request = m.loaded.config.workload.request, ...callOpts } = opts;
    const entryArgs = takesRequest ? [request] : [];
    log.append('entry-called', round, takesRequest ? request : undefined);
    const s = performance.now();
    await callWithDeadline(m.deadlines.call, callOpts.signal, `P${id}: entry() of round ${round}`, (signal) =>
      (cs.entry as (...a: unknown[]) => Promise<void>)(...entryArgs, { ...callOpts, signal }).catch(
        (err: unknown) => {
          if (isAbortError(err)) log.append('entry-aborted', round);
          throw err;
        },
      ),
    );
    const waited = performance.now() - s;
    if (counted) waits.push(waited);
    m.metrics?.called('entry');
    log.append('entry-done', round);
    options.onProgress?.({ id, event: 'entry-done', round, ...(counted ? {} : { counted: false }) });
    return waited;
  };
}

/** `ctx.exit`: `cs.exit(…)` between `exit-called` and `exit-done` (see {@link ClusterWorkloadContext.exit}). */
function loggedExit(m: Member, options: RunClusterNodeOptions): ClusterWorkloadContext['exit'] {
  const { cs, log, id } = m;
  return async (round, opts = {}) => {
    const { counted = true, ...callOpts } = opts;
    log.append('exit-called', round);
    const s = performance.now();
    await callWithDeadline(m.deadlines.call, callOpts.signal, `P${id}: exit() of round ${round}`, (signal) =>
      cs.exit({ ...callOpts, signal }).catch((err: unknown) => {
        if (isAbortError(err)) log.append('exit-aborted', round);
        throw err;
      }),
    );
    const waited = performance.now() - s;
    m.metrics?.called('exit');
    log.append('exit-done', round);
    options.onProgress?.({ id, event: 'exit-done', round, ...(counted ? {} : { counted: false }) });
    return waited;
  };
}

/** What the workload gets: logged calls, the workload channel, and `finish` on the DONE barrier. */
function workloadContext(
  m: Member,
  options: RunClusterNodeOptions,
  { start, done }: { start: Barrier; done: Barrier },
  control: ClusterWorkloadChannel,
  waits: number[],
  watch: NodeWatch,
): ClusterWorkloadContext {
  const { config, initial } = m.loaded;
  let finishCalled = false;
  return {
    id: m.id,
    n: config.n,
    cs: m.cs,
    initial,
    workload: config.workload,
    entry: loggedEntry(m, options, waits),
    exit: loggedExit(m, options),
    root: m.durable === undefined ? m.transport.endpoint : undefined,
    progress: (event, round, { counted = true } = {}) =>
      options.onProgress?.({ id: m.id, event, round, ...(counted ? {} : { counted: false }) }),
    control,
    finish() {
      if (!finishCalled) {
        finishCalled = true;
        m.log.append('done');
        options.onProgress?.({ id: m.id, event: 'rounds-done' });
        watch.finishing();
        done.announce();
      }
      return done.promise;
    },
    allFinished: done.promise,
    startTogether() {
      start.announce();
      const what = `P${m.id}: the start barrier`;
      return withinDeadline(start.promise, m.deadlines.ready, what, 'readyTimeoutMs');
    },
  };
}

/** Closes the CS object, the transport and the log, within the shutdown deadline; errors are noted, not thrown. */
async function closeMember(m: Member): Promise<void> {
  const closing = (async () => {
    await m.cs.close().catch(m.noteError);
    // a durable member commits what it received last, so its peers' final flush gets its acks
    await m.durable?.layer.commitNow().catch(m.noteError);
    // the DONE and BYE barriers were this runtime's graceful leave: leave at once
    await m.transport.close({ lingerMs: 0 });
    await m.durable?.layer.close();
  })();
  await withDeadline(closing, m.deadlines.shutdown, `P${m.id}: closing the connections`, 'shutdownTimeoutMs')
    .catch(m.noteError)
    .finally(() => m.log.close());
}

/**
 * The member's run once its transport is ready: the workload (raced against the watch's peer and
 * finish deadlines), the DONE and BYE barriers, the final flush; returns the report.
 */
async function runMember(
  m: Member,
  options: RunClusterNodeOptions,
  workload: ClusterWorkload,
  channels: { start: Barrier; done: Barrier; bye: Barrier; workload: ClusterWorkloadChannel },
  watch: NodeWatch,
): Promise<ClusterNodeReport> {
  const waits: number[] = [];
  const ctx = workloadContext(m, options, channels, channels.workload, waits, watch);
  const t0 = performance.now();
  // a durable member restarted after its counted work announced DONE only waits for the others
  if (!channels.done.snapshot().announced) await watch.race(workload(ctx));
  const durationMs = performance.now() - t0;
  await watch.race(ctx.finish());
  channels.bye.announce();
  await watch.race(channels.bye.promise);
  watch.stop(); // from here on, peers leaving is the end of the run
  await m.transport.flush({ timeoutMs: m.deadlines.shutdown }).catch(m.noteError);
  return memberReport(m.transport, m.errors, waits, durationMs);
}

/**
 * Runs process `id` of the cluster described by `configPath` to completion and returns its
 * report. The CS object is created before the transport starts, so no message to it is lost.
 * This is the member program's core: this package's member main (`member-main`, `--member
 * modules`) calls it with module paths only; a member program of your own
 * (`launchCluster({ entry })`) can pass `algorithms`, a registry of the algorithms it knows by
 * name, and a `workload` of its own (as `runNode` does).
 *
 * Every wait has a deadline (the configuration's `readyTimeoutMs`, `callTimeoutMs`,
 * `peerDownTimeoutMs`, `finishTimeoutMs`, `shutdownTimeoutMs`; see `NodeDeadlines`); when one
 * expires, or anything else fails, the CS object, the transport and the log are closed before the
 * error is rethrown, so the process holds no socket or timer and can exit.
 *
 * @throws ConfigurationError for a bad configuration or algorithm (certificate files included);
 *   TransportError when the peers cannot be reached within `readyTimeoutMs` or another deadline
 *   expires (the message names the wait and its configuration key).
 */
export async function runClusterNode(options: RunClusterNodeOptions): Promise<ClusterNodeReport> {
  const m = await createMember(options);
  const { transport, loaded } = m;
  const { config } = loaded;
  // Barriers on the control channel: START (the workload's own, `ctx.startTogether()`), DONE
  // (every member finished its counted work) and BYE (every workload returned).
  const control = m.root.channel('__cluster');
  const was = barrierStates(m.durable?.recovered?.member);
  const start = barrier(transport, control, config.n, 'START', was.START);
  const done = barrier(transport, control, config.n, 'DONE', was.DONE);
  const bye = barrier(transport, control, config.n, 'BYE', was.BYE);
  // The workload's own channel exists before the transport starts: nothing sent to it is lost.
  const workloadChannel = heldChannel(m.root.channel('__workload'));
  let watch: NodeWatch | undefined;
  let served: MetricsServer | undefined;
  try {
    if (m.metrics !== undefined && options.metrics !== undefined) {
      served = await serveMetrics(m.metrics.registry, options.metrics);
      options.metrics.onListening?.(served.url);
    }
    const workload = options.workload ?? (await configuredWorkload(loaded));
    await m.durable?.begin(m.cs, () => ({
      START: start.snapshot(),
      DONE: done.snapshot(),
      BYE: bye.snapshot(),
    }));
    await transport.start();
    await transport.ready({ timeoutMs: m.deadlines.ready });
    options.onProgress?.({ id: m.id, event: 'ready' });
    watch = new NodeWatch(transport, m.deadlines, (c) => options.onProgress?.({ id: m.id, ...c }));
    if (m.durable !== undefined) await m.durable.recover(watch);
    if (options.recover === true) m.log.append('recovered', undefined, undefined, m.cs.state);
    return await runMember(m, options, workload, { start, done, bye, workload: workloadChannel }, watch);
  } finally {
    watch?.stop();
    m.metrics?.close();
    await served?.close();
    await closeMember(m);
  }
}
