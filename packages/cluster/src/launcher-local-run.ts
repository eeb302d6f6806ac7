/*
 * `critsec cluster`'s launcher part: the workloads of `critsec simulate` over real TCP/TLS
 * between n separate OS processes on this machine (DESIGN.md 5). `createLocalCluster` writes the
 * certificates, `cluster.json` and the shared log; `launchCluster` spawns the members (this
 * package's member main with `--member critsec`, see member-critsec.ts), relays their progress
 * and runs the shared-log safety check (sound: every violation it reports happened). The outcome holds the members' reports
 * and their totals, the entries and exits completed and the members that died (from the shared
 * log, so a run a member's death ended still counts the work done), the first violation located
 * in the shared log, and why the run failed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ProblemSpec, ProcessId } from '@critsec/core';
import type { ClusterSpecConfig } from './config-cluster.js';
import { createLocalCluster } from './config-local.js';
import { type ClusterRun, type ClusterRunResult, launchCluster } from './launcher.js';
import type { ClusterRunSettings } from './launcher-settings.js';
import { type LoggedWork, loggedWork } from './launcher-logged-work.js';
import type { NodeReport } from './member-critsec.js';
import { readSharedLog, type SharedLogRecord } from './shared-log.js';

/** Hooks of {@link runLocalCluster}. */
export interface ClusterHooks {
  /** Counted entries and exits completed over the cluster (`total` = 2 · n · rounds). */
  readonly onProgress?: (completed: number, total: number) => void;
  /** A line a member wrote to stderr (warnings, errors). */
  readonly onMemberOutput?: (id: ProcessId, line: string) => void;
  /** The run, once its members are spawned (its members' progress, their process ids, `stop`). */
  readonly onLaunch?: (run: ClusterRun) => void;
}

/** The first violation the shared-log check found, located in the log. */
export interface LocatedViolation {
  /** The shared-log record (1-based) at which it was seen. */
  readonly step: number;
  /** That record's wall-clock time, ms since the epoch (0 when the record is missing). */
  readonly time: number;
  /** The process that wrote that record (−1 when missing). */
  readonly process: ProcessId;
  /** What the shared-log check found (which bound was crossed, by which processes). */
  readonly message: string;
}

/** The members' measurements summed over the cluster. */
export interface MemberTotals {
  /** Counted entries and exits completed. */
  readonly entries: number;
  /** Counted exits completed. */
  readonly exits: number;
  /** Messages sent by the members' CS objects (self-messages included). */
  readonly messages: number;
  /** Wall-clock waiting times of counted calls, ms. */
  readonly entryWaitsMs: readonly number[];
  /** Wall-clock waiting times of counted exits, ms. */
  readonly exitWaitsMs: readonly number[];
  /** Messages per `channel TYPE`, sorted by key. */
  readonly byType: Readonly<Record<string, number>>;
  /** Messages caused by each exit+entry pair `(process, round)` that sent any. */
  readonly pairs: readonly number[];
}

/** What {@link runLocalCluster} gives back. */
export interface LocalClusterOutcome {
  /** The launcher's result (exits, the shared-log check). */
  readonly result: ClusterRunResult;
  /** The reports of the members that reported (as `critsec` members, with `cli`). */
  readonly reports: readonly NodeReport[];
  /**
   * The members' measurements summed over the cluster, from their reports: those of the members
   * that reported (none when a member died: the launcher ends the others).
   */
  readonly totals: MemberTotals;
  /**
   * The counted entries and exits every member completed, and the members that died, from the
   * shared log: complete whether or not the members reported.
   */
  readonly logged: LoggedWork;
  /** The first violation of the shared-log check, `null` when none. */
  readonly violation: LocatedViolation | null;
  /** Why the run failed (a member's exit, a violation, missing reports), `null` when it did not. */
  readonly failure: string | null;
  /** Wall-clock time from the start to the members' end, ms. */
  readonly wallMs: number;
}

/** The configuration's `spec` (what the shared-log check verifies) for a problem that is not a global (l,k)-CS. */
function specConfig(spec: ProblemSpec): ClusterSpecConfig {
  switch (spec.kind) {
    case 'global':
      return { kind: 'global', l: spec.l, k: spec.k };
    case 'h-out-of-k':
      return { kind: 'h-out-of-k', k: spec.k };
    case 'group':
      return { kind: 'group', m: spec.m };
    case 'local': {
      const edges: [number, number][] = [];
      spec.graph.neighbors.forEach((nb, i) => {
        for (const j of nb) if (i < j) edges.push([i, j]);
      });
      return { kind: 'local', edges, l: [...spec.l], k: [...spec.k] };
    }
  }
}

/** Writes certificates (fresh, or those of `--certs`), `cluster.json` and the shared log into `dir`; returns the configuration's path. */
async function writeCluster(s: ClusterRunSettings, dir: string): Promise<string> {
  const c = s.cluster;
  mkdirSync(dir, { recursive: true });
  // the algorithm's options, as `critsec node` reads them back (a bounds file by absolute path)
  const options = { ...c.options };
  if (typeof options.boundsFile === 'string') options.boundsFile = resolve(options.boundsFile);
  if (typeof options.graph === 'string' && existsSync(options.graph)) options.graph = resolve(options.graph);
  const params = { ...options, seed: s.seed, workload: s.workload };
  const workload = { rounds: s.rounds, thinkMs: s.think, holdMs: s.hold };
  const common = {
    algorithm: c.algorithm,
    params,
    initial: [...c.initial],
    ...(c.spec.kind === 'global' ? { bounds: { l: c.l, k: c.k } } : { spec: specConfig(c.spec) }),
    workload,
    readyTimeoutMs: 60_000,
  };
  // fresh certificates in `dir`, or those of `--certs` (checked by resolveClusterRun)
  const { path } = await createLocalCluster({
    dir,
    n: c.n,
    ...common,
    ...(s.basePort === undefined ? {} : { basePort: s.basePort }),
    ...(s.certs === undefined ? {} : { certificateDir: s.certs }),
  });
  return path;
}

