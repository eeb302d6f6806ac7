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
import { ConfigurationError } from '@critsec/core';

/** Bytes one quorum membership costs over a simulation (see the file comment). */
export const BYTES_PER_MEMBERSHIP = 400;

/** What {@link checkFootprint} weighs. */
export interface FootprintInput {
  /** Number of processes. */
  readonly n: number;
  /** Quorum memberships: n · |Q|max (`maxQuorumSize` of coterie-choice.ts), or n · n for Ricart–Agrawala. */
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
