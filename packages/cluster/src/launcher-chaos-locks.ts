/*
 * `runLocksChaos` (`critsec chaos locks`, issue 29): the chaos run of launcher-chaos.ts — the same
 * launches, kills, pauses, restarts and progress-budgeted waits — over named locks: each member
 * runs a `createLockManager` of `@critsec/locks` over its root endpoint and requests names drawn
 * from the seed, exclusive or shared (launcher-chaos-locks-member.ts); every exclusive hold
 * read-modify-writes the name's counter, every shared hold reads it; the check is per name
 * (chaos-locks-check.ts): no exclusive holder beside another holder, never more than k shared
 * holders, no lost update, no fencing violation.
 *
 * A kill restarts the whole cluster, fresh (`restart: 'cluster'`, the default here), or nothing
 * (`none`, crash-stop). A victim restarted alone from its store (`member`) is refused: a lock
 * manager's per-name instances are not in the durable member's one committed record (its layer
 * persists the one CS object of the runtime), so a member cannot rejoin with what it granted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError, createRng } from '@critsec/core';
import { parseInteger } from '@critsec/core/kit';
import { resolveCluster } from './algorithm-resolve.js';
import { readChaosRecords } from './chaos-check.js';
import { checkLocks, type LocksCheck, readLockLines } from './chaos-locks-check.js';
import { createLocalCluster } from './config-local.js';
import { chaos, faults } from './launcher-chaos.js';
import { newTally, type Plan } from './launcher-chaos-faults.js';
import type { ChaosOptions, ChaosPause, ChaosVictim } from './launcher-chaos-options.js';
import { chaosDir, initCounters, readCounter } from './launcher-chaos-rmw.js';

/** Options of {@link runLocksChaos}: those of `runChaos` but the algorithm, and the locks'. */
export interface LocksChaosOptions extends Omit<ChaosOptions, 'algorithm' | 'params' | 'restart'> {
  /** Number of members (default 5, at least 2). */
  readonly n?: number | string;
  /** How many names (`name-0 …`), an integer ≥ 1. */
  readonly names: number | string;
  /**
   * The share of the names that are shared names (h-out-of-k: a request on one is `shared` half the
   * time), in [0, 1] (default 0.5): the first round(ratio · names) names; the others are
   * exclusive-only (Maekawa).
   */
  readonly sharedRatio?: number | string;
  /** At most this many shared holders of a name together (the manager's `k`; default n − 1). */
  readonly k?: number | string;
  /** Fencing tokens on every grant (the manager's `fencing`). */
  readonly fencing?: boolean;
  /** Time-bounded grants, ms (the manager's `ttl`; implies fencing). */
  readonly ttl?: number | string;
  /** The manager's `driftMargin`, ms (default ttl / 10). */
  readonly driftMargin?: number | string;
  /**
   * Quorum reselection (the manager's `reselect`, issue 28 §4): a member's requests move to quorums
   * avoiding the members its transport suspects — what keeps a crash-stop run (`restart: 'none'`)
   * going once a member is dead. Refused by the manager where it is (see `createLockManager`).
   */
  readonly reselect?: boolean;
  /**
   * What a kill restarts: `cluster` (default) — every member, fresh, over the same counters and
   * shared log; `none` — nothing (crash-stop). `member` is refused (see the module comment).
   */
  readonly restart?: 'cluster' | 'none';
}

/** What {@link runLocksChaos} gives back. */
export interface LocksChaosResult {
  /** Members. */
  readonly n: number;
  /** Names (`name-0 …`). */
  readonly names: number;
  /** Shared names (the first ones). */
  readonly sharedNames: number;
  /** Shared holders of a name at most. */
  readonly k: number;
  /** Members SIGKILLed. */
  readonly kills: number;
  /** What a kill restarted: the whole cluster, or nothing (crash-stop). */
  readonly restart: 'cluster' | 'none';
  /** Whole-cluster restarts. */
  readonly restarts: number;
  /** Each victim and whether it held a lock. */
  readonly victims: readonly ChaosVictim[];
  /** Each member paused, whether it held a lock, and for how long. */
  readonly paused: readonly ChaosPause[];
  /** The per-name check (and its totals). */
  readonly check: LocksCheck;
  /** No overlap, no lost update, no fencing violation, and the members finished. */
  readonly ok: boolean;
  /** Why not. */
  readonly failure: string | null;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** The run directory, when kept (given, or the run failed). */
  readonly dir: string | null;
}

/** The member module (this package's `launcher-chaos-locks-member`, source or build). */
function memberModule(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return fileURLToPath(new URL(`./launcher-chaos-locks-member.${ext}`, import.meta.url));
}

/**
 * A number of ms, or a ratio, from the options.
 * @throws ConfigurationError for one that is not a finite number within [min, max].
 */
function number(name: string, value: number | string, min: number, max = Number.POSITIVE_INFINITY): number {
  const x = Number(value);
  if (!(Number.isFinite(x) && x >= min && x <= max)) {
    throw new ConfigurationError(
      `critsec chaos locks: --${name} must be a number in [${min}, ${max}], got ${String(value)}`,
    );
  }
  return x;
}

