/**
 * The launcher of a cluster of real OS processes on one machine (issue #6; used by
 * `critsec cluster`): spawns one Node process per member from a cluster configuration, relays
 * their progress, lets a caller kill (e.g. SIGKILL) and restart members, appends `crashed` to
 * the shared log when a member dies (of a signal, or exits without its report or with a code
 * other than 0), gathers the reports, and runs the shared-log safety check at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ConfigurationError, type ProblemSpec, type ProcessId } from '@critsec/core';
import { defaultMemberEntry } from './launcher-entry.js';
import { clusterProblemSpec, type LoadedClusterConfig, loadClusterConfig } from './config-cluster.js';
import type { ClusterNodeProgress, ClusterNodeReport } from './member-runtime.js';
import { appendSharedLogRecord, checkSharedLog, readSharedLog, type SharedLogCheck } from './shared-log.js';

/** Options of {@link launchCluster}. */
export interface LaunchClusterOptions {
  /** Path of `cluster.json` (see `createLocalCluster`). */
  readonly configPath: string;
  /**
   * The member entry script, run as `node <execArgv> <entry> --config <path> --id <id>` (default:
   * this package's one member main, `member-main`, with `--member` {@link member}). A program of
   * your own that calls `runClusterNode({ …, algorithms })` runs algorithms by name from its
   * registry; it reports over IPC as `member-main` does.
   */
  readonly entry?: string;
  /**
   * Which member the default entry runs (ignored with `entry`): `modules` (default) —
   * `runClusterNode`, the configuration's `algorithm` a module path exporting `createFactory` and
   * its `workload.module` (or `roundsWorkload`); `critsec` — `runNode`, the algorithm by descriptor
   * name and `critsec`'s member workload (what `critsec cluster` runs).
   */
  readonly member?: 'modules' | 'critsec';
  /** Node options for members (default: none for built JS; `--conditions=@critsec/source --import tsx` for TS sources). */
  readonly execArgv?: readonly string[];
  /** Abort the run after this long, in ms (default 120 000). */
  readonly timeoutMs?: number;
  /** Extra environment for members. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * A command member `id` runs under (default none): it is spawned as `prefix… node <execArgv>
   * <entry> …`, e.g. `['ip', 'netns', 'exec', 'ns3']` to run it in a network namespace. The
   * command must exec the rest, not fork it, so that {@link ClusterRun.kill}'s signal and the
   * progress channel (IPC) reach the member itself.
   */
  readonly runUnder?: (id: ProcessId) => readonly string[];
  /** Each line a member writes to stdout/stderr. */
  readonly onOutput?: (id: ProcessId, stream: 'stdout' | 'stderr', line: string) => void;
}

/** How a member process ended. */
export interface ClusterExit {
  /** The member's process id. */
  readonly id: ProcessId;
  /** Its exit code, or `null` when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it, or `null` when it exited by itself. */
  readonly signal: NodeJS.Signals | null;
}

/**
 * A member incarnation that died during the run: it ended by a signal, or exited with a code
 * other than 0 or without its report — whether the caller killed it ({@link ClusterRun.kill})
 * or not; the members the launcher itself kills at the end of a run are not deaths. The launcher
 * appended `crashed` to the shared log when it saw the exit.
 */
export interface ClusterDeath extends ClusterExit {
  /** Wall-clock time from the launch to the launcher seeing the exit, ms. */
  readonly afterMs: number;
}

/** The outcome of a cluster run. */
export interface ClusterRunResult {
  /** Every member reported and exited 0, and the shared-log check found nothing. */
  readonly ok: boolean;
  /** Why not, when not ok. */
  readonly reason?: string;
  /** The last report of each member, by id (a restarted member reports once, as its last incarnation). */
  readonly reports: readonly (ClusterNodeReport | undefined)[];
  /** Every member exit, in order (killed incarnations included). */
  readonly exits: readonly ClusterExit[];
  /** The member incarnations that died during the run, in order (each has a `crashed` line in the shared log). */
  readonly deaths: readonly ClusterDeath[];
  /** The shared-log safety check (bounds from the configuration, default mutual exclusion). */
  readonly check: SharedLogCheck;
  /** Unreadable lines in the shared log. */
  readonly logMalformed: number;
  /** Wall-clock duration of the run, ms. */
  readonly durationMs: number;
}

