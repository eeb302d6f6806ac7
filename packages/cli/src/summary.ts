/*
 * The summary of a run — the stable `--json` shape and the human table beside the papers'
 * bounds (DESIGN.md 5).
 */
import type { MemberDeath, ResolvedCluster } from '@critsec/cluster';
import { describeSpec } from '@critsec/core/kit';
import Table from 'cli-table3';

/** mean / p99 / max of a sample (`null` where there was nothing to measure). */
export interface Spread {
  /** Mean. */
  readonly mean: number | null;
  /** 99th percentile (nearest rank). */
  readonly p99: number | null;
  /** Largest. */
  readonly max: number | null;
}

/** mean / max of a sample. */
export interface MeanMax {
  /** Mean. */
  readonly mean: number | null;
  /** Largest. */
  readonly max: number | null;
}

/**
 * The `--json` summary of `critsec simulate` (and, with wall-clock units, of `critsec cluster`).
 * Stable: fields are only ever added. Waiting times are in time units (simulate) or ms (cluster):
 * see `timeUnit`.
 */
export interface RunSummary {
  /** The algorithm's name. */
  readonly algorithm: string;
  /** Number of processes. */
  readonly n: number;
  /** The problem's l: the global (l,k)-CS solved (mutex: l = 0, k = 1; mutin: k = n; kmutex: l = 0). */
  readonly l: number;
  /** The problem's k (see `l`). */
  readonly k: number;
  /** The coterie's construction (`grid`, …), `null` for ricart-agrawala and the other families. */
  readonly coterie: string | null;
  /** The coterie in words, `null` where none. */
  readonly coterieDescription: string | null;
  /** Smallest and largest quorum size |Q_i|, `null` where none (ricart-agrawala). */
  readonly quorumSize: {
    /** Smallest quorum size. */
    readonly min: number;
    /** Largest quorum size. */
    readonly max: number;
  } | null;
  /** MUTIN's mutual exclusion, or `null`. */
  readonly mx: string | null;
  /** Rounds per process; a round is one entry and one exit. */
  readonly rounds: number;
  /** The run's seed. */
  readonly seed: number;
  /** The `--delay` text; `wall-clock` for a cluster. */
  readonly delay: string;
  /** The workload: `concurrent` or `sequential`. */
  readonly workload: 'concurrent' | 'sequential';
  /** Mean think time OutCS before an entry, in `timeUnit`. */
  readonly think: number;
  /** Mean hold time InCS before an exit, in `timeUnit`. */
  readonly hold: number;
  /** The unit of the times: `time units` (simulate) or `ms` (cluster). */
  readonly timeUnit: 'time units' | 'ms';
  /** The initial configuration. */
  readonly initial: {
    /** Ids of the processes initially InCS. */
    readonly inCS: readonly number[];
    /** The initial configuration in words. */
    readonly description: string;
  };
  /** Entries completed (n × rounds on success); a cluster counts them from its shared log, a member that died up to its death. */
  readonly entries: number;
  /** Exits completed (n × rounds on success), counted as `entries`. */
  readonly exits: number;
  /** Entries and exits completed, by process id (a cluster only: from its shared log). */
  readonly byProcess?: {
    /** Entries completed by each process. */
    readonly entries: readonly number[];
    /** Exits completed by each process. */
    readonly exits: readonly number[];
  };
  /** The members that died during the run: which, how (signal or exit code) and when (a cluster only; empty when none). */
  readonly deaths?: readonly MemberDeath[];
  /** Safety violations seen: 0 on a correct run. */
  readonly safetyViolations: number;
  /** The shared-log records the safety check read, every member's up to the end or its death (a cluster only). */
  readonly sharedLogRecords?: number;
  /** The first safety violation, or `null`. */
  readonly violation: {
    /** The state change (simulate) or shared-log record (cluster) number at which it was seen. */
    readonly step: number;
    /** When: time units (simulate) or ms since the epoch (cluster). */
    readonly time: number;
    /** The process whose state change made it. */
    readonly process: number;
    /** Which bound was crossed, by which processes. */
    readonly message: string;
  } | null;
  /** No violation and every process finished. */
  readonly ok: boolean;
  /** Why not `ok`, or `null`. */
  readonly failure: string | null;
  /** Message counts. */
  readonly messages: {
    /** Every message sent (self-messages included). */
    readonly total: number;
    /**
     * Messages per exit+entry pair: exact under the sequential workload, causally attributed
     * under the concurrent one.
     */
    readonly perPair: Spread;
    /** Counts per `channel TYPE` (e.g. `lmin/mx REQUEST`; the root channel has no prefix). */
    readonly byType: Readonly<Record<string, number>>;
  };
  /** Waiting times, in `timeUnit`. */
  readonly waitingTime: {
    /** From `entry()` called to InCS. */
    readonly entry: MeanMax;
    /** From `exit()` called to OutCS. */
    readonly exit: MeanMax;
  };
  /** The papers' bounds for this algorithm and n. */
  readonly bounds: {
    /** Messages per exit+entry pair. */
    readonly messagesPerPair: number;
    /** Entry waiting time, time units. */
    readonly waitingTimeEntry: number;
    /** Exit waiting time, time units. */
    readonly waitingTimeExit: number;
    /** Where the bounds come from (paper, section). */
    readonly source: string;
    /** The bounds' formulas. */
    readonly formula: string;
  };
  /**
   * Whether each measured maximum is within its bound: booleans under the sequential workload
   * (waiting times only with unit delays), `null` where the bound is not the papers' setting
   * (shown for reference).
   */
  readonly boundsMet: {
    /** Most messages of a pair ≤ `bounds.messagesPerPair`. */
    readonly messagesPerPair: boolean | null;
    /** Longest entry wait ≤ `bounds.waitingTimeEntry`. */
    readonly waitingTimeEntry: boolean | null;
    /** Longest exit wait ≤ `bounds.waitingTimeExit`. */
    readonly waitingTimeExit: boolean | null;
  };
  /** Simulated time at the end, time units; `null` for a cluster. */
  readonly simulatedTime: number | null;
  /** Wall-clock duration, ms. */
  readonly wallMs: number;
  /** Messages per wall-clock second. */
  readonly messagesPerSecond: number;
  /** The command that reproduces the run. */
  readonly replay: string;
  /** The problem in words (`(3,10)-CS over 25 processes`, `h-out-of-3 mutual exclusion over 25 processes`, …). */
  readonly problem: string;
  /** The arbiter, group quorum system or graph; `null` for the global family, whose `coterie` says it. */
  readonly structure: string | null;
  /** The algorithm's own options (`{ k: 3, arbiter: 'uniform', h: 'random' }`). */
  readonly parameters: Readonly<Record<string, string | number>>;
  /** How entries' requests were drawn, or `null`. */
  readonly request: string | null;
  /** Concurrency seen. */
  readonly concurrency: {
    /** The most processes InCS at once (simulate; `null` for a cluster, whose shared log gives only bounds on it). */
    readonly max: number | null;
  };
  /** What the simulation cost the host (simulate only). */
  readonly performance?: RunPerformance;
}

