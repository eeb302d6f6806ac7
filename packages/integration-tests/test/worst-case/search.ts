/**
 * The worst-case search (issue 14): schedule spaces — exhaustive over invocation offsets and
 * per-link delays at n = 3, and seeded random ones — and a search that replays every schedule of
 * a space within a budget counted in schedules (never wall-clock time) and keeps, per measure, the
 * first schedule reaching the largest figure.
 */
import { createRng } from '@critsec/core';
import { CASES, type Figures, runSchedule, type Schedule } from './schedule.js';

/** A space of schedules: its size (when finite and enumerable) and the schedule at an index. */
export interface Space {
  /** Names the space in reports and fixtures (with the seed of a random one). */
  readonly name: string;
  /** Number of schedules; the exhaustive search covers indices 0 … size − 1. */
  readonly size: number;
  at(index: number): Schedule;
}

const bit = (index: number, b: number) => Math.floor(index / 2 ** b) % 2;

/**
 * Uncontended schedules ("sequential"): the calls of the case's fixed order 20 time units apart
 * (every call completes before the next is made, since no chain is longer than 9 messages of
 * ≤ 1), every link delay, self-links included, in {0.5, 1}: 2^(n²) schedules.
 */
export function sequentialSpace(caseName: string): Space {
  const at = SEQUENTIAL_AT[caseName];
  const n = CASES[caseName]!.n;
  if (at === undefined) throw new Error(`no sequential order for '${caseName}'`);
  return {
    name: `sequential: the calls 20 apart, each link delay in {0.5, 1}`,
    size: 2 ** (n * n),
    at: (index) => ({
      case: caseName,
      at,
      delays: Array.from({ length: n }, (_, i) =>
        Array.from({ length: n }, (_, j) => (bit(index, i * n + j) ? 1 : 0.5)),
      ),
    }),
  };
}

/**
 * The calls of one round per process in an order the problem allows one at a time: at[i][c].
 * MUTIN(1) and (1,2)-GCS start with P0 InCS, the others with nobody InCS.
 */
const SEQUENTIAL_AT: Readonly<Record<string, readonly (readonly number[])[]>> = {
  maekawa: [
    [0, 20],
    [40, 60],
    [80, 100],
  ],
  mutin: [
    [20, 40],
    [0, 60],
    [80, 100],
  ],
  kmutex: [
    [0, 40],
    [20, 80],
    [60, 100],
  ],
  gcs: [
    [20, 80],
    [0, 60],
    [40, 100],
  ],
};

/**
 * Contended schedules: one round per process, each first call invoked at time 0 or 1, each second
 * call as soon as the first completes; each link between distinct processes with delay 0.5 or 1,
 * self-links 1: 2^(n + n(n−1)) schedules (512 at n = 3). With `wide`, the second calls too are
 * invoked at 0 or 1 (or at the first's completion): 2^(2n + n(n−1)) (4,096 at n = 3).
 */
export function contendedSpace(caseName: string, wide = false): Space {
  const n = CASES[caseName]!.n;
  const offsetBits = wide ? 2 * n : n;
  const linkBits = n * (n - 1);
  return {
    name: `contended${wide ? ' (wide)' : ''}: ${wide ? 'each call' : 'each first call'} at 0 or 1${wide ? '' : ', the second at once'}, each link delay in {0.5, 1}, self-links 1`,
    size: 2 ** (offsetBits + linkBits),
    at: (index) => {
      const at = Array.from({ length: n }, (_, i) =>
        wide ? [bit(index, 2 * i), bit(index, 2 * i + 1)] : [bit(index, i), 0],
      );
      let b = offsetBits;
      const delays = Array.from({ length: n }, (_, i) =>
        Array.from({ length: n }, (_, j) => (i === j ? 1 : bit(index, b++) ? 1 : 0.5)),
      );
      return { case: caseName, at, delays };
    },
  };
}

/**
 * Seeded random schedules: `rounds` rounds per process, invocation times drawn on the grid
 * {0, 0.5, …, 6} (sorted per process), every link delay (self-links included) in
 * {0.25, 0.5, 0.75, 1}. Schedule `index` is drawn from `seed` and `index` alone.
 */
export function randomSpace(caseName: string, seed: number, size: number, rounds = 2): Space {
  const n = CASES[caseName]!.n;
  return {
    name: `random (seed ${seed}): ${rounds} rounds, invocations on {0, 0.5, …, 6}, delays in {0.25, 0.5, 0.75, 1}`,
    size,
    at: (index) => {
      const rng = createRng(seed).fork(index);
      const at = Array.from({ length: n }, () =>
        Array.from({ length: 2 * rounds }, () => rng.int(13) / 2).sort((a, b) => a - b),
      );
      const delays = Array.from({ length: n }, () => Array.from({ length: n }, () => (1 + rng.int(4)) / 4));
      return { case: caseName, at, delays };
    },
  };
}

/** A measure the search maximizes. */
export type Measure = 'perPair' | 'sync' | 'entry' | 'exit';

/** The figure of a measure. */
export const figureOf: Readonly<Record<Measure, (f: Figures) => number>> = {
  perPair: (f) => f.perPair.max,
  sync: (f) => f.sync.max,
  entry: (f) => f.waiting.entry,
  exit: (f) => f.waiting.exit,
};

/** The first schedule of the search reaching the largest figure of one measure. */
interface Worst {
  readonly index: number;
  readonly value: number;
  readonly schedule: Schedule;
  readonly figures: Figures;
}

/** What a search covered and found. */
interface SearchResult {
  readonly space: string;
  /** Schedules replayed (the budget's unit). */
  readonly schedules: number;
  /** Whether every schedule of the space was replayed. */
  readonly complete: boolean;
  /** Simulator events over all runs. */
  readonly events: number;
  /** Schedules that failed (violation, stuck), first few. */
  readonly failures: readonly { index: number; failure: string }[];
  /** Mean messages per pair over every pair of every schedule. */
  readonly perPairMean: number;
  readonly worst: Readonly<Record<Measure, Worst>>;
}

/** Replays the first `min(budget, space.size)` schedules of a space and keeps the worst per measure. */
export async function search(space: Space, budget: number): Promise<SearchResult> {
  const worst: Partial<Record<Measure, Worst>> = {};
  const failures: { index: number; failure: string }[] = [];
  let events = 0;
  let pairs = 0;
  let pairMessages = 0;
  const count = Math.min(budget, space.size);
  for (let index = 0; index < count; index++) {
    const schedule = space.at(index);
    const figures = await runSchedule(schedule);
    events += figures.events;
    if (!figures.ok) {
      if (failures.length < 5) failures.push({ index, failure: figures.failure ?? '' });
      continue;
    }
    pairs += figures.perPair.count;
    pairMessages += figures.perPair.mean * figures.perPair.count;
    for (const m of Object.keys(figureOf) as Measure[]) {
      const value = figureOf[m](figures);
      if (worst[m] === undefined || value > worst[m].value) worst[m] = { index, value, schedule, figures };
    }
  }
  if (Object.keys(worst).length === 0) throw new Error(`${space.name}: no schedule completed`);
  return {
    space: space.name,
    schedules: count,
    complete: count === space.size,
    events,
    failures,
    perPairMean: pairMessages / pairs,
    worst: worst as Record<Measure, Worst>,
  };
}
