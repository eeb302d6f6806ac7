/*
 * `runChaos` (`critsec chaos`, issue 27): a cluster of real OS processes over mutual TLS whose
 * members are SIGKILLed again and again while they run a read-modify-write of a shared counter
 * under the lock, checked afterwards from the shared log as Jepsen checks a lock service
 * (chaos-check.ts).
 *
 * The victims — holders of the CS and arbiters alike — and the moments (after a number of
 * entries completed in the cluster, so the schedule is measured in progress, not time) are
 * drawn from a seeded generator. A kill restarts, after `restartAfterMs`:
 * - `member` (default): the victim alone (`ClusterRun.restart`), which rejoins from its store:
 *   the cluster is durable (`createLocalCluster({ durability: true })`), the launcher restarts
 *   it with `--recover`, its sessions resume and its CS object is rebuilt from its committed
 *   state, then `recover()` runs — the algorithm must have crash recovery;
 * - `cluster`: every member — the victim is killed, then every other member (each gets its
 *   `crashed` line in the shared log) — launched again, fresh, over the same counters and the
 *   same shared log (any algorithm).
 * A killed member's slot claims are released before anything restarts. After the last restart
 * the runner waits for more entries, writes the stop file, lets the members finish, and checks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbortError, ConfigurationError, createRng, type ParamValue, type Rng } from '@critsec/core';
import { parseChoice, parseInteger } from '@critsec/core/kit';
import { ALGORITHMS, type AnyDescriptor, findAlgorithm, resolveCluster } from './algorithm-resolve.js';
import type { ResolvedCluster } from './algorithm-resolved.js';
import { type ChaosCheck, checkChaos, readChaosRecords } from './chaos-check.js';
import { createLocalCluster } from './config-local.js';
import { type ClusterRun, launchCluster } from './launcher.js';
import { STOP_FILE } from './launcher-chaos-member.js';
import { chaosDir, initCounters, readCounter, releaseClaimsOf } from './launcher-chaos-rmw.js';
import { EntryWatch } from './launcher-chaos-watch.js';
import { readSharedLog } from './shared-log.js';

/** Options of {@link runChaos}. */
export interface ChaosOptions {
  /** A critsec algorithm's descriptor name with a global (l,k)-CS spec: `mutex`, `ricart-agrawala`, `kmutex`, `gcs`, `mutin`. */
  readonly algorithm: string;
  /** Number of processes (default: the descriptor's). */
  readonly n?: number | string;
  /** The algorithm's parameters by name (as `critsec cluster` takes them). */
  readonly params?: Readonly<Record<string, ParamValue | undefined>>;
  /** How many times a member is SIGKILLed, an integer ≥ 0. */
  readonly kills: number | string;
  /**
   * What a kill restarts (default `member`): `member` — the victim alone, from its store
   * (durable members, `ClusterRun.restart` with `--recover`; the algorithm must have crash
   * recovery); `cluster` — every member, fresh, once the victim and then the others are killed.
   */
  readonly restart?: 'member' | 'cluster';
  /** Wall-clock ms from a kill to the restart (default 200). */
  readonly restartAfterMs?: number | string;
  /** Seed of the victims, the moments and the members' think and hold times (default 1). */
  readonly seed?: number | string;
  /**
   * Deadline of one `entry()` or `exit()` in a member, ms (`callTimeoutMs`; default 120 000: a
   * member may wait for several victims to come back in turn, each a process start).
   */
  readonly callTimeoutMs?: number | string;
  /** The run is stuck when no entry completes in the whole cluster for this long, ms (default 60 000). */
  readonly stallTimeoutMs?: number | string;
  /** Mean think time OutCS and hold time InCS of a member, ms (default 2 and 1). */
  readonly thinkMs?: number;
  /** See {@link thinkMs}. */
  readonly holdMs?: number;
  /** Where to write the cluster, counters and shared log (default: a temporary directory, removed after a run that passed). */
  readonly dir?: string;
  /** Ends the run (its members killed) with `AbortError`. */
  readonly signal?: AbortSignal;
  /** Each step of the run, from the first launch on. */
  readonly onProgress?: (p: ChaosProgress) => void;
  /** A line a member wrote to stderr. */
  readonly onMemberOutput?: (id: number, line: string) => void;
}

