/**
 * The workload of the "1,000 names" scenario (issue 29), the same for every system: C clients,
 * each acquiring and releasing one lock after another (no think or hold time), in sweeps over
 * the `names` names: number the acquisitions of all clients i = r·C + g (client g's r-th); the
 * i-th takes π_s[i mod names] where π_s is sweep s = ⌊i / names⌋'s own seeded random order of the
 * names. Every name is used once per sweep of `names` acquisitions (all 1,000 are in use even
 * when etcd runs a tenth of the rounds), by a different client from one sweep to the next (a
 * fixed order would tie each name to the client g ≡ its position mod C), clients at the same step
 * never share a name, and the sequence is the same whichever system the clients drive — critsec
 * members, Redis and etcd see the same names in the same order. (Uniform draws would leave 1/e
 * of the names unused at one acquisition per name.)
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
  /** Seed of the sweeps' orders (sweep s: `createRng(seed + s)`). */
  readonly seed: number;
  /** C, the clients of the phase in all (over every member). */
  readonly clients: number;
}

/** π_s: the names 0 … names − 1 in the seeded random order of sweep `s` of `phase` (Fisher–Yates). */
function order(phase: NamesPhase, s: number): number[] {
  const rng = createRng(phase.seed + s);
  const pi = Array.from({ length: phase.names }, (_, i) => i);
  for (let i = pi.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [pi[i], pi[j]] = [pi[j]!, pi[i]!];
  }
  return pi;
}

/** The generator of client `g`'s names in `phase`: the i-th acquisition of all, i = r·C + g, takes π_s[i mod names], s = ⌊i / names⌋. */
function nameSequence(phase: NamesPhase, g: number): () => string {
  const sweeps = new Map<number, number[]>();
  let r = 0;
  return () => {
    const i = r++ * phase.clients + g;
    const s = Math.floor(i / phase.names);
    let pi = sweeps.get(s);
    if (pi === undefined) {
      pi = order(phase, s);
      sweeps.clear(); // a client moves on to the next sweep and never back
      sweeps.set(s, pi);
    }
    return `${phase.prefix}${pi[i % phase.names]}`;
  };
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

/** The distinct names the clients of `phase` use (for the memory per name). */
export function distinctNames(phase: NamesPhase): number {
  const seen = new Set<string>();
  for (let g = 0; g < phase.clients; g++) {
    const next = nameSequence(phase, g);
    for (let r = 0; r < phase.rounds; r++) seen.add(next());
  }
  return seen.size;
}
