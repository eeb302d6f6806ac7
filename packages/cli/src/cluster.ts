/*
 * `critsec cluster`: the workloads of `critsec simulate` over real TCP/TLS between n separate OS
 * processes on this machine (DESIGN.md 5). Built on @critsec/transport-tcp: `createLocalCluster`
 * writes the certificates, `cluster.json` and the shared log; `launchCluster` spawns the members
 * (this package's `node-main`, see node.ts), relays their progress and runs the shared-log safety
 * check (sound: every violation it reports happened). The summary has the `--json` shape of
 * `simulate`, with wall-clock waiting times in ms.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { ConfigurationError, describeSpec, type ProblemSpec, type ProcessId } from '@critsec/core';
import { distribution } from '@critsec/testing';
import {
  type ClusterSpecConfig,
  createLocalCluster,
  launchCluster,
  readSharedLog,
} from '@critsec/transport-tcp';
import {
  type ClusterInput,
  clusterArguments,
  parseChoice,
  parseInteger,
  parseNonNegative,
  type ResolvedCluster,
  resolveCluster,
} from './algorithms.js';
import type { NodeReport } from './node.js';
import type { RunSummary } from './summary.js';

/** Everything `critsec cluster` takes. */
export interface ClusterRunInput extends ClusterInput {
  /** Rounds per process (default 20). */
  readonly rounds?: number | string;
  readonly seed?: number | string;
  /** `concurrent` (default) or `sequential` (one call in flight in the whole cluster, coordinated by member 0). */
  readonly workload?: string;
  /** Mean think time OutCS before an entry, ms (default 2). */
  readonly think?: number | string;
  /** Mean hold time InCS before an exit, ms (default 1). */
  readonly hold?: number | string;
  /** A directory of certificates from `critsec certs` (ca.pem, p<id>.cert.pem, p<id>.key.pem). */
  readonly certs?: string;
  /** Where to write cluster.json, certificates and the shared log (default: a temporary directory, removed afterwards). */
  readonly dir?: string;
  /** First port (default: free ports chosen by the OS). */
  readonly basePort?: number | string;
  /** Give up after this long, ms (default 300 000). */
  readonly timeout?: number | string;
}

/** A validated cluster run. */
export interface ClusterRunSettings {
  readonly cluster: ResolvedCluster;
  /** `concurrent`, or `sequential`: member 0 coordinates one call at a time over the control channel. */
  readonly workload: 'concurrent' | 'sequential';
  readonly rounds: number;
  readonly seed: number;
  readonly think: number;
  readonly hold: number;
  readonly certs: string | undefined;
  readonly dir: string | undefined;
  readonly basePort: number | undefined;
  readonly timeoutMs: number;
}

/**
 * Validates `critsec cluster`'s options.
 * @throws ConfigurationError (one line) for any invalid value, including a `--certs` directory
 *   without the certificates of every process.
 */
export function resolveClusterRun(input: ClusterRunInput): ClusterRunSettings {
  const cluster = resolveCluster(input);
  const workload = parseChoice('workload', input.workload ?? 'concurrent', [
    'concurrent',
    'sequential',
  ] as const);
  const certs = input.certs === undefined ? undefined : resolve(input.certs);
  if (certs !== undefined) {
    const missing = [
      'ca.pem',
      ...Array.from({ length: cluster.n }, (_, i) => [`p${i}.cert.pem`, `p${i}.key.pem`]).flat(),
    ].filter((f) => !existsSync(join(certs, f)));
    if (missing.length > 0) {
      throw new ConfigurationError(
        `--certs ${input.certs}: missing ${missing.slice(0, 4).join(', ')}${missing.length > 4 ? ', …' : ''}; make them with: critsec certs --n ${cluster.n} --out ${input.certs}`,
      );
    }
  }
  return {
    cluster,
    workload,
    rounds: parseInteger('rounds', input.rounds ?? 20, 1),
    seed: parseInteger('seed', input.seed ?? 1, 0),
    think: parseNonNegative('think', input.think ?? 2),
    hold: parseNonNegative('hold', input.hold ?? 1),
    certs,
    dir: input.dir === undefined ? undefined : resolve(input.dir),
    basePort: input.basePort === undefined ? undefined : parseInteger('base-port', input.basePort, 1, 65535),
    timeoutMs: parseInteger('timeout', input.timeout ?? 300_000, 1),
  };
}