/** A member killed by a chaos run. */
export interface ChaosVictim {
  /** Its process id. */
  readonly id: number;
  /** Whether it held the CS (between its `entry-done` and `exit-done` progress events). */
  readonly holder: boolean;
}

/** A step of a chaos run. */
export interface ChaosProgress {
  /** What happened: the members launched, an entry completed, a member killed, the cluster restarted, the members told to finish. */
  readonly kind: 'launched' | 'entry' | 'killed' | 'restarted' | 'finishing';
  /** Kills so far. */
  readonly kills: number;
  /** Restarts so far. */
  readonly restarts: number;
  /** Entries completed so far, in the whole run. */
  readonly entries: number;
  /** The member killed (`killed`), and whether it held the CS. */
  readonly victim?: ChaosVictim;
}

/** What {@link runChaos} gives back. */
export interface ChaosResult {
  /** The algorithm's name, n and the upper bound k the overlap check uses. */
  readonly algorithm: string;
  /** Number of processes. */
  readonly n: number;
  /** The upper bound of the CS (1: mutual exclusion). */
  readonly k: number;
  /** Members SIGKILLed (the victims). */
  readonly kills: number;
  /** What a kill restarted: the victim alone, or the whole cluster. */
  readonly restart: 'member' | 'cluster';
  /** Restarts (of the victim, or relaunches of the whole cluster). */
  readonly restarts: number;
  /** Each victim and whether it held the CS when killed. */
  readonly victims: readonly ChaosVictim[];
  /** The check of the shared log and the counters. */
  readonly check: ChaosCheck;
  /** No overlap, no lost update, no log out of order, and the members finished. */
  readonly ok: boolean;
  /** Why not, when not ok. */
  readonly failure: string | null;
  /** Wall-clock duration, ms. */
  readonly durationMs: number;
  /** The run directory, when it was kept (given, or the run failed). */
  readonly dir: string | null;
}

interface Plan {
  readonly c: ResolvedCluster;
  readonly kills: number;
  readonly restart: 'member' | 'cluster';
  readonly restartAfterMs: number;
  readonly stallTimeoutMs: number;
  readonly rng: Rng;
  readonly dir: string;
  readonly chaos: string;
  readonly configPath: string;
  readonly options: ChaosOptions;
}

/** The member module (this package's `launcher-chaos-member`, source or build). */
function memberModule(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return fileURLToPath(new URL(`./launcher-chaos-member.${ext}`, import.meta.url));
}

/**
 * A victim restarted alone rejoins from its store, so its algorithm must have crash recovery.
 * @throws ConfigurationError naming the ways out when `descriptor` has none.
 */
export function refuseWithoutRecovery(descriptor: AnyDescriptor): void {
  if (descriptor.crashRecovery === true) return;
  const have = ALGORITHMS.filter((d) => d.crashRecovery === true).map((d) => d.name);
  throw new ConfigurationError(
    `critsec chaos: ${descriptor.name} has no crash recovery, so a member restarted alone cannot rejoin; restart the whole cluster after each kill (restart: 'cluster', --restart cluster), or pick an algorithm that has it: ${have.join(', ')}`,
  );
}

