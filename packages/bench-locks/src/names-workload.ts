/**
 * The workload of the "1,000 names" scenario (issue 29), the same for every system: C clients,
 * each acquiring and releasing one lock after another (no think or hold time), the name of each
 * acquisition drawn uniformly at random from `names` names by the client's own seeded generator —
 * client g draws the same sequence whichever system it drives, so the critsec members, Redis and
 * etcd see the same names in the same order.
 */
import { createRng } from '@critsec/core';
import { now, type TimedRound } from './stats.js';

/** Acquires the lock `name` and releases it (one round); rejects on failure. */
export type NamedRound = (name: string) => Promise<void>;

/** One phase of the scenario for a set of clients. */
export interface NamesPhase {
  /** Prefix of every name (`one` for the single-name phase, `name-` for the 1,000-name phase). */
  readonly prefix: string;
  /** How many names the clients draw from (1: everyone on the name `prefix` + `0`). */
  readonly names: number;
  /** Rounds per client. */
  readonly rounds: number;
  /** Seed of the draws (client g draws from `createRng(seed + g)`). */
  readonly seed: number;
}

/** The generator of client `g`'s names in `phase`. */
function nameSequence(phase: NamesPhase, g: number): () => string {
  const rng = createRng(phase.seed + g);
  return () => `${phase.prefix}${phase.names === 1 ? 0 : rng.int(phase.names)}`;
}

/**
 * Runs the clients `firstClient … firstClient + clients − 1` of `phase` concurrently, each its
 * `phase.rounds` rounds back to back through `lock`; returns per client its timed rounds.
 */
export async function runNamedClients(
  phase: NamesPhase,
  firstClient: number,
  clients: number,
  lock: NamedRound,
): Promise<TimedRound[][]> {
  return Promise.all(
    Array.from({ length: clients }, async (_, j) => {
      const next = nameSequence(phase, firstClient + j);
      const timed: TimedRound[] = [];
      for (let r = 0; r < phase.rounds; r++) {
        const start = now();
        await lock(next());
        timed.push({ start, end: now() });
      }
      return timed;
    }),
  );
}

/** The distinct names `clients` clients draw in `phase` (for the memory per name). */
export function distinctNames(phase: NamesPhase, clients: number): number {
  const seen = new Set<string>();
  for (let g = 0; g < clients; g++) {
    const next = nameSequence(phase, g);
    for (let r = 0; r < phase.rounds; r++) seen.add(next());
  }
  return seen.size;
}