/** The summary's `performance`: what a simulation cost the host (CPU time, not wall time). */
export interface RunPerformance {
  /** CPU seconds (user + system) spent by the run. */
  readonly cpuSeconds: number;
  /** Messages delivered per CPU-second. */
  readonly messagesPerCpuSecond: number;
  /** Peak resident set size of the process, bytes (absent where the platform does not say). */
  readonly rssBytes?: number;
}

/**
 * The summary's `performance` for a run that delivered `delivered` messages since `start`
 * (a `process.cpuUsage()` taken before it began).
 */
export function measurePerformance(start: NodeJS.CpuUsage, delivered: number): RunPerformance {
  const used = process.cpuUsage(start);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const maxRssKiB = process.resourceUsage().maxRSS;
  return {
    cpuSeconds,
    messagesPerCpuSecond: cpuSeconds > 0 ? delivered / cpuSeconds : 0,
    ...(maxRssKiB > 0 ? { rssBytes: maxRssKiB * 1024 } : {}),
  };
}

/** The summary's first fields: the cluster that ran (`algorithm` … `mx`). */
export function clusterFields(c: ResolvedCluster) {
  return {
    algorithm: c.algorithm,
    n: c.n,
    l: c.l,
    k: c.k,
    coterie: c.coterieName,
    coterieDescription: c.coterieDescription,
    quorumSize: c.quorumSize,
    mx: c.mx,
  } satisfies Partial<RunSummary>;
}

