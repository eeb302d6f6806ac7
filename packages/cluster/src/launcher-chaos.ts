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
 * - `none` (crash-stop, issue 28): nothing; the victim stays dead, the others go on.
 * A killed member's slot claims are released before anything restarts. Pauses (issue 28),
 * interleaved with the kills in a seeded order, SIGSTOP a holder for `pauseMs` and SIGCONT it
 * (launcher-chaos-faults.ts). A CS with tenures (issue 28: Maekawa with `fencing` or a `ttl`) writes
 * through a fencing-aware counter (launcher-chaos-fence.ts) and the check counts fencing
 * violations and expired grants (chaos-fencing.ts). After the last fault the runner waits for more entries, writes the
 * stop file, lets the members finish (crash-stop: kills the living, who cannot pass the finish
 * barrier without the dead), and checks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbortError, ConfigurationError, createRng } from '@critsec/core';
import { parseChoice, parseInteger } from '@critsec/core/kit';
import { ALGORITHMS, type AnyDescriptor, findAlgorithm, resolveCluster } from './algorithm-resolve.js';
import { checkChaos, readChaosRecords } from './chaos-check.js';
import { createLocalCluster } from './config-local.js';
import { launchCluster, SHARED_LOG_CHECK_FAILED } from './launcher.js';
import { EPOCH_FILE, STOP_FILE } from './launcher-chaos-member.js';
import {
  killRound,
  type Launched,
  nextFault,
  type Plan,
  pauseRound,
  report,
  sleep,
  newTally,
  type Tally,
} from './launcher-chaos-faults.js';
import type { ChaosOptions, ChaosResult } from './launcher-chaos-options.js';
import { chaosDir, initCounters, readCounter } from './launcher-chaos-rmw.js';
import { ChaosStuckError, EntryWatch } from './launcher-chaos-watch.js';
import { readSharedLog } from './shared-log.js';

export type {
  ChaosOptions,
  ChaosPause,
  ChaosProgress,
  ChaosResult,
  ChaosVictim,
} from './launcher-chaos-options.js';

/** A crash-stop run's `peerDownTimeoutMs`: a day — a dead peer is no reason for the living to end. */
const CRASH_STOP_PEER_DOWN_MS = 86_400_000;

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

/** The faults' options: the restart, the kills a crash-stop run may make, the pauses. */
export function faults(
  options: Pick<ChaosOptions, 'kills' | 'restart' | 'pauseMs' | 'pauses'>,
  n: number,
  deadlines: { readonly callTimeoutMs: number; readonly stallTimeoutMs: number },
): Pick<Plan, 'kills' | 'restart' | 'pauseMs' | 'pauses'> {
  const kills = parseInteger('kills', options.kills, 0);
  const restart = parseChoice('restart', options.restart ?? 'member', ['member', 'cluster', 'none'] as const);
  if (restart === 'none' && kills > Math.floor((n - 1) / 2)) {
    throw new ConfigurationError(
      `critsec chaos: --no-restart keeps a majority of the ${n} members alive, so at most ${Math.floor((n - 1) / 2)} kills; got ${kills}`,
    );
  }
  if (options.pauseMs === undefined) {
    if (options.pauses !== undefined)
      throw new ConfigurationError('critsec chaos: --pauses needs --pause <ms>');
    return { kills, restart, pauseMs: 0, pauses: 0 };
  }
  const pauseMs = parseInteger('pause', options.pauseMs, 1);
  const limit = Math.min(deadlines.callTimeoutMs, deadlines.stallTimeoutMs);
  if (pauseMs >= limit) {
    throw new ConfigurationError(
      `critsec chaos: --pause ${pauseMs} ms must be shorter than --call-timeout (${deadlines.callTimeoutMs} ms) and --stall-timeout (${deadlines.stallTimeoutMs} ms): the paused member's peers would give up on it`,
    );
  }
  const pauses = parseInteger('pauses', options.pauses ?? Math.max(1, kills), 1);
  return { kills, restart, pauseMs, pauses };
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
  const stallTimeoutMs = parseInteger('stall-timeout', options.stallTimeoutMs ?? 60_000, 1);
  const callTimeoutMs = parseInteger('call-timeout', options.callTimeoutMs ?? 120_000, 1);
  const f = faults(options, c.n, { callTimeoutMs, stallTimeoutMs });
  if (f.restart === 'member') refuseWithoutRecovery(findAlgorithm(c.algorithm));
  const restartAfterMs = parseInteger('restart-after', options.restartAfterMs ?? 200, 0);
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
        ...(options.fencedStore === false ? { fencedStore: false } : {}),
      },
    },
    // crash-stop: a dead peer stays down, which is no reason for the living to end
    deadlines: {
      callTimeoutMs,
      peerDownTimeoutMs: f.restart === 'none' ? CRASH_STOP_PEER_DOWN_MS : stallTimeoutMs,
    },
    // a victim restarted alone rejoins from its store (`--recover`, sessions resumed)
    ...(f.restart === 'member' ? { durability: true as const } : {}),
  });
  return {
    c,
    ...f,
    restartAfterMs,
    stallTimeoutMs,
    rng: createRng(seed),
    dir,
    chaos,
    configPath: path,
    options,
  };
}

