/*
 * `critsec cluster`: the workloads of `critsec simulate` over real TCP/TLS between n separate OS
 * processes on this machine (DESIGN.md 5). The run itself — certificates, `cluster.json`, the
 * member processes, the shared-log safety check — is `runLocalCluster` of @critsec/cluster; this
 * file turns its outcome into the `--json` summary of `simulate`, with wall-clock waiting times
 * in ms, the entries and exits completed counted from the shared log (so a run a member's death
 * ended counts the survivors' work, and the dead member's up to its death), the members that
 * died, and the replay command.
 */
import {
  type ClusterHooks,
  type ClusterRunSettings,
  clusterArguments,
  type LocalClusterOutcome,
  type MemberTotals,
  runLocalCluster,
} from '@critsec/cluster';
import { distribution } from '@critsec/harness';
import { boundsField, clusterFields, initialField, problemFields, type RunSummary } from './summary.js';

/** The command line that reproduces a cluster run. */
export function clusterReplayCommand(s: ClusterRunSettings): string {
  const parts = ['npx critsec cluster', s.cluster.algorithm, ...clusterArguments(s.cluster)];
  parts.push(`--rounds ${s.rounds}`, `--seed ${s.seed}`, `--workload ${s.workload}`);
  if (s.workload === 'concurrent') parts.push(`--think ${s.think}`, `--hold ${s.hold}`);
  return parts.join(' ');
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

/** The summary's fields that describe the cluster and the run's settings. */
function describeRun(s: ClusterRunSettings) {
  return {
    ...clusterFields(s.cluster),
    rounds: s.rounds,
    seed: s.seed,
    delay: 'wall-clock (TCP/TLS on loopback)',
    workload: s.workload,
    think: s.think,
    hold: s.hold,
    timeUnit: 'ms',
    initial: initialField(s.cluster),
  } satisfies Partial<RunSummary>;
}

/** The summary's message counts and their bound: exact under the sequential workload only. */
function messagesAndBounds(s: ClusterRunSettings, totals: MemberTotals) {
  const { bounds } = s.cluster;
  const perPair = distribution([...totals.pairs]);
  const some = totals.pairs.length > 0;
  return {
    messages: {
      total: totals.messages,
      perPair: some
        ? { mean: perPair.mean, p99: perPair.p99, max: perPair.max }
        : { mean: null, p99: null, max: null },
      byType: totals.byType,
    },
    waitingTime: { entry: meanMax(totals.entryWaitsMs), exit: meanMax(totals.exitWaitsMs) },
    bounds: boundsField(s.cluster),
    // message counts are exact under the sequential workload; wall-clock waiting times are no time units
    boundsMet: {
      messagesPerPair: s.workload === 'sequential' && some ? perPair.max <= bounds.messagesPerPair : null,
      waitingTimeEntry: null,
      waitingTimeExit: null,
    },
  } satisfies Partial<RunSummary>;
}

/** The `--json` summary of a finished cluster run. */
function clusterSummary(s: ClusterRunSettings, o: LocalClusterOutcome): RunSummary {
  return {
    ...describeRun(s),
    entries: o.logged.entries,
    exits: o.logged.exits,
    byProcess: { entries: o.logged.entriesByProcess, exits: o.logged.exitsByProcess },
    deaths: o.logged.deaths,
    safetyViolations: o.result.check.violationCount,
    sharedLogRecords: o.result.check.records,
    violation: o.violation,
    ok: o.failure === null,
    failure: o.failure,
    ...messagesAndBounds(s, o.totals),
    simulatedTime: null,
    wallMs: o.wallMs,
    messagesPerSecond: o.wallMs > 0 ? (o.totals.messages * 1000) / o.wallMs : 0,
    replay: clusterReplayCommand(s),
    ...problemFields(s.cluster),
    concurrency: { max: null },
  };
}

/**
 * Runs the cluster to the end and summarizes it. Never throws for an algorithm or member
 * failure (they are in the summary: `ok: false`, `failure`, `violation`).
 * @throws ConfigurationError if the cluster cannot be set up (certificates, ports).
 */
export async function runCluster(s: ClusterRunSettings, hooks: ClusterHooks = {}): Promise<RunSummary> {
  return clusterSummary(s, await runLocalCluster(s, hooks));
}