/** The summary's `initial`: the ids InCS and the description. */
export function initialField(c: ResolvedCluster): RunSummary['initial'] {
  return {
    inCS: c.initial.flatMap((st, i) => (st === 'InCS' ? [i] : [])),
    description: c.initialDescription,
  };
}

/** The summary's `bounds`: the papers' bounds of the cluster. */
export function boundsField(c: ResolvedCluster): RunSummary['bounds'] {
  const { bounds } = c;
  return {
    messagesPerPair: bounds.messagesPerPair,
    waitingTimeEntry: bounds.waitingTimeEntry,
    waitingTimeExit: bounds.waitingTimeExit,
    source: bounds.source,
    formula: bounds.formula,
  };
}

/** The summary's `problem`, `structure`, `parameters` and `request`. */
export function problemFields(c: ResolvedCluster) {
  return {
    problem: describeSpec(c.spec),
    structure: c.structure,
    parameters: c.options,
    request: c.requestDescription,
  } satisfies Partial<RunSummary>;
}

/** `x` as a number with at most `digits` decimals (`—` for null / NaN). */
export function fmt(x: number | null | undefined, digits = 2): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  return x.toLocaleString('en-US', { maximumFractionDigits: digits });
}

function status(met: boolean | null): string {
  if (met === null) return 'for reference';
  return met ? 'met' : 'NOT MET';
}

/** True if any bound was checked and not met. */
export function boundsFailed(s: RunSummary): boolean {
  return Object.values(s.boundsMet).some((v) => v === false);
}

/**
 * The human summary: a header line and a table of metric | measured | paper bound | status.
 * `color` adds no escape codes when false (the default when stdout is not a TTY).
 */
