/*
 * The memory a cluster of n processes will need, estimated before anything is built, so that an
 * `--n` beyond what this process can hold is a one-line ConfigurationError at once instead of
 * minutes of construction ending in a V8 "heap out of memory" crash (or a raw RangeError).
 *
 * The estimate counts quorum memberships: n · |Q|max for a coterie (each process keeps state for
 * its quorum, each arbiter for the processes that name it, and under contention the messages in
 * flight scale with them), n · n for Ricart–Agrawala (every process talks to every other),
 * n · Σ_h |Q_h|max for an (h,k)-arbiter (one quorum set per h), n · m · c for a group quorum
 * system (one quorum of size ≤ c per process and group), Σ_i (|N_i| + 1) = 2·edges + n for the
 * local CS on a graph (the closed neighbourhood is a process's quorum). Every process costs
 * {@link BYTES_PER_PROCESS} besides, whatever its quorum (its endpoint, protocol object, workload
 * and monitor state: `critsec simulate mutex --coterie tree --n 16383 / 65535 --rounds 1` peak at
 * 517 / 2,122 MB with |Q| = 14 / 16, `local-cs --graph ring:16384` at 767 MB, 2026-11-27 — about
 * 21 KB and 38 KB a process once the memberships are counted; the tree's n = 131071 passed
 * the check without this term and ran to 2.4 GiB), and a coterie's validation holds one n-bit
 * set per quorum (`quorumSets`). One membership costs
 * about {@link BYTES_PER_MEMBERSHIP} bytes over a whole simulation: measured on
 * `critsec simulate mutex --n 10000 --coterie grid --rounds 2` (1,990,000 memberships, 781 MB
 * peak RSS, 2026-11-23) and `--coterie majority` resolution alone (50 M memberships, 2.5 GiB);
 * a family whose memberships cost otherwise passes its own measured `bytesPerMembership`
 * (h-out-of-k 160, local-cs 700; group-mutex keeps 400).
 */
import { getHeapStatistics } from 'node:v8';
import { ConfigurationError, type MemoryEstimate } from '@critsec/core';

/** Bytes one quorum membership costs over a simulation (see the file comment). */
export const BYTES_PER_MEMBERSHIP = 400;

/** Bytes one process costs over a simulation besides its memberships (see the file comment). */
export const BYTES_PER_PROCESS = 24 * 1024;

/** What {@link checkFootprint} weighs: a descriptor's estimate, and the heap to weigh it against. */
export interface FootprintInput extends MemoryEstimate {
  /** The heap this process may use, bytes (default: V8's `heap_size_limit`). */
  readonly heapLimitBytes?: number;
}

const GiB = 2 ** 30;

const gib = (bytes: number) => (bytes < 2 ** 53 ? `${(bytes / GiB).toFixed(1)} GiB` : 'more than 8 PiB');

/**
 * Refuses a cluster whose estimated memory (n · `bytesPerProcess`, by default
 * {@link BYTES_PER_PROCESS}, plus
 * `bytesPerMembership`, by default {@link BYTES_PER_MEMBERSHIP}, per membership, plus n/8 bytes
 * per quorum set) exceeds the heap this Node.js process may use, before anything is allocated.
 * @returns the estimate in bytes when it fits.
 * @throws ConfigurationError naming n, the memberships, the estimate, the heap limit and the ways
 *   out (a smaller `--n`, or `NODE_OPTIONS=--max-old-space-size=<MiB>` when raising the heap
 *   helps).
 */
export function checkFootprint(input: FootprintInput): number {
  const bytes =
    input.n * (input.bytesPerProcess ?? BYTES_PER_PROCESS) +
    input.memberships * (input.bytesPerMembership ?? BYTES_PER_MEMBERSHIP) +
    ((input.quorumSets ?? 0) * input.n) / 8;
  const limit = input.heapLimitBytes ?? getHeapStatistics().heap_size_limit;
  const about = (x: number) => (x < 2 ** 53 ? `about ${x.toLocaleString('en-US')}` : 'more than 2^53');
  const head = `${input.subject ?? `--n ${input.n}`} with ${input.what}`;
  const smaller = `give ${input.remedy ?? 'a smaller --n'}`;
  const counted = `${input.n.toLocaleString('en-US')} processes and ${about(input.memberships)} quorum memberships`;
  if (!(bytes < 2 ** 53)) {
    throw new ConfigurationError(
      `${head}: ${counted} need ${gib(bytes)}, far more than this process's heap limit of ${gib(limit)} or any machine's memory; ${smaller}`,
    );
  }
  if (bytes > limit) {
    const neededMiB = Math.ceil((bytes * 1.25) / 2 ** 20);
    throw new ConfigurationError(
      `${head}: ${counted} need about ${gib(bytes)}, more than this process's heap limit of ${gib(limit)}; ${smaller}, or raise the limit with NODE_OPTIONS=--max-old-space-size=${neededMiB} if the machine has the memory`,
    );
  }
  return bytes;
}