/** A running cluster. */
export interface ClusterRun {
  /** The configuration the members run. */
  readonly config: LoadedClusterConfig;
  /** Resolves when every member finished (or the run failed or timed out). Never rejects. */
  readonly done: Promise<ClusterRunResult>;
  /** Subscribes to members' progress; returns the unsubscribe function. */
  onProgress(fn: (p: ClusterNodeProgress) => void): () => void;
  /**
   * Sends `signal` (default SIGKILL) to member `id`; resolves when it exited (`crashed` is then
   * in the shared log). The run waits for {@link ClusterRun.restart}.
   */
  kill(id: ProcessId, signal?: NodeJS.Signals): Promise<ClusterExit>;
  /**
   * Starts member `id` again (a new incarnation) after it was killed; with the configuration's
   * `durability`, with `--recover` (it resumes from its store; a member program of your own must
   * accept that flag and pass `recover: true` to `runClusterNode`).
   */
  restart(id: ProcessId): void;
  /**
   * The operating-system process id of member `id`'s current incarnation, `undefined` before it
   * was spawned or when the spawn failed. Signalling it from outside (`kill -9`) is a member
   * dying as an operator sees it: the run ends, unlike {@link ClusterRun.kill}, which waits for
   * a restart.
   * @throws ConfigurationError when there is no member `id`.
   */
  pid(id: ProcessId): number | undefined;
  /** Kills every member and ends the run. */
  stop(): Promise<ClusterRunResult>;
}

interface Member {
  child: ChildProcess | undefined;
  /** Set by kill(): the exit is expected and the member will be restarted. */
  killed: boolean;
  finished: boolean;
  report: ClusterNodeReport | undefined;
  stderr: string[];
}

/** The state of one launch, shared by the functions below. */
interface Launch {
  readonly options: LaunchClusterOptions;
  readonly config: LoadedClusterConfig;
  readonly spec: ProblemSpec;
  readonly logPath: string;
  readonly entry: string;
  readonly execArgv: readonly string[];
  /** The default entry's `--member` choice, or none. */
  readonly memberArgs: readonly string[];
  readonly members: Member[];
  readonly exits: ClusterExit[];
  readonly deaths: ClusterDeath[];
  readonly progress: Set<(p: ClusterNodeProgress) => void>;
  readonly t0: number;
  readonly resolveDone: (r: ClusterRunResult) => void;
  settled: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** How the reason of a run that failed the shared-log check alone begins. */
export const SHARED_LOG_CHECK_FAILED = 'shared-log check failed';

/** Ends the run (once): kills what still runs, checks the shared log once they are gone, and resolves `done`. */
function finish(l: Launch, failure?: string): void {
  if (l.settled) return;
  l.settled = true;
  clearTimeout(l.timer);
  const durationMs = Date.now() - l.t0;
  const gone = l.members.map(({ child }) => {
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return undefined;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    return exited;
  });
  // the check reads the log once nobody can append to it any more
  void Promise.all(gone).then(() => l.resolveDone(settle(l, failure, durationMs)));
}

/** The result of an ended run: the shared-log check over every record, and why it failed. */
function settle(l: Launch, failure: string | undefined, durationMs: number): ClusterRunResult {
  const { records, malformed } = readSharedLog(l.logPath);
  const check = checkSharedLog(records, { n: l.config.config.n, spec: l.spec, initial: l.config.initial });
  let reason = failure;
  if (reason === undefined && !check.ok) {
    reason = `${SHARED_LOG_CHECK_FAILED}: ${check.violationCount} violation(s), ${check.sequenceErrors.length} sequence error(s)`;
  }
  return {
    ok: reason === undefined,
    ...(reason === undefined ? {} : { reason }),
    reports: l.members.map((m) => m.report),
    exits: l.exits,
    deaths: [...l.deaths],
    check,
    logMalformed: malformed,
    durationMs,
  };
}

/** Hands each line member `id` writes on `stream` to `onOutput`, keeping its last 20 stderr lines. */
function relayLines(l: Launch, id: ProcessId, stream: 'stdout' | 'stderr', child: ChildProcess): void {
  let buf = '';
  child[stream]?.setEncoding('utf8');
  child[stream]?.on('data', (chunk: string) => {
    buf += chunk;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (stream === 'stderr') {
        const m = l.members[id]!;
        m.stderr.push(line);
        if (m.stderr.length > 20) m.stderr.shift();
      }
      l.options.onOutput?.(id, stream, line);
    }
  });
}

/** A member process exited: log a crash, wait for a restart, count it finished, or fail the run. */
function memberExited(
  l: Launch,
  id: ProcessId,
  child: ChildProcess,
  code: number | null,
  signal: NodeJS.Signals | null,
): void {
  const m = l.members[id]!;
  l.exits.push({ id, code, signal });
  if (m.child !== child || l.settled) return;
  const died = signal !== null || code !== 0 || m.report === undefined;
  if (died) {
    const t = Date.now();
    l.deaths.push({ id, code, signal, afterMs: t - l.t0 });
    appendSharedLogRecord(l.logPath, {
      p: id,
      e: 'crashed',
      t,
      ...(signal !== null ? { sig: signal } : code !== null ? { code } : {}),
    });
  }
  if (m.killed) return; // waits for restart()
  if (!died) {
    m.finished = true;
    if (l.members.every((x) => x.finished)) finish(l);
    return;
  }
  finish(
    l,
    `P${id} exited with ${signal ?? `code ${code}`}${m.report ? '' : ' without a report'}` +
      (m.stderr.length ? `: ${withoutStackFrames(m.stderr).slice(-5).join(' | ')}` : ''),
  );
}