/** The lock manager's settings every member gets. */
function lockSettings(o: LocksChaosOptions, n: number) {
  const names = parseInteger('names', o.names, 1);
  const sharedNames = Math.round(names * number('shared-ratio', o.sharedRatio ?? 0.5, 0, 1));
  const k = o.k === undefined ? n - 1 : parseInteger('k', o.k, 1);
  if (k >= n) throw new ConfigurationError(`critsec chaos locks: --k must be below n = ${n}, got ${k}`);
  return {
    names,
    sharedNames,
    k,
    ...(o.fencing === true ? { fencing: true } : {}),
    ...(o.ttl === undefined ? {} : { ttl: number('ttl', o.ttl, 1) }),
    ...(o.driftMargin === undefined ? {} : { driftMargin: number('driftMargin', o.driftMargin, 0) }),
    ...(o.reselect === true ? { reselect: true } : {}),
  };
}

/** Validates the options, writes the cluster and a counter per name. */
async function plan(
  options: LocksChaosOptions,
): Promise<Plan & { readonly locks: ReturnType<typeof lockSettings> }> {
  if ((options.restart as string | undefined) === 'member') {
    throw new ConfigurationError(
      'critsec chaos locks: a member restarted alone cannot rejoin (a lock manager is not a durable member: its per-name instances are not in the member store); restart the whole cluster after each kill (--restart cluster, the default here) or none (--no-restart)',
    );
  }
  const n = parseInteger('n', options.n ?? 5, 2);
  const locks = lockSettings(options, n);
  const stallTimeoutMs = parseInteger('stall-timeout', options.stallTimeoutMs ?? 60_000, 1);
  const callTimeoutMs = parseInteger('call-timeout', options.callTimeoutMs ?? 120_000, 1);
  const f = faults({ ...options, restart: options.restart ?? 'cluster' }, n, {
    callTimeoutMs,
    stallTimeoutMs,
  });
  const seed = parseInteger('seed', options.seed ?? 1, 0);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'critsec-chaos-locks-'));
  const chaosFiles = chaosDir(dir);
  initCounters(chaosFiles, locks.names);
  const module = memberModule();
  const { path } = await createLocalCluster({
    dir,
    n,
    algorithm: module,
    params: {},
    bounds: { l: 0, k: 1 }, // the members' own CS object, never called: the locks are checked per name
    workload: {
      rounds: 0,
      module,
      settings: {
        dir: chaosFiles,
        log: join(dir, 'shared.log'),
        seed,
        thinkMs: options.thinkMs ?? 2,
        holdMs: options.holdMs ?? 1,
        ...locks,
        ...(options.fencedStore === false ? { fencedStore: false } : {}),
      },
    },
    deadlines: { callTimeoutMs, peerDownTimeoutMs: f.restart === 'none' ? 86_400_000 : stallTimeoutMs },
  });
  return {
    // the members' own (never called) CS object: Plan's n, and k = 1 — no slot claims
    c: resolveCluster({ algorithm: 'mutex', n }),
    ...f,
    restartAfterMs: parseInteger('restart-after', options.restartAfterMs ?? 200, 0),
    stallTimeoutMs,
    rng: createRng(seed),
    dir,
    chaos: chaosFiles,
    configPath: path,
    options: { ...options, algorithm: 'locks', restart: f.restart },
    locks,
  };
}

/** Why a checked run is not ok, or null. */
function brokenBy(check: LocksCheck, k: number): string | null {
  if (check.safetyViolations > 0)
    return `${check.safetyViolations} overlap(s) (an exclusive holder beside another, or more than k = ${k} shared): ${check.firstViolation}`;
  if (check.lostUpdates > 0) return `${check.lostUpdates} update(s) lost`;
  if (check.fencingViolations > 0)
    return `${check.fencingViolations} fencing violation(s): ${check.firstFencingViolation}`;
  if (check.malformedRmws > 0) return `${check.malformedRmws} malformed rmw record(s)`;
  return null;
}

/**
 * Runs a chaos test of named locks (see the module comment) and checks it per name.
 * @throws ConfigurationError for invalid options (`restart: 'member'` included); ChaosStuckError
 *   (code `CHAOS_STUCK`) when no lock is granted in the whole cluster for `stallTimeoutMs` or the
 *   members' run ends before the chaos is done — the members are killed first, the run directory
 *   kept; AbortError on `signal`. After a crash-stop kill a stall is the run's finding, as in
 *   `runChaos`: the result is not ok, its `failure` saying `stuck after crash-stop`.
 */
export async function runLocksChaos(options: LocksChaosOptions): Promise<LocksChaosResult> {
  const t0 = Date.now();
  const p = await plan(options);
  const t = newTally();
  const failure = await chaos(p, t);
  const logPath = join(p.dir, 'shared.log');
  const check = checkLocks({
    lines: readLockLines(logPath),
    chaos: readChaosRecords(logPath),
    counters: Array.from({ length: p.locks.names }, (_, x) => readCounter(p.chaos, x)),
    k: p.locks.k,
  });
  const why = brokenBy(check, p.locks.k) ?? failure;
  const keep = options.dir !== undefined || why !== null;
  if (!keep) rmSync(p.dir, { recursive: true, force: true });
  return {
    n: p.c.n,
    names: p.locks.names,
    sharedNames: p.locks.sharedNames,
    k: p.locks.k,
    kills: t.kills,
    restart: p.restart === 'none' ? 'none' : 'cluster',
    restarts: t.restarts,
    victims: t.victims,
    paused: t.paused,
    check,
    ok: why === null,
    failure: why,
    durationMs: Date.now() - t0,
    dir: keep ? p.dir : null,
  };
}