/** Validates the options, writes the cluster and the counters. */
async function plan(options: ChaosOptions): Promise<Plan> {
  const c = resolveCluster({
    algorithm: options.algorithm,
    ...(options.n === undefined ? {} : { n: options.n }),
    ...(options.params === undefined ? {} : { params: options.params }),
  });
  if (c.spec.kind !== 'global') {
    throw new ConfigurationError(
      `critsec chaos checks a global (l,k)-CS, and ${c.algorithm} solves a ${c.spec.kind} problem; use mutex, ricart-agrawala, kmutex, gcs or mutin`,
    );
  }
  const kills = parseInteger('kills', options.kills, 0);
  const restart = parseChoice('restart', options.restart ?? 'member', ['member', 'cluster'] as const);
  if (restart === 'member') refuseWithoutRecovery(findAlgorithm(c.algorithm));
  const restartAfterMs = parseInteger('restart-after', options.restartAfterMs ?? 200, 0);
  const stallTimeoutMs = parseInteger('stall-timeout', options.stallTimeoutMs ?? 60_000, 1);
  const callTimeoutMs = parseInteger('call-timeout', options.callTimeoutMs ?? 120_000, 1);
  const seed = parseInteger('seed', options.seed ?? 1, 0);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'critsec-chaos-'));
  const chaos = chaosDir(dir);
  initCounters(chaos, c.k);
  const module = memberModule();
  const { path } = await createLocalCluster({
    dir,
    n: c.n,
    algorithm: module,
    params: { algorithm: c.algorithm, params: c.options },
    initial: [...c.initial],
    bounds: { l: c.l, k: c.k },
    workload: {
      rounds: 0,
      module,
      settings: {
        dir: chaos,
        log: join(dir, 'shared.log'),
        slots: c.k,
        seed,
        thinkMs: options.thinkMs ?? 2,
        holdMs: options.holdMs ?? 1,
      },
    },
    deadlines: { callTimeoutMs, peerDownTimeoutMs: stallTimeoutMs },
    // a victim restarted alone rejoins from its store (`--recover`, sessions resumed)
    ...(restart === 'member' ? { durability: true as const } : {}),
  });
  return {
    c,
    kills,
    restart,
    restartAfterMs,
    stallTimeoutMs,
    rng: createRng(seed),
    dir,
    chaos,
    configPath: path,
    options,
  };
}

/** The state of a run between its launches. */
interface Tally {
  kills: number;
  restarts: number;
  entries: number;
  readonly victims: ChaosVictim[];
  readonly restartTimes: number[];
}

function report(p: Plan, t: Tally, kind: ChaosProgress['kind'], victim?: ChaosProgress['victim']): void {
  p.options.onProgress?.({
    kind,
    kills: t.kills,
    restarts: t.restarts,
    entries: t.entries,
    ...(victim === undefined ? {} : { victim }),
  });
}

/** One launch of the members: the run, its entries, and its end (the reason). */
interface Launched {
  readonly run: ClusterRun;
  readonly watch: EntryWatch;
  readonly ended: Promise<string>;
}

