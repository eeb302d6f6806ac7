/*
 * `critsec chaos locks` (issue 29): `runLocksChaos` of @critsec/cluster — n members over mutual TLS
 * on this machine, each with a `@critsec/locks` manager over its root endpoint, requesting
 * `--names` names (the first `--shared-ratio` of them shared names, h-out-of-k) while they are
 * SIGKILLed `--kills` times (the whole cluster restarts, fresh, after each) or SIGSTOPped
 * (`--pause`); every exclusive hold read-modify-writes the name's counter, every shared hold reads
 * it; checked per name: no exclusive holder beside another holder, at most k shared holders, no
 * lost update, no fencing violation (`--ttl` / `--fencing true`: the fencing-aware counter, or the
 * plain one with `--no-fenced-store`). A summary with per-name totals (or `--json`), exit code 1 on
 * a violation, a lost update or a stuck run.
 */
import { type ChaosProgress, type LocksChaosResult, runLocksChaos } from '@critsec/cluster';
import { ConfigurationError } from '@critsec/core';
import type { CommandContext, CommandOptions } from './commands.js';
import { EXIT } from './exit-codes.js';

/** The lock manager's options `critsec chaos locks` takes among the algorithms' parameter flags. */
const LOCK_FLAGS = new Set(['k', 'ttl', 'fencing', 'driftMargin', 'reselect']);

/** One name's totals in the `--json` object. */
interface NameSummary {
  readonly name: string;
  readonly shared: boolean;
  readonly holds: number;
  readonly exclusiveHolds: number;
  readonly sharedHolds: number;
  readonly completedRmws: number;
  readonly violations: number;
  readonly lostUpdates: number;
  readonly fencingViolations: number;
  readonly expiredGrants: number;
  readonly staleRejected: number;
}

/** The `--json` object of `critsec chaos locks`: `critsec chaos`'s fields, and per-name totals. */
function locksSummary(r: LocksChaosResult, seed: number, fencedStore: boolean) {
  const c = r.check;
  const perName: NameSummary[] = c.names.map((n, x) => ({
    name: `name-${x}`,
    shared: x < r.sharedNames,
    holds: n.holds,
    exclusiveHolds: n.exclusive,
    sharedHolds: n.shared,
    completedRmws: n.completedRmws,
    violations: n.violations,
    lostUpdates: n.lostUpdates,
    fencingViolations: n.fencingViolations,
    expiredGrants: n.expiredGrants,
    staleRejected: n.staleRejected,
  }));
  return {
    algorithm: 'locks',
    n: r.n,
    names: r.names,
    sharedNames: r.sharedNames,
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
    exclusiveHolds: c.exclusive,
    sharedHolds: c.shared,
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
    longestStallMs: c.longestStallMs,
    perName,
    ok: r.ok,
    failure: r.failure,
    durationMs: r.durationMs,
    dir: r.dir,
  };
}

/** The summary in words: the totals, then one line per name held. */
function formatLocksSummary(s: ReturnType<typeof locksSummary>): string {
  const restarts = s.restart === 'none' ? 'no restart (crash-stop)' : `${s.restarts} restarts of the cluster`;
  const pauses = s.pauses === 0 ? '' : `, ${s.pauses} pauses (${s.holdersPaused} of a holder)`;
  const names = s.perName
    .filter((n) => n.holds > 0)
    .map(
      (n) =>
        `    ${n.name.padEnd(10)} ${n.shared ? 'shared   ' : 'exclusive'} ${String(n.holds).padStart(5)} holds (${n.exclusiveHolds} x, ${n.sharedHolds} s), ${n.violations} violations, ${n.lostUpdates} lost`,
    );
  return [
    `critsec chaos locks (n = ${s.n}, ${s.names} names, ${s.sharedNames} shared with k = ${s.k}, seed ${s.seed}): ${s.kills} kills (${s.holdersKilled} of a holder), ${restarts}${pauses}`,
    `  holds                      ${s.entries} (${s.exclusiveHolds} exclusive, ${s.sharedHolds} shared)`,
    `  read-modify-writes         ${s.completedRmws} (${s.unloggedWrites} seen without their record)`,
    `  safety violations          ${s.safetyViolations} (per name: an exclusive holder beside another, or more than k shared)`,
    `  lost updates               ${s.lostUpdates}`,
    ...(s.tenures === 0
      ? []
      : [
          `  fencing violations         ${s.fencingViolations} (over ${s.tenures} holds with a token)`,
          `  expired grants             ${s.expiredGrants} (${s.expiredOverlaps} overlaps they explain)`,
          `  stale operations rejected  ${s.staleRejected} (${s.fencedStore ? 'fencing-aware counter' : 'plain counter: none rejected'})`,
        ]),
    `  longest stall              ${s.longestStallMs} ms`,
    '  per name:',
    ...names,
    `  wall clock                 ${(s.durationMs / 1000).toFixed(1)} s`,
    s.ok ? '  ok' : `  FAILED: ${s.failure}${s.dir === null ? '' : ` (run directory ${s.dir})`}`,
  ].join('\n');
}

