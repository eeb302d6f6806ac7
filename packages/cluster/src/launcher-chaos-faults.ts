/*
 * The faults of a chaos run (`runChaos`, launcher-chaos.ts), one round each: a kill (SIGKILL of
 * a victim — a holder half the time, when there is one — and, for a `cluster` restart, of every
 * other member) and a pause (SIGSTOP of a holder, or of any living member when none holds the
 * CS, for `pauseMs`, then SIGCONT); and the seeded choice of which comes next. The run's plan and
 * tally, which these rounds read and update, are declared here.
 */
import type { ProcessId, Rng } from '@critsec/core';
import type { ResolvedCluster } from './algorithm-resolved.js';
import type { ClusterRun } from './launcher.js';
import type { EntryWatch } from './launcher-chaos-watch.js';
import type { ChaosOptions, ChaosPause, ChaosProgress, ChaosVictim } from './launcher-chaos-options.js';
import { releaseStoreLocksOf } from './launcher-chaos-fence.js';
import { releaseClaimsOf } from './launcher-chaos-rmw.js';

/** A run's validated options and where its files are. */
export interface Plan {
  readonly c: ResolvedCluster;
  readonly kills: number;
  readonly restart: 'member' | 'cluster' | 'none';
  readonly restartAfterMs: number;
  /** Ms a paused member stays stopped (0: no pauses). */
  readonly pauseMs: number;
  readonly pauses: number;
  readonly stallTimeoutMs: number;
  readonly rng: Rng;
  readonly dir: string;
  readonly chaos: string;
  readonly configPath: string;
  readonly options: ChaosOptions;
}

/** The state of a run between its launches. */
export interface Tally {
  kills: number;
  restarts: number;
  entries: number;
  readonly victims: ChaosVictim[];
  readonly paused: ChaosPause[];
  readonly restartTimes: number[];
  /** Members killed and never restarted (crash-stop). */
  readonly dead: Set<ProcessId>;
}

/** The tally of a run that has not started: nothing killed, restarted, paused or entered. */
export function newTally(): Tally {
  return { kills: 0, restarts: 0, entries: 0, victims: [], paused: [], restartTimes: [], dead: new Set() };
}

/** One launch of the members: the run, its entries, and its end (the reason). */
export interface Launched {
  readonly run: ClusterRun;
  readonly watch: EntryWatch;
  readonly ended: Promise<string>;
}

/** Hands a step to the caller's `onProgress`. */
export function report(
  p: Plan,
  t: Tally,
  kind: ChaosProgress['kind'],
  victim?: ChaosProgress['victim'],
): void {
  p.options.onProgress?.({
    kind,
    kills: t.kills,
    restarts: t.restarts,
    entries: t.entries,
    ...(p.pauses > 0 ? { pauses: t.paused.length } : {}),
    ...(victim === undefined ? {} : { victim }),
  });
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The next fault: a kill or a pause. Only when both remain is the seeded generator drawn (a pause
 * with probability pauses left / faults left), so a run without pauses draws what it drew before.
 */
export function nextFault(p: Plan, t: Tally): 'kill' | 'pause' {
  const killsLeft = p.kills - t.kills;
  const pausesLeft = p.pauses - t.paused.length;
  if (pausesLeft <= 0) return 'kill';
  if (killsLeft <= 0) return 'pause';
  return p.rng.next() * (killsLeft + pausesLeft) < pausesLeft ? 'pause' : 'kill';
}

/** A holder half the time when there is one, else any member (any living one under crash-stop). */
function pickVictim(p: Plan, t: Tally, watch: EntryWatch, holderFirst: boolean): ProcessId {
  const holders = [...watch.holders].filter((id) => !t.dead.has(id));
  if (holders.length > 0 && (holderFirst || p.rng.next() < 0.5)) return holders[p.rng.int(holders.length)]!;
  if (p.restart !== 'none') return p.rng.int(p.c.n);
  const living = Array.from({ length: p.c.n }, (_, id) => id).filter((id) => !t.dead.has(id));
  return living[p.rng.int(living.length)]!;
}

/** Kills a victim and, for a `cluster` restart, every other member; releases their claims and store locks. */
export async function killRound(p: Plan, t: Tally, run: ClusterRun, watch: EntryWatch): Promise<void> {
  const n = p.c.n;
  const victim = pickVictim(p, t, watch, false);
  const holder = watch.holders.has(victim);
  await run.kill(victim);
  watch.forget(victim);
  t.kills++;
  t.victims.push({ id: victim, holder });
  if (p.restart === 'none') t.dead.add(victim);
  report(p, t, 'killed', { id: victim, holder });
  releaseClaimsOf(p.chaos, p.c.k, victim);
  releaseStoreLocksOf(p.chaos, victim);
  if (p.restart !== 'cluster') return;
  for (let id = 0; id < n; id++) if (id !== victim) await run.kill(id);
  await run.stop();
  for (let id = 0; id < n; id++) {
    releaseClaimsOf(p.chaos, p.c.k, id);
    releaseStoreLocksOf(p.chaos, id);
  }
}

/**
 * Stops a holder (any living member when none holds the CS) with SIGSTOP for `pauseMs`, then
 * continues it with SIGCONT — also when the run is aborted meanwhile.
 */
export async function pauseRound(p: Plan, t: Tally, run: ClusterRun, watch: EntryWatch): Promise<void> {
  const victim = pickVictim(p, t, watch, true);
  const holder = watch.holders.has(victim);
  const pid = run.pid(victim);
  if (pid === undefined) return;
  const t0 = performance.now();
  process.kill(pid, 'SIGSTOP');
  report(p, t, 'paused', { id: victim, holder });
  try {
    await sleep(p.pauseMs, p.options.signal);
  } finally {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // it died meanwhile (the run ended and killed it)
    }
  }
  t.paused.push({ id: victim, holder, stoppedMs: Math.round(performance.now() - t0) });
  report(p, t, 'resumed', { id: victim, holder });
}