/** The command line that reproduces a cluster run. */
export function clusterReplayCommand(s: ClusterRunSettings): string {
  const parts = ['npx critsec cluster', s.cluster.algorithm, ...clusterArguments(s.cluster)];
  parts.push(`--rounds ${s.rounds}`, `--seed ${s.seed}`, `--workload ${s.workload}`);
  if (s.workload === 'concurrent') parts.push(`--think ${s.think}`, `--hold ${s.hold}`);
  return parts.join(' ');
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

/** The member program and the Node flags to run it: the TypeScript source through tsx, or the build. */
function memberEntry(): { entry: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = createRequire(here).resolve('tsx');
    return {
      entry: fileURLToPath(new URL('./node-main.ts', here)),
      execArgv: ['--conditions=@critsec/source', '--import', new URL(`file://${tsx}`).href],
    };
  }
  return { entry: fileURLToPath(new URL('./node-main.js', here)), execArgv: [] };
}

/** Hooks of {@link runCluster}. */
export interface ClusterHooks {
  /** Counted entries and exits completed over the cluster (`total` = 2 · n · rounds). */
  readonly onProgress?: (completed: number, total: number) => void;
  /** A line a member wrote to stderr (warnings, errors). */
  readonly onMemberOutput?: (id: ProcessId, line: string) => void;
}

function meanMax(xs: readonly number[]): { mean: number | null; max: number | null } {
  if (xs.length === 0) return { mean: null, max: null };
  let sum = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (const x of xs) {
    sum += x;
    if (x > max) max = x;
  }
  return { mean: sum / xs.length, max };
}

/**
 * Runs the cluster to the end and summarizes it. Never throws for an algorithm or member
 * failure (they are in the summary: `ok: false`, `failure`, `violation`).
 * @throws ConfigurationError if the cluster cannot be set up (certificates, ports).
 */
