/*
 * `critsec chaos <algorithm>` (issue 27): `runChaos` of @critsec/cluster — n members over mutual
 * TLS on this machine, SIGKILLed `--kills` times (holders and arbiters alike, seeded) while they
 * read-modify-write a shared counter under the lock, restarted after `--restart-after` ms — and
 * the check of the shared log as Jepsen checks a lock service: no overlap beyond k, no lost
 * update, entries completed after every restart. Issue 28: `--pause <ms>` (`--pauses <p>` of
 * them) SIGSTOPs a holder and SIGCONTs it after that long; `--no-restart` is crash-stop (a victim
 * stays dead); with tenures (`mutex --fencing true` or `--ttl`) the counter is fencing-aware and
 * the summary adds fencing violations and expired grants (`--no-fenced-store`: the plain counter,
 * which loses updates under pauses past the ttl). A step line on stderr from the start, a summary (or `--json`), exit code 1 on a
 * violation, a lost update or a stuck run.
 */
import { type ChaosProgress, type ChaosResult, ALGORITHMS as DESCRIPTORS, runChaos } from '@critsec/cluster';
import { ConfigurationError } from '@critsec/core';
import { describeParams } from '@critsec/core/kit';
import type { Command } from 'commander';
import { locksChaosAction } from './chaos-locks.js';
import type { CommandContext, CommandOptions } from './commands.js';
import { EXIT } from './exit-codes.js';
import { addParameterFlags, clusterInput } from './options.js';

/** The `--json` object of `critsec chaos`. */
interface ChaosSummary {
  /** The algorithm, n, and the upper bound k the overlap check uses. */
  readonly algorithm: string;
  readonly n: number;
  readonly k: number;
  /** The seed of the victims, the moments and the members' think and hold times. */
  readonly seed: number;
  /** What a kill restarted: the victim (`member`), the whole cluster (`cluster`), or nothing (`none`: `--no-restart`). */
  readonly restart: 'member' | 'cluster' | 'none';
  /** Members SIGKILLed, and restarts. */
  readonly kills: number;
  readonly restarts: number;
  /** Of the kills, those of a member that held the CS. */
  readonly holdersKilled: number;
  /** Members paused (SIGSTOP, then SIGCONT after `--pause` ms), and of them those that held the CS. */
  readonly pauses: number;
  readonly holdersPaused: number;
  /** The longest a paused member stayed stopped, ms (0 without pauses). */
  readonly longestPauseMs: number;
  /** Entries completed in the whole run. */
  readonly entries: number;
  /** Read-modify-writes completed, and of them those seen without their record (killed after the write). */
  readonly completedRmws: number;
  readonly unloggedWrites: number;
  /** Overlaps beyond k the shared-log check proved. */
  readonly safetyViolations: number;
  /** Updates lost (see @critsec/cluster's README). */
  readonly lostUpdates: number;
  /** Overlaps of the code explained by an expired grant (a pause past the ttl; no violation on effects). */
  readonly expiredOverlaps: number;
  /** Entries that completed with a tenure (issue 28: `mutex` with `fencing` or a `ttl`; 0 otherwise). */
  readonly tenures: number;
  /** Valid-at-entry fencing tokens not above every earlier valid entry's. */
  readonly fencingViolations: number;
  /** CSs whose tenure expired before their exit. */
  readonly expiredGrants: number;
  /** Reads and writes the fencing-aware counter rejected for a stale token. */
  readonly staleRejected: number;
  /** Whether a CS with tenures wrote through the fencing-aware counter (`--no-fenced-store`: false). */
  readonly fencedStore: boolean;
  /** Configurations with fewer than l possibly InCS (information only under crashes). */
  readonly lowerBoundDips: number;
  /** The longest wall-clock interval with no entry completed in the whole cluster, ms. */
  readonly longestStallMs: number;
  /** Entries completed in the cluster after each restart, until the next kill or the end. */
  readonly entriesAfterEachRestart: readonly number[];
  /** No violation, no lost update, the members finished. */
  readonly ok: boolean;
  /** Why not. */
  readonly failure: string | null;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** The run directory when kept (`--dir`, or a failed run). */
  readonly dir: string | null;
}

/** The summary of a chaos result. */
function chaosSummary(r: ChaosResult, seed: number, fencedStore: boolean): ChaosSummary {
  const c = r.check;
  return {
    algorithm: r.algorithm,
    n: r.n,
    k: r.k,
    seed,
    restart: r.restart,
    kills: r.kills,
    restarts: r.restarts,
    holdersKilled: r.victims.filter((v) => v.holder).length,
    pauses: r.paused.length,
    holdersPaused: r.paused.filter((v) => v.holder).length,
    longestPauseMs: Math.max(0, ...r.paused.map((v) => v.stoppedMs)),
    entries: c.entries,
    completedRmws: c.completedRmws,
    unloggedWrites: c.unloggedWrites,
    safetyViolations: c.safetyViolations,
    lostUpdates: c.lostUpdates,
    expiredOverlaps: c.expiredOverlaps,
    tenures: c.tenures,
    fencingViolations: c.fencingViolations,
    expiredGrants: c.expiredGrants,
    staleRejected: c.staleRejected,
    fencedStore,
    lowerBoundDips: c.lowerBoundDips,
    longestStallMs: c.longestStallMs,
    entriesAfterEachRestart: c.entriesAfterEachRestart.map((a) => a.entries),
    ok: r.ok,
    failure: r.failure,
    durationMs: r.durationMs,
    dir: r.dir,
  };
}

