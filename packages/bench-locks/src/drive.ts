/**
 * Driving clients in this process: each client runs `warmup` untimed rounds, then `rounds`
 * timed ones, back to back (no think or hold time); several clients run concurrently on this
 * event loop. A round is whatever the client does once: acquire + release of a lock, entry +
 * exit of a CS object, or one round trip.
 */
import type { CpuClock } from './cpu.js';
import { now, type TimedRound } from './stats.js';

/** One round of a client (acquire and release, or one round trip); rejects on failure. */
export type Round = () => Promise<void>;

/** How many rounds each client runs. */
export interface RoundCounts {
  /** Untimed rounds first (JIT, connection warm-up). */
  readonly warmup: number;
  /** Timed rounds. */
  readonly rounds: number;
}

/** Runs one client's rounds and returns its timed rounds. */
export async function runRounds(round: Round, counts: RoundCounts): Promise<TimedRound[]> {
  for (let i = 0; i < counts.warmup; i++) await round();
  const timed: TimedRound[] = [];
  for (let i = 0; i < counts.rounds; i++) {
    const start = now();
    await round();
    timed.push({ start, end: now() });
  }
  return timed;
}

/** The timed rounds of each client, and the CPU they cost. */
export interface ClientsRun {
  /** Per client, its timed rounds. */
  readonly timed: TimedRound[][];
  /**
   * CPU time per timed round, ms (all clients' timed rounds together, measured by the `clock`
   * given to {@link runClients}; `undefined` without one).
   */
  readonly cpuMsPerRound: number | undefined;
}

/**
 * Runs every client concurrently: first all their warm-up rounds, then, once every client has
 * warmed up, all their timed rounds — with `clock`, the CPU time of the timed phase is measured.
 */
export async function runClients(
  rounds: readonly Round[],
  counts: RoundCounts,
  clock?: CpuClock,
): Promise<ClientsRun> {
  await Promise.all(rounds.map((r) => runRounds(r, { warmup: counts.warmup, rounds: 0 })));
  const before = await clock?.();
  const timed = await Promise.all(rounds.map((r) => runRounds(r, { warmup: 0, rounds: counts.rounds })));
  const after = await clock?.();
  const total = timed.reduce((sum, t) => sum + t.length, 0);
  return {
    timed,
    cpuMsPerRound: before === undefined || after === undefined ? undefined : (after - before) / total,
  };
}