export function formatSummary(s: RunSummary, options: { color?: boolean } = {}): string {
  const head = options.color ? undefined : [];
  const table = new Table({
    head: ['', 'measured', "paper's bound (uncontended)", ''],
    style: { head: head ?? ['cyan'], border: head ?? ['grey'] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    wordWrap: false,
  });
  const u = s.timeUnit;
  const lines = headerLines(s);
  table.push(
    ['processes', fmt(s.n), '', ''],
    ['rounds per process', fmt(s.rounds), '', ''],
    [
      'entries / exits completed',
      `${fmt(s.entries)} / ${fmt(s.exits)}`,
      `${fmt(s.n * s.rounds)} each`,
      s.entries === s.n * s.rounds && s.exits === s.n * s.rounds ? 'ok' : 'INCOMPLETE',
    ],
    ['safety violations', fmt(s.safetyViolations), '0', s.safetyViolations === 0 ? 'ok' : 'VIOLATED'],
    ...(s.concurrency.max === null ? [] : [['most processes InCS at once', fmt(s.concurrency.max), '', '']]),
    [
      'messages per exit+entry pair (mean / p99 / max)',
      `${fmt(s.messages.perPair.mean)} / ${fmt(s.messages.perPair.p99)} / ${fmt(s.messages.perPair.max)}`,
      `≤ ${fmt(s.bounds.messagesPerPair)} = ${s.bounds.formula}`,
      status(s.boundsMet.messagesPerPair),
    ],
    [
      `entry waiting time, ${u} (mean / max)`,
      `${fmt(s.waitingTime.entry.mean)} / ${fmt(s.waitingTime.entry.max)}`,
      u === 'ms' ? `≤ ${s.bounds.waitingTimeEntry} message delays` : `≤ ${s.bounds.waitingTimeEntry}`,
      status(s.boundsMet.waitingTimeEntry),
    ],
    [
      `exit waiting time, ${u} (mean / max)`,
      `${fmt(s.waitingTime.exit.mean)} / ${fmt(s.waitingTime.exit.max)}`,
      u === 'ms' ? `≤ ${s.bounds.waitingTimeExit} message delays` : `≤ ${s.bounds.waitingTimeExit}`,
      status(s.boundsMet.waitingTimeExit),
    ],
    ['messages sent (total)', fmt(s.messages.total), '', ''],
  );
  if (s.simulatedTime !== null) table.push(['simulated time, time units', fmt(s.simulatedTime), '', '']);
  table.push(
    ['wall time', `${fmt(s.wallMs / 1000, 2)} s`, '', ''],
    [
      s.simulatedTime !== null ? 'simulated messages per second' : 'messages per second',
      fmt(Math.round(s.messagesPerSecond)),
      '',
      '',
    ],
  );
  if (s.performance !== undefined) {
    const p = s.performance;
    table.push([
      'CPU time (delivered messages per CPU-second)',
      `${fmt(p.cpuSeconds, 2)} s (${fmt(Math.round(p.messagesPerCpuSecond))})`,
      '',
      p.rssBytes === undefined ? '' : `peak RSS ${fmt(p.rssBytes / 2 ** 20, 0)} MiB`,
    ]);
  }
  lines.push(table.toString(), ...footerLines(s));
  return lines.join('\n');
}

/** The lines above the table: the cluster, the workload, the initial configuration. */
function headerLines(s: RunSummary): string[] {
  const q =
    s.quorumSize === null
      ? ''
      : `, |Q| ${s.quorumSize.min === s.quorumSize.max ? s.quorumSize.max : `${s.quorumSize.min}–${s.quorumSize.max}`}`;
  return [
    s.structure === null
      ? `${s.algorithm}: n = ${s.n}, l = ${s.l}, k = ${s.k}${s.coterie ? `, ${s.coterieDescription ?? s.coterie}${q}` : ''}${s.mx ? `, mx = ${s.mx}` : ''}`
      : `${s.algorithm}: ${s.problem}; ${s.structure}${s.request === null ? '' : `; ${s.request}`}`,
    `${s.workload} workload, ${s.rounds} round(s) per process, seed ${s.seed}, delay ${s.delay}${
      s.workload === 'concurrent' ? `, think ${fmt(s.think)} / hold ${fmt(s.hold)} ${s.timeUnit}` : ''
    }`,
    `initial configuration: ${s.initial.description}`,
  ];
}

/** The lines below the table: where the bounds come from, when they apply, and what failed. */
function footerLines(s: RunSummary): string[] {
  const lines = [`bounds: ${s.bounds.source}`];
  if (s.workload === 'concurrent') {
    lines.push(
      '(bounds hold without contention — the sequential workload; under concurrency they are shown for reference)',
    );
  } else if (s.delay !== 'unit' && s.timeUnit === 'time units') {
    lines.push(
      '(waiting-time bounds assume unit delays; with this delay model they are shown for reference)',
    );
  }
  for (const d of s.deaths ?? []) lines.push(deathLine(d));
  if (s.deaths?.length) {
    lines.push(
      "entries / exits completed: every member's, from the shared log; messages and waiting times: from the members' reports only (a death ends the run before the others report)",
      `shared-log safety check over the ${fmt(s.sharedLogRecords)} records logged: ${fmt(s.safetyViolations)} violation(s)`,
    );
  }
  if (!s.ok) {
    if (s.violation !== null) {
      lines.push(
        `SAFETY VIOLATION at state change ${s.violation.step} (t = ${fmt(s.violation.time)}, P${s.violation.process}): ${s.violation.message}`,
      );
    }
    if (s.failure !== null) lines.push(`FAILED: ${s.failure}`);
    lines.push(`replay with: ${s.replay}`);
  }
  return lines;
}

/** One member's death: who, how, and how far it and the cluster had got (entries are counted from the shared log). */
function deathLine(d: MemberDeath): string {
  const how = d.signal ?? `exit code ${d.code ?? '?'}`;
  const where = d.step > 0 ? `shared-log record ${fmt(d.step)}, ` : '';
  return `P${d.id} DIED (${how}) after ${fmt(d.entries)} of its entries, ${fmt(d.clusterEntries)} in the cluster (${where}${fmt(d.afterMs / 1000, 2)} s into the run)`;
}