/**
 * `--fencing` (or `--reselect`) from the command line.
 * @throws ConfigurationError for a value other than true or false.
 */
function bool(name: string, value: unknown): boolean {
  if (value === 'true' || value === true) return true;
  if (value === 'false' || value === false) return false;
  throw new ConfigurationError(`--${name} must be true or false, got ${String(value)}`);
}

/**
 * `--reselect` from the command line (the descriptors' on|off, or true|false).
 * @throws ConfigurationError for another value.
 */
function onOff(name: string, value: unknown): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  return bool(name, value);
}

/**
 * The action of `critsec chaos locks`: runs the chaos test of named locks, prints the summary,
 * sets the exit code.
 * @throws ConfigurationError for a parameter flag the lock manager does not take, or `--names` missing.
 */
export async function locksChaosAction(
  ctx: CommandContext,
  o: CommandOptions,
  common: {
    readonly paramFlags: readonly string[];
    readonly restartGiven: boolean;
    readonly means: { readonly thinkMs: number; readonly holdMs: number };
    readonly onProgress: ((p: ChaosProgress) => void) | undefined;
  },
): Promise<void> {
  const other = common.paramFlags.filter((f) => o[f] !== undefined && !LOCK_FLAGS.has(f));
  if (other.length > 0 || o.param !== undefined) {
    throw new ConfigurationError(
      `critsec chaos locks takes --k, --ttl, --fencing, --driftMargin and --reselect of the lock manager; not ${other.map((f) => `--${f}`).join(', ') || '--param'}`,
    );
  }
  if (o.names === undefined) throw new ConfigurationError('critsec chaos locks needs --names <N>');
  if (common.restartGiven && o.restart === 'member') {
    throw new ConfigurationError(
      'critsec chaos locks: --restart member is refused — a lock manager is not a durable member (its per-name instances are not in the member store); use --restart cluster (the default here) or --no-restart',
    );
  }
  const json = o.json === true;
  const say = o.progress !== false;
  const seed = Number(o.seed);
  const result = await runLocksChaos({
    ...(o.n === undefined ? {} : { n: String(o.n) }),
    names: String(o.names),
    ...(o.sharedRatio === undefined ? {} : { sharedRatio: String(o.sharedRatio) }),
    ...(o.k === undefined ? {} : { k: String(o.k) }),
    ...(o.ttl === undefined ? {} : { ttl: String(o.ttl) }),
    ...(o.fencing === undefined ? {} : { fencing: bool('fencing', o.fencing) }),
    ...(o.driftMargin === undefined ? {} : { driftMargin: String(o.driftMargin) }),
    ...(o.reselect === undefined ? {} : { reselect: onOff('reselect', o.reselect) }),
    kills: String(o.kills),
    restart: o.restart === false ? 'none' : 'cluster',
    ...(o.pause === undefined ? {} : { pauseMs: String(o.pause) }),
    ...(o.pauses === undefined ? {} : { pauses: String(o.pauses) }),
    restartAfterMs: String(o.restartAfter),
    seed: String(o.seed),
    ...(o.fencedStore === false ? { fencedStore: false } : {}),
    ...common.means,
    callTimeoutMs: String(o.callTimeout),
    stallTimeoutMs: String(o.stallTimeout),
    ...(typeof o.dir === 'string' ? { dir: o.dir } : {}),
    ...(common.onProgress === undefined ? {} : { onProgress: common.onProgress }),
    onMemberOutput: (id, line) => {
      if (say) ctx.err(`[P${id}] ${line}`);
    },
  });
  const s = locksSummary(result, seed, o.fencedStore !== false);
  ctx.out(json ? JSON.stringify(s, null, 2) : formatLocksSummary(s));
  if (!s.ok) ctx.err(`critsec chaos locks: ${s.failure} — seed ${seed}`);
  ctx.setExit(s.ok ? EXIT.ok : EXIT.failed);
}