/** The summary in words. */
function formatChaosSummary(s: ChaosSummary): string {
  const after = s.entriesAfterEachRestart;
  const least = after.length === 0 ? '—' : String(Math.min(...after));
  const restarts =
    s.restart === 'none'
      ? 'no restart (crash-stop)'
      : `${s.restarts} restarts of the ${s.restart === 'member' ? 'victim' : 'cluster'}`;
  const pauses =
    s.pauses === 0
      ? ''
      : `, ${s.pauses} pauses (${s.holdersPaused} of a holder, up to ${s.longestPauseMs} ms)`;
  return [
    `critsec chaos ${s.algorithm} (n = ${s.n}, k = ${s.k}, seed ${s.seed}): ${s.kills} kills (${s.holdersKilled} of a holder), ${restarts}${pauses}`,
    `  entries completed          ${s.entries}`,
    `  read-modify-writes         ${s.completedRmws} (${s.unloggedWrites} seen without their record)`,
    `  safety violations          ${s.safetyViolations} (overlaps beyond k = ${s.k})`,
    `  lost updates               ${s.lostUpdates}`,
    ...(s.tenures === 0
      ? []
      : [
          `  fencing violations         ${s.fencingViolations} (over ${s.tenures} entries with a token)`,
          `  expired grants             ${s.expiredGrants} (tenure expired before the exit; ${s.expiredOverlaps} overlap records they explain)`,
          `  stale operations rejected  ${s.staleRejected} (${s.fencedStore ? 'fencing-aware counter' : 'plain counter: none rejected'})`,
        ]),
    `  longest stall              ${s.longestStallMs} ms`,
    `  entries after a restart    at least ${least} (over ${after.length} restarts)`,
    `  wall clock                 ${(s.durationMs / 1000).toFixed(1)} s`,
    s.ok ? '  ok' : `  FAILED: ${s.failure}${s.dir === null ? '' : ` (run directory ${s.dir})`}`,
  ].join('\n');
}

/** A step line for each launch, kill and restart, and the entries at most once a second. */
function progressLines(ctx: CommandContext, kills: number): (p: ChaosProgress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (p.kind === 'entry') {
      if (now - last < 1_000) return;
      last = now;
      ctx.err(`  ${p.entries} entries completed (kills ${p.kills}/${kills})`);
      return;
    }
    last = now;
    const held = p.victim?.holder ? ' (holding the CS)' : '';
    const what =
      p.kind === 'killed'
        ? `kill ${p.kills}/${kills}: P${p.victim?.id}${held} SIGKILLed`
        : p.kind === 'paused'
          ? `pause ${(p.pauses ?? 0) + 1}: P${p.victim?.id}${held} SIGSTOPped`
          : p.kind === 'resumed'
            ? `pause ${p.pauses}: P${p.victim?.id} SIGCONTinued`
            : p.kind === 'restarted'
              ? `restart ${p.restarts}`
              : p.kind === 'launched'
                ? 'members launched'
                : 'faults done: the members finish';
    ctx.err(`  ${what} — ${p.entries} entries so far`);
  };
}

