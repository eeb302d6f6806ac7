/*
 * The memory a cluster of n processes will need, estimated before anything is built, so that an
 * `--n` beyond what this process can hold is a one-line ConfigurationError at once instead of
 * minutes of coterie construction ending in a V8 "heap out of memory" crash.
 *
 * The estimate counts quorum memberships: n · |Q|max for a coterie (each process keeps state for
 * its quorum, each arbiter for the processes that name it, and under contention the messages in
 * flight scale with them), n · n for Ricart–Agrawala (every process talks to every other). One
 * membership costs about {@link BYTES_PER_MEMBERSHIP} bytes over a whole simulation: measured on
 * `critsec simulate mutex --n 10000 --coterie grid --rounds 2` (1,990,000 memberships, 781 MB
 * peak RSS, 2026-11-23) and `--coterie majority` resolution alone (50 M memberships, 2.5 GiB).
 */
import { getHeapStatistics } from 'node:v8';
import { gridShape } from '@critsec/coteries';
import { ConfigurationError } from '@critsec/core';
import { type CoterieName, wallWidths } from './coterie-choice.js';

/** Bytes one quorum membership costs over a simulation (see the file comment). */
export const BYTES_PER_MEMBERSHIP = 400;

/**
 * An upper bound on the largest quorum |Q|max of coterie `name` over n processes, from the
 * construction's closed form (no coterie is built), exact from n = 16 on and at most one above
 * below it (minimality trims a few small cases, e.g. majority(2) = {{P0}}): majority ⌊n/2⌋ + 1, grid c + r − 1 (its {@link gridShape}),
 * wall max over rows of width + rows below, tree log₂(n + 1), projective plane q + 1.
 * For n a construction does not exist for (tree, projective plane) it is the value of the
 * formula; the construction itself rejects such n.
 */
export function maxQuorumSize(name: CoterieName, n: number): number {
  switch (name) {
    case 'majority':
      return Math.floor(n / 2) + 1;
    case 'grid': {
      const { columns, rows } = gridShape(n);
      return columns + rows - 1;
    }
    case 'wall': {
      const widths = wallWidths(n);
      return Math.max(...widths.map((w, i) => w + widths.length - 1 - i));
    }
    case 'tree':
      return Math.max(1, Math.ceil(Math.log2(n + 1)));
    case 'projective-plane':
      return Math.round((Math.sqrt(4 * n - 3) - 1) / 2) + 1;
  }
}

/** What {@link checkFootprint} weighs. */
export interface FootprintInput {
  /** Number of processes. */
  readonly n: number;
  /** Quorum memberships: n · |Q|max, or n · n for Ricart–Agrawala. */
  readonly memberships: number;
  /** The structure in words, for the message (`the grid coterie`, `Ricart–Agrawala`). */
  readonly what: string;
  /** The heap this process may use, bytes (default: V8's `heap_size_limit`). */
  readonly heapLimitBytes?: number;
}

const GiB = 2 ** 30;

/**
 * Refuses a cluster whose estimated memory ({@link BYTES_PER_MEMBERSHIP} per membership) exceeds
 * the heap this Node.js process may use, before anything is allocated.
 * @returns the estimate in bytes when it fits.
 * @throws ConfigurationError naming n, the memberships, the estimate, the heap limit and the two
 *   ways out (a smaller `--n`, or `NODE_OPTIONS=--max-old-space-size=<MiB>`).
 */
export function checkFootprint(input: FootprintInput): number {
  const bytes = input.memberships * BYTES_PER_MEMBERSHIP;
  const limit = input.heapLimitBytes ?? getHeapStatistics().heap_size_limit;
  if (bytes > limit) {
    const neededMiB = Math.ceil((bytes * 1.25) / 2 ** 20);
    throw new ConfigurationError(
      `--n ${input.n} with ${input.what}: about ${input.memberships.toLocaleString('en-US')} quorum memberships need about ${(bytes / GiB).toFixed(1)} GiB, more than this process's heap limit of ${(limit / GiB).toFixed(1)} GiB; give a smaller --n, or raise the limit with NODE_OPTIONS=--max-old-space-size=${neededMiB} if the machine has the memory`,
    );
  }
  return bytes;
}