/** Launches the members once; `watch` follows their entries. */
function launch(p: Plan, t: Tally): Launched {
  const run = launchCluster({
    configPath: p.configPath,
    timeoutMs: 24 * 3_600_000, // the stall deadline and the members' own deadlines bound the run
    onOutput: (id, stream, line) => {
      if (stream === 'stderr' && line.trim() !== '') p.options.onMemberOutput?.(id, line);
    },
  });
  const watch = new EntryWatch();
  run.onProgress((e) => {
    watch.see(e);
    if (e.event === 'entry-done') {
      t.entries++;
      report(p, t, 'entry');
    }
  });
  const ended = run.done.then((r) => r.reason ?? 'every member finished');
  report(p, t, 'launched');
  return { run, watch, ended };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Kills a victim — a holder half the time, when there is one — and, for a `cluster` restart, every other member; releases their claims. */
async function killRound(p: Plan, t: Tally, run: ClusterRun, watch: EntryWatch): Promise<void> {
  const n = p.c.n;
  const holders = [...watch.holders];
  const victim =
    holders.length > 0 && p.rng.next() < 0.5 ? holders[p.rng.int(holders.length)]! : p.rng.int(n);
  const holder = watch.holders.has(victim);
  await run.kill(victim);
  watch.forget(victim);
  t.kills++;
  t.victims.push({ id: victim, holder });
  report(p, t, 'killed', { id: victim, holder });
  releaseClaimsOf(p.chaos, p.c.k, victim);
  if (p.restart === 'member') return;
  for (let id = 0; id < n; id++) if (id !== victim) await run.kill(id);
  await run.stop();
  for (let id = 0; id < n; id++) releaseClaimsOf(p.chaos, p.c.k, id);
}

/** Restarts the victim (`member`) or the whole cluster (`cluster`), after `restartAfterMs`. */
async function restartRound(p: Plan, t: Tally, launched: Launched): Promise<Launched> {
  const { signal } = p.options;
  await sleep(p.restartAfterMs, signal);
  if (signal?.aborted) throw new AbortError('chaos run aborted', { cause: signal.reason });
  let next = launched;
  if (p.restart === 'member') {
    const victim = t.victims.at(-1)!.id;
    launched.run.restart(victim);
  } else {
    next = launch(p, t);
  }
  t.restarts++;
  t.restartTimes.push(Date.now());
  next.watch.entries = 0;
  report(p, t, 'restarted');
  return next;
}

/** Runs the launches, kills and restarts; resolves to the last launch's reason to end. */
async function chaos(p: Plan, t: Tally): Promise<string | null> {
  const { signal } = p.options;
  let launched = launch(p, t);
  const where = () => ({ kills: t.kills, restarts: t.restarts, entries: t.entries });
  const wait = (extra: number, what: () => string) =>
    launched.watch.until(extra, {
      stallTimeoutMs: p.stallTimeoutMs,
      what,
      ended: launched.ended,
      signal,
      where,
      dir: p.dir,
    });
  try {
    while (t.kills < p.kills) {
      const need = 1 + p.rng.int(2 * p.c.n);
      await wait(
        need,
        () =>
          `before kill ${t.kills + 1} (waiting for ${need} entries after ${t.restarts === 0 ? 'the launch' : `restart ${t.restarts}`})`,
      );
      await killRound(p, t, launched.run, launched.watch);
      launched = await restartRound(p, t, launched);
    }
    const need = 1 + p.rng.int(2 * p.c.n);
    await wait(need, () => `after restart ${t.restarts} (waiting for ${need} entries before the end)`);
  } catch (err) {
    await launched.run.stop();
    throw err;
  }
  writeFileSync(join(p.chaos, STOP_FILE), '');
  report(p, t, 'finishing');
  const result = await launched.run.done;
  return result.ok ? null : (result.reason ?? 'the members did not finish');
}

/**
 * Runs a chaos test (see the module comment) and checks it.
 * @throws ConfigurationError for an algorithm that is not a global (l,k)-CS, or invalid
 *   options; ChaosStuckError (code `CHAOS_STUCK`) when no entry completes in the whole cluster
 *   for `stallTimeoutMs` or the members' run ends before the chaos is done — the members are
 *   killed first, the run directory kept; AbortError on `signal`.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const t0 = Date.now();
  const p = await plan(options);
  const t: Tally = { kills: 0, restarts: 0, entries: 0, victims: [], restartTimes: [] };
  const failure = await chaos(p, t);
  const logPath = join(p.dir, 'shared.log');
  const check = checkChaos({
    records: readSharedLog(logPath).records,
    chaos: readChaosRecords(logPath),
    counters: Array.from({ length: p.c.k }, (_, s) => readCounter(p.chaos, s)),
    spec: p.c.spec,
    initial: p.c.initial,
    restartTimes: t.restartTimes,
  });
  const broken =
    check.safetyViolations > 0
      ? `${check.safetyViolations} overlap(s) beyond k = ${p.c.k}: ${check.firstViolation}`
      : check.lostUpdates > 0
        ? `${check.lostUpdates} update(s) lost`
        : check.sequenceErrors.length > 0 || check.malformedRmws > 0
          ? `the shared log is out of order: ${check.sequenceErrors[0] ?? `${check.malformedRmws} malformed rmw record(s)`}`
          : null;
  const why = broken ?? failure;
  const keep = options.dir !== undefined || why !== null;
  if (!keep) rmSync(p.dir, { recursive: true, force: true });
  return {
    algorithm: p.c.algorithm,
    n: p.c.n,
    k: p.c.k,
    kills: t.kills,
    restart: p.restart,
    restarts: t.restarts,
    victims: t.victims,
    check,
    ok: why === null,
    failure: why,
    durationMs: Date.now() - t0,
    dir: keep ? p.dir : null,
  };
}