/** A member's stderr lines without the `at …` frames of stack traces (Node 22 prints more of them than 20: the message scrolled out of the last five). */
function withoutStackFrames(lines: readonly string[]): string[] {
  return lines.filter((line) => !/^\s+at /.test(line));
}

/** Spawns (a new incarnation of) member `id`, relaying its output, progress and report. */
function startMember(l: Launch, id: ProcessId, recover = false): void {
  const m = l.members[id]!;
  m.killed = false;
  m.finished = false;
  const args = [...l.execArgv, l.entry, '--config', l.config.path, '--id', String(id), ...l.memberArgs];
  // a restarted durable member resumes from its store (issue 27)
  if (recover && l.config.config.durability !== undefined) args.push('--recover');
  const [file, ...rest] = [...(l.options.runUnder?.(id) ?? []), process.execPath, ...args];
  const child = spawn(file!, rest, {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, ...l.options.env },
  });
  m.child = child;
  relayLines(l, id, 'stdout', child);
  relayLines(l, id, 'stderr', child);
  child.on(
    'message',
    (msg: { type?: string; progress?: ClusterNodeProgress; report?: ClusterNodeReport }) => {
      if (msg?.type === 'progress' && msg.progress) for (const fn of l.progress) fn(msg.progress);
      else if (msg?.type === 'report' && msg.report && m.child === child) m.report = msg.report;
    },
  );
  child.on('exit', (code, signal) => memberExited(l, id, child, code, signal));
}

/** `ClusterRun.kill`: signals member `id`; resolves when it exited (after the launcher logged `crashed`). */
function killMember(l: Launch, id: ProcessId, signal: NodeJS.Signals): Promise<ClusterExit> {
  const m = l.members[id];
  const child = m?.child;
  if (m === undefined || child === undefined) throw new ConfigurationError(`launchCluster: no member ${id}`);
  m.killed = true;
  const exited = new Promise<ClusterExit>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ id, code: child.exitCode, signal: child.signalCode });
      return;
    }
    // Registered after the launcher's own 'exit' listener, so `crashed` is already logged.
    child.once('exit', (code, sig) => resolve({ id, code, signal: sig }));
  });
  child.kill(signal);
  return exited;
}

/** `ClusterRun.restart`: starts a killed member again (nothing once the run ended). */
function restartMember(l: Launch, id: ProcessId): void {
  const m = l.members[id];
  if (m === undefined) throw new ConfigurationError(`launchCluster: no member ${id}`);
  if (m.child && m.child.exitCode === null && m.child.signalCode === null) {
    throw new ConfigurationError(`launchCluster: member ${id} is still running; kill it first`);
  }
  if (!l.settled) startMember(l, id, true);
}

/**
 * Spawns the members of the cluster in `configPath` and runs them to completion.
 * @throws ConfigurationError for an invalid configuration (before anything is spawned).
 */
export function launchCluster(options: LaunchClusterOptions): ClusterRun {
  const config = loadClusterConfig(options.configPath);
  const n = config.config.n;
  const spec = clusterProblemSpec(config.config);
  const member = options.member ?? 'modules';
  const defaults = defaultMemberEntry(member, config.config.algorithm);
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (!(timeoutMs > 0))
    throw new ConfigurationError(`launchCluster: timeoutMs must be > 0, got ${timeoutMs}`);
  let resolveDone!: (r: ClusterRunResult) => void;
  const done = new Promise<ClusterRunResult>((r) => {
    resolveDone = r;
  });
  const l: Launch = {
    options,
    config,
    spec,
    logPath: config.resolve(config.config.log),
    entry: options.entry ?? defaults.entry,
    execArgv: options.execArgv ?? defaults.execArgv,
    memberArgs: options.entry === undefined ? ['--member', member] : [],
    members: Array.from({ length: n }, () => ({
      child: undefined,
      killed: false,
      finished: false,
      report: undefined,
      stderr: [],
    })),
    exits: [],
    deaths: [],
    progress: new Set(),
    t0: Date.now(),
    resolveDone,
    settled: false,
    timer: undefined,
  };
  l.timer = setTimeout(() => finish(l, `timed out after ${timeoutMs} ms`), timeoutMs);
  for (let id = 0; id < n; id++) startMember(l, id);

  return {
    config,
    done,
    onProgress(fn) {
      l.progress.add(fn);
      return () => l.progress.delete(fn);
    },
    kill: (id, signal = 'SIGKILL') => killMember(l, id, signal),
    restart: (id) => restartMember(l, id),
    pid(id) {
      const m = l.members[id];
      if (m === undefined) throw new ConfigurationError(`launchCluster: no member ${id}`);
      return m.child?.pid;
    },
    stop() {
      finish(l, 'stopped');
      return done;
    },
  };
}