export async function runCluster(s: ClusterRunSettings, hooks: ClusterHooks = {}): Promise<RunSummary> {
  const c = s.cluster;
  const t0 = performance.now();
  const dir = s.dir ?? mkdtempSync(join(tmpdir(), 'critsec-cluster-'));
  const temporary = s.dir === undefined;
  try {
    mkdirSync(dir, { recursive: true });
    // the algorithm's options, as `critsec node` reads them back (a bounds file by absolute path)
    const options = { ...c.options };
    if (typeof options.boundsFile === 'string') options.boundsFile = resolve(options.boundsFile);
    if (typeof options.graph === 'string' && existsSync(options.graph))
      options.graph = resolve(options.graph);
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
    const { path: configPath } = await createLocalCluster({
      dir,
      n: c.n,
      ...common,
      ...(s.basePort === undefined ? {} : { basePort: s.basePort }),
      ...(s.certs === undefined ? {} : { certificateDir: s.certs }),
    });

    const { entry, execArgv } = memberEntry();
    const run = launchCluster({
      configPath,
      entry,
      execArgv,
      timeoutMs: s.timeoutMs,
      onOutput: (id, stream, line) => {
        if (stream === 'stderr' && line.trim() !== '') hooks.onMemberOutput?.(id, line);
      },
    });
    const total = 2 * c.n * s.rounds;
    let completed = 0;
    run.onProgress((p) => {
      if (p.event === 'entry-done' || p.event === 'exit-done') {
        completed++;
        hooks.onProgress?.(completed, total);
      }
    });
    const result = await run.done;
    const wallMs = performance.now() - t0;
    const reports = result.reports.filter((r): r is NodeReport => r !== undefined && 'cli' in r);

    const byInvocation = new Map<string, number>();
    const byType: Record<string, number> = {};
    let totalMessages = 0;
    const entryWaits: number[] = [];
    const exitWaits: number[] = [];
    let entries = 0;
    let exits = 0;
    for (const r of reports) {
      totalMessages += r.cli.sent;
      entries += r.cli.entries;
      exits += r.cli.exits;
      entryWaits.push(...r.cli.entryWaitsMs);
      exitWaits.push(...r.cli.exitWaitsMs);
      for (const [key, count] of Object.entries(r.cli.byInvocation)) {
        byInvocation.set(key, (byInvocation.get(key) ?? 0) + count);
      }
      for (const [key, count] of Object.entries(r.cli.byType)) byType[key] = (byType[key] ?? 0) + count;
    }
    const pairs: number[] = [];
    for (let p = 0; p < c.n; p++) {
      for (let round = 1; round <= s.rounds; round++) {
        const e = byInvocation.get(`${p}:${round}:entry`);
        const x = byInvocation.get(`${p}:${round}:exit`);
        if (e !== undefined || x !== undefined) pairs.push((e ?? 0) + (x ?? 0));
      }
    }
    const perPair = distribution(pairs);

    const logPath = join(dir, 'shared.log');
    const first = result.check.violations[0];
    let violation: RunSummary['violation'] = null;
    if (first !== undefined) {
      const records = existsSync(logPath) ? readSharedLog(logPath).records : [];
      const rec = records[first.index];
      violation = {
        step: first.index + 1,
        time: rec === undefined ? 0 : rec.t,
        process: rec?.p ?? -1,
        message: `${first.message}, counting the processes ${first.kind === 'upper' ? 'certainly' : 'possibly'} InCS (${first.processes.length ? `P${first.processes.join(', P')}` : 'none'}), at shared-log record ${first.index + 1}`,
      };
    }
    const failure =
      result.ok && reports.length === c.n
        ? null
        : (result.reason ??
          (reports.length < c.n ? `${c.n - reports.length} member(s) did not report` : 'failed'));
    const errors = reports.flatMap((r) => r.errors.map((e) => `P${r.id}: ${e}`));
    for (const e of errors.slice(0, 10)) hooks.onMemberOutput?.(Number(e.slice(1, e.indexOf(':'))), e);

    return {
      algorithm: c.algorithm,
      n: c.n,
      l: c.l,
      k: c.k,
      coterie: c.coterieName,
      coterieDescription: c.coterie?.description ?? null,
      quorumSize: c.quorumSize,
      mx: c.mx,
      rounds: s.rounds,
      seed: s.seed,
      delay: 'wall-clock (TCP/TLS on loopback)',
      workload: s.workload,
      think: s.think,
      hold: s.hold,
      timeUnit: 'ms',
      initial: {
        inCS: c.initial.flatMap((st, i) => (st === 'InCS' ? [i] : [])),
        description: c.initialDescription,
      },
      entries,
      exits,
      safetyViolations: result.check.violationCount,
      violation,
      ok: failure === null,
      failure,
      messages: {
        total: totalMessages,
        perPair:
          pairs.length === 0
            ? { mean: null, p99: null, max: null }
            : { mean: perPair.mean, p99: perPair.p99, max: perPair.max },
        byType: Object.fromEntries(Object.entries(byType).sort(([a], [b]) => a.localeCompare(b))),
      },
      waitingTime: { entry: meanMax(entryWaits), exit: meanMax(exitWaits) },
      bounds: {
        messagesPerPair: c.bounds.messagesPerPair,
        waitingTimeEntry: c.bounds.waitingTimeEntry,
        waitingTimeExit: c.bounds.waitingTimeExit,
        source: c.bounds.source,
        formula: c.bounds.formula,
      },
      // message counts are exact under the sequential workload; wall-clock waiting times are no time units
      boundsMet: {
        messagesPerPair:
          s.workload === 'sequential' && pairs.length > 0 ? perPair.max <= c.bounds.messagesPerPair : null,
        waitingTimeEntry: null,
        waitingTimeExit: null,
      },
      simulatedTime: null,
      wallMs,
      messagesPerSecond: wallMs > 0 ? (totalMessages * 1000) / wallMs : 0,
      replay: clusterReplayCommand(s),
      problem: describeSpec(c.spec),
      structure: c.structure,
      parameters: c.options,
      request: c.requestDescription,
      concurrency: { max: null },
    };
  } finally {
    if (temporary) rmSync(dir, { recursive: true, force: true });
  }
}
