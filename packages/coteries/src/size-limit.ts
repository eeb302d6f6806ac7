/*
 * The size one construction may reach, checked from its closed form before anything is built:
 * a constructor handed `majority(1e9)` otherwise allocates until V8 ends the process with a
 * "heap out of memory" fatal error that no `try` can catch (14–16 s for `majority(1e9)` and
 * `majority(2^53 − 1)`). Written once here; every coterie, arbiter and group-system constructor
 * calls it with its own counts.
 */
import { ConfigurationError } from '@critsec/core';

/**
 * The most quorum memberships (Σ over the quorums built of |Q|) one construction may build:
 * 2^25 = 33,554,432. Each costs about 40 bytes of heap once the construction is validated and
 * indexed (`majority(8000)`, 32 M memberships: 1.3 GB of heap, 61 s on one core), so the limit
 * keeps a construction within the default V8 heap of a small machine.
 */
export const MAX_QUORUM_MEMBERSHIPS = 2 ** 25;

/**
 * The most bits of the n-bit quorum sets one construction's validation may hold (one per quorum
 * built, n bits each): 2^32 bits = 512 MiB.
 */
export const MAX_QUORUM_SET_BITS = 2 ** 32;

/** What a construction would build, from its closed form. */
export interface ConstructionSize {
  /** Σ |Q| over the quorums built. */
  readonly memberships: number;
  /** How many quorums are built (each gets an n-bit set when validated). */
  readonly quorums: number;
}

const count = (x: number) => (x < 2 ** 53 ? x.toLocaleString('en-US') : 'more than 2^53');

/**
 * Refuses a construction beyond {@link MAX_QUORUM_MEMBERSHIPS} or {@link MAX_QUORUM_SET_BITS}.
 * @param who the constructor and its argument, opening the message (`majority(n)`).
 * @throws ConfigurationError naming n, the count, the limit and why.
 */
export function checkConstructionSize(who: string, n: number, size: ConstructionSize): void {
  const why = 'beyond it V8 ends the process with a heap out-of-memory error no code can catch';
  if (!(size.memberships <= MAX_QUORUM_MEMBERSHIPS)) {
    throw new ConfigurationError(
      `${who}: n = ${n} would build ${count(size.memberships)} quorum memberships, more than the ${count(MAX_QUORUM_MEMBERSHIPS)} (2^25, about 40 bytes each) one construction may hold: ${why}; take a smaller n or a construction with smaller quorums (grid, tree, projective plane)`,
    );
  }
  const bits = size.quorums * n;
  if (!(bits <= MAX_QUORUM_SET_BITS)) {
    throw new ConfigurationError(
      `${who}: n = ${n} would validate ${count(size.quorums)} quorums of n bits each, ${count(bits)} bits, more than the ${count(MAX_QUORUM_SET_BITS)} (2^32, 512 MiB) one construction may hold: ${why}; take a smaller n`,
    );
  }
}