/** Launches the members once (the epoch file first); `watch` follows their entries. */
function launch(p: Plan, t: Tally): Launched {
  writeFileSync(join(p.chaos, EPOCH_FILE), String(t.kills)); // a relaunch follows a kill: it grows
  const run = launchCluster({
    configPath: p.configPath,
    timeoutMs: 24 * 3_600_000, // the stall deadline and the members' own deadlines bound the run
    onOutput: (id, stream, line) => {
      if (stream === 'stderr' && line.trim() !== '') p.options.onMemberOutput?.(id, line);
    },
  });
  const watch = new EntryWatch(p.c.n);
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

/** Runs the launches, faults and restarts; resolves to the last launch's reason to end. */
export async function chaos(p: Plan, t: Tally): Promise<string | null> {
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
  let last = 'the launch';
  try {
    while (t.kills < p.kills || t.paused.length < p.pauses) {
      const need = 1 + p.rng.int(2 * p.c.n);
      const fault = nextFault(p, t);
      const which = fault === 'kill' ? `kill ${t.kills + 1}` : `pause ${t.paused.length + 1}`;
      await wait(need, () => `before ${which} (waiting for ${need} entries after ${last})`);
      launched.watch.entries = 0;
      if (fault === 'pause') {
        await pauseRound(p, t, launched.run, launched.watch);
      } else {
        await killRound(p, t, launched.run, launched.watch);
        if (p.restart !== 'none') launched = await restartRound(p, t, launched);
      }
      last = p.restart === 'none' || fault === 'pause' ? which : `restart ${t.restarts}`;
    }
    const need = 1 + p.rng.int(2 * p.c.n);
    await wait(need, () => `after ${last} (waiting for ${need} entries before the end)`);
  } catch (err) {
    await launched.run.stop();
    // crash-stop: the living stuck without the dead is a finding of the run, checked like any end
    if (t.dead.size > 0 && err instanceof ChaosStuckError) return `stuck after crash-stop: ${err.message}`;
    throw err;
  }
  report(p, t, 'finishing');
  if (t.dead.size > 0) {
    // crash-stop: the dead never pass the members' finish barrier, so the living are killed
    await launched.run.stop();
    return null;
  }
  writeFileSync(join(p.chaos, STOP_FILE), '');
  const result = await launched.run.done;
  // the launcher's own check of the shared log is checkChaos's overlap part, which also knows
  // which overlaps an expired grant explains (issue 28): it is the judge of the log
  if (result.ok || result.reason?.startsWith(SHARED_LOG_CHECK_FAILED) === true) return null;
  return result.reason ?? 'the members did not finish';
}

/**
 * Runs a chaos test (see the module comment) and checks it.
 * @throws ConfigurationError for an algorithm that is not a global (l,k)-CS, or invalid
 *   options; ChaosStuckError (code `CHAOS_STUCK`) when no entry completes in the whole cluster
 *   for `stallTimeoutMs` or the members' run ends before the chaos is done — the members are
 *   killed first, the run directory kept; AbortError on `signal`. After a crash-stop kill
 *   (`restart: 'none'`) a stall is no exception: the living are killed, the log is checked, and
 *   the result is not ok, its `failure` saying `stuck after crash-stop` (the algorithm did not
 *   go on without the dead member — what quorum reselection is for).
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const t0 = Date.now();
  const p = await plan(options);
  const t = newTally();
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
        : check.fencingViolations > 0
          ? `${check.fencingViolations} fencing violation(s): ${check.firstFencingViolation}`
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
    paused: t.paused,
    check,
    ok: why === null,
    failure: why,
    durationMs: Date.now() - t0,
    dir: keep ? p.dir : null,
  };
}
