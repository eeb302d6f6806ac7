/**
 * Driving clients in this process: each client runs `warmup` untimed rounds, then `rounds`
 * timed ones, back to back (no think or hold time); several clients run concurrently on this
 * event loop. A round is whatever the client does once: acquire + release of a lock, entry +
 * exit of a CS object, or one round trip.
 */
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

/** Runs every client concurrently; per client, its timed rounds. */
export function runClients(rounds: readonly Round[], counts: RoundCounts): Promise<TimedRound[][]> {
  return Promise.all(rounds.map((r) => runRounds(r, counts)));
}