/** `critsec chaos <algorithm>`. */
export function chaosCommand(root: Command, ctx: CommandContext): void {
  addParameterFlags(
    root
      .command('chaos')
      .description(
        'Kill (SIGKILL) and restart members of a real cluster over mutual TLS on this machine, again and again, while they read-modify-write a shared counter under the lock; check from the shared log that the CS intervals never overlap beyond k and that no update is lost, as Jepsen checks a lock service.',
      )
      .argument(
        '<algorithm>',
        `one of ${DESCRIPTORS.map((d) => d.name).join(', ')} whose problem is a global (l,k)-CS (the others are refused), or locks: named locks of @critsec/locks (--names, --shared-ratio), checked per name`,
      )
      .option('--n <n>', 'number of processes (default 5)'),
  )
    .requiredOption('--kills <k>', 'how many times a member is SIGKILLed (holders and arbiters alike)')
    .option('--restart-after <ms>', 'wall-clock ms from a kill to the restart', '200')
    .option(
      '--restart <what>',
      'member: the victim alone, from its store (durable members; the algorithm must have crash recovery); cluster: every member restarts, fresh (any algorithm)',
      'member',
    )
    .option(
      '--no-restart',
      'crash-stop: a killed member stays dead (at most (n − 1)/2 kills: a majority stays alive)',
    )
    .option(
      '--pause <ms>',
      'also SIGSTOP a holder (any member when none holds the CS) and SIGCONT it after this many ms (shorter than --call-timeout and --stall-timeout)',
    )
    .option(
      '--pauses <p>',
      'how many pauses, interleaved with the kills in a seeded order (default: max(1, kills))',
    )
    .option(
      '--seed <s>',
      'seed of the victims, the moments of the kills and pauses, think and hold times',
      '1',
    )
    .option(
      '--no-fenced-store',
      'with tenures (mutex --fencing true or --ttl): write through the plain counter, which accepts stale tokens (shows that pauses past the ttl lose updates)',
    )
    .option('--names <n>', 'locks: how many names (name-0 …) the members request')
    .option(
      '--shared-ratio <r>',
      'locks: the share of the names that are shared names (h-out-of-k; a request on one is shared half the time), in [0, 1] (default 0.5)',
    )
    .option('--think <ms>', 'mean think time OutCS of a member, ms', '2')
    .option('--hold <ms>', 'mean hold time InCS of a member, ms, between its read and its write', '1')
    .option('--call-timeout <ms>', 'deadline of one entry() or exit() in a member', '120000')
    .option(
      '--stall-timeout <ms>',
      'the run is stuck when no entry completes in the whole cluster for this long (once every member is ready)',
      '60000',
    )
    .option(
      '--dir <dir>',
      'keep cluster.json, the counters and the shared log here (default: a temporary directory, kept only when the run fails)',
    )
    .option('--json', 'print the machine-readable summary on stdout (and nothing else)')
    .option('--no-progress', 'no step lines on stderr')
    .action((algorithm: string, o: CommandOptions, cmd: Command) =>
      algorithm === 'locks'
        ? locksChaosAction(ctx, o, {
            paramFlags: [...new Set(DESCRIPTORS.flatMap((d) => describeParams(d.params).map((p) => p.name)))],
            restartGiven: cmd.getOptionValueSource('restart') !== 'default',
            means: { thinkMs: nonNegative('think', o.think), holdMs: nonNegative('hold', o.hold) },
            onProgress: o.progress === false ? undefined : progressLines(ctx, Number(o.kills)),
          })
        : chaosAction(ctx, algorithm, o),
    );
}

/**
 * A mean time in ms from the command line.
 * @throws ConfigurationError for one that is not a finite number ≥ 0.
 */
function nonNegative(name: string, value: unknown): number {
  const ms = Number(value);
  if (!(Number.isFinite(ms) && ms >= 0)) {
    throw new ConfigurationError(`--${name} must be a number of ms ≥ 0, got ${String(value)}`);
  }
  return ms;
}

/** The action of `critsec chaos <algorithm>`: runs the chaos test, prints the summary, sets the exit code. */
async function chaosAction(ctx: CommandContext, algorithm: string, o: CommandOptions): Promise<void> {
  if (o.names !== undefined || o.sharedRatio !== undefined)
    throw new ConfigurationError('--names and --shared-ratio are options of critsec chaos locks');
  const json = o.json === true;
  const say = o.progress !== false;
  const kills = String(o.kills);
  if (say) ctx.err(`critsec chaos ${algorithm}: building the cluster`);
  const input = await clusterInput(algorithm, o, '5');
  const seed = Number(o.seed);
  const result = await runChaos({
    algorithm: input.algorithm,
    ...(input.n === undefined ? {} : { n: input.n }),
    params: input.params ?? {},
    kills,
    // commander's --no-restart sets restart to false
    restart: o.restart === false ? 'none' : (String(o.restart) as 'member' | 'cluster'),
    ...(o.pause === undefined ? {} : { pauseMs: String(o.pause) }),
    ...(o.pauses === undefined ? {} : { pauses: String(o.pauses) }),
    restartAfterMs: String(o.restartAfter),
    seed: String(o.seed),
    ...(o.fencedStore === false ? { fencedStore: false } : {}),
    thinkMs: nonNegative('think', o.think),
    holdMs: nonNegative('hold', o.hold),
    callTimeoutMs: String(o.callTimeout),
    stallTimeoutMs: String(o.stallTimeout),
    ...(typeof o.dir === 'string' ? { dir: o.dir } : {}),
    ...(say ? { onProgress: progressLines(ctx, Number(kills)) } : {}),
    onMemberOutput: (id, line) => {
      if (say) ctx.err(`[P${id}] ${line}`);
    },
  });
  const s = chaosSummary(result, seed, o.fencedStore !== false);
  ctx.out(json ? JSON.stringify(s, null, 2) : formatChaosSummary(s));
  if (!s.ok) ctx.err(`critsec chaos: ${s.failure} — seed ${seed}`);
  ctx.setExit(s.ok ? EXIT.ok : EXIT.failed);
}
