/**
 * The searches whose worst schedules are pinned, and the fixtures that pin them
 * (`fixtures/worst-case/<case>.json`, written by `pin.ts`, replayed by `pinned.test.ts`, re-searched
 * by `search.long.test.ts`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WalkFigures } from './controlled.js';
import type { Figures, Schedule } from './schedule.js';
import { contendedSpace, type Measure, randomSpace, type Space, sequentialSpace } from './search.js';

/** The seed of the random search (printed by the searches, recorded in the fixtures). */
export const RANDOM_SEED = 14;
/** Schedules of the random search per case. */
const RANDOM_BUDGET = 5000;

/** The cases pinned, in order. */
export const PINNED_CASES = ['maekawa', 'mutin', 'kmutex', 'gcs'] as const;

/** The three searches of a case: uncontended, contended (both exhaustive), random. */
export type SearchKey = 'sequential' | 'contended' | 'random';

/** The spaces searched for a case, by key, with their schedule budgets. */
export function searchesOf(caseName: string): Record<SearchKey, { space: Space; budget: number }> {
  const sequential = sequentialSpace(caseName);
  const contended = contendedSpace(caseName);
  return {
    sequential: { space: sequential, budget: sequential.size },
    contended: { space: contended, budget: contended.size },
    random: { space: randomSpace(caseName, RANDOM_SEED, RANDOM_BUDGET), budget: RANDOM_BUDGET },
  };
}

/** One pinned worst schedule: its index in the space, the figure, the schedule, all its figures. */
interface PinnedWorst {
  readonly index: number;
  readonly value: number;
  readonly schedule: Schedule;
  readonly figures: Figures;
}

/** What a fixture records of one search. */
interface PinnedSearch {
  readonly space: string;
  readonly schedules: number;
  readonly complete: boolean;
  readonly events: number;
  readonly perPairMean: number;
  readonly worst: Readonly<Record<Measure, PinnedWorst>>;
}

/** The seed of the controlled-mode random walks. */
export const WALK_SEED = 14;
/** Random delivery orders (walks) per case in controlled mode. */
export const WALK_BUDGET = 4000;

/** What a fixture records of the controlled-mode walks (messages only: controlled mode has no time). */
interface PinnedWalks {
  readonly seed: number;
  readonly walks: number;
  /** Events delivered over all walks. */
  readonly states: number;
  readonly perPairMean: number;
  /** The first walk reaching the largest messages per pair, and its figures. */
  readonly worst: { readonly walk: number; readonly value: number; readonly figures: WalkFigures };
}

/** A fixture: the case and its three timed searches. */
export interface PinnedCase {
  readonly case: string;
  readonly searches: Readonly<Record<SearchKey, PinnedSearch>>;
}

/** The fixture file of a case: `<case>.json` (timed searches), `<case>.controlled.json` (walks). */
export function fixturePath(caseName: string, part: 'timed' | 'controlled' = 'timed'): string {
  const file = part === 'timed' ? `${caseName}.json` : `${caseName}.controlled.json`;
  return fileURLToPath(new URL(`../../fixtures/worst-case/${file}`, import.meta.url));
}

/** Reads a case's timed-search fixture. */
export function readPinned(caseName: string): PinnedCase {
  return JSON.parse(readFileSync(fixturePath(caseName), 'utf8')) as PinnedCase;
}

/** Reads a case's controlled-walk fixture. */
export function readPinnedWalks(caseName: string): PinnedWalks {
  return JSON.parse(readFileSync(fixturePath(caseName, 'controlled'), 'utf8')) as PinnedWalks;
}