/** Spawns the members of `configPath` as `critsec` members, relaying stderr lines and counted progress to `hooks`. */
function startMembers(s: ClusterRunSettings, configPath: string, hooks: ClusterHooks): ClusterRun {
  const run = launchCluster({
    configPath,
    member: 'critsec',
    timeoutMs: s.timeoutMs,
    onOutput: (id, stream, line) => {
      if (stream === 'stderr' && line.trim() !== '') hooks.onMemberOutput?.(id, line);
    },
  });
  const total = 2 * s.cluster.n * s.rounds;
  let completed = 0;
  run.onProgress((p) => {
    if (p.event === 'entry-done' || p.event === 'exit-done') {
      completed++;
      hooks.onProgress?.(completed, total);
    }
  });
  return run;
}

/** Sums the members' measurements; `pairs` per (process, round) of `n` processes and `rounds` rounds. */
function memberTotals(reports: readonly NodeReport[], n: number, rounds: number): MemberTotals {
  const byInvocation = new Map<string, number>();
  const byType: Record<string, number> = {};
  let messages = 0;
  const entryWaitsMs: number[] = [];
  const exitWaitsMs: number[] = [];
  let entries = 0;
  let exits = 0;
  for (const r of reports) {
    messages += r.cli.sent;
    entries += r.cli.entries;
    exits += r.cli.exits;
    entryWaitsMs.push(...r.cli.entryWaitsMs);
    exitWaitsMs.push(...r.cli.exitWaitsMs);
    for (const [key, count] of Object.entries(r.cli.byInvocation)) {
      byInvocation.set(key, (byInvocation.get(key) ?? 0) + count);
    }
    for (const [key, count] of Object.entries(r.cli.byType)) byType[key] = (byType[key] ?? 0) + count;
  }
  const pairs: number[] = [];
  for (let p = 0; p < n; p++) {
    for (let round = 1; round <= rounds; round++) {
      const e = byInvocation.get(`${p}:${round}:entry`);
      const x = byInvocation.get(`${p}:${round}:exit`);
      if (e !== undefined || x !== undefined) pairs.push((e ?? 0) + (x ?? 0));
    }
  }
  const sortedTypes = Object.fromEntries(Object.entries(byType).sort(([a], [b]) => a.localeCompare(b)));
  return { entries, exits, messages, entryWaitsMs, exitWaitsMs, byType: sortedTypes, pairs };
}

/** The first violation of the check, located in the shared log's `records`. */
function locateViolation(
  result: ClusterRunResult,
  records: readonly SharedLogRecord[],
): LocatedViolation | null {
  const first = result.check.violations[0];
  if (first === undefined) return null;
  const rec = records[first.index];
  const who = first.processes.length ? `P${first.processes.join(', P')}` : 'none';
  return {
    step: first.index + 1,
    time: rec === undefined ? 0 : rec.t,
    process: rec?.p ?? -1,
    message: `${first.message}, counting the processes ${first.kind === 'upper' ? 'certainly' : 'possibly'} InCS (${who}), at shared-log record ${first.index + 1}`,
  };
}

/**
 * Runs the cluster of `s` to the end: writes it into `s.dir` (default: a temporary directory,
 * removed afterwards), spawns the members, waits for them, and sums up. Never throws for an
 * algorithm or member failure (they are in `failure` and `violation`); members' errors go to
 * `hooks.onMemberOutput` (the first 10).
 * @throws ConfigurationError if the cluster cannot be set up (certificates, ports).
 */
export async function runLocalCluster(
  s: ClusterRunSettings,
  hooks: ClusterHooks = {},
): Promise<LocalClusterOutcome> {
  const n = s.cluster.n;
  const t0 = performance.now();
  const dir = s.dir ?? mkdtempSync(join(tmpdir(), 'critsec-cluster-'));
  const temporary = s.dir === undefined;
  try {
    const configPath = await writeCluster(s, dir);
    const run = startMembers(s, configPath, hooks);
    hooks.onLaunch?.(run);
    const result = await run.done;
    const wallMs = performance.now() - t0;
    const reports = result.reports.filter((r): r is NodeReport => r !== undefined && 'cli' in r);
    const totals = memberTotals(reports, n, s.rounds);
    const logPath = join(dir, 'shared.log');
    const records = existsSync(logPath) ? readSharedLog(logPath).records : [];
    const logged = loggedWork(records, result.deaths, n, s.rounds);
    const violation = locateViolation(result, records);
    const failure =
      result.ok && reports.length === n
        ? null
        : (result.reason ??
          (reports.length < n ? `${n - reports.length} member(s) did not report` : 'failed'));
    const errors = reports.flatMap((r) => r.errors.map((e) => `P${r.id}: ${e}`));
    for (const e of errors.slice(0, 10)) hooks.onMemberOutput?.(Number(e.slice(1, e.indexOf(':'))), e);
    return { result, reports, totals, logged, violation, failure, wallMs };
  } finally {
    if (temporary) rmSync(dir, { recursive: true, force: true });
  }
}
