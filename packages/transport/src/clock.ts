/**
 * Saturating Lamport clocks. Every critsec protocol validates its timestamps with
 * {@link counterSchema} (a safe integer ≥ 0), so a clock that is raised by a received timestamp
 * and then incremented could leave that range after one forged message carrying
 * `Number.MAX_SAFE_INTEGER` — and every later message of the receiver, its own validator included,
 * would be dropped: the whole cluster waits forever. The rule these helpers keep is the project's:
 * **no message a validator accepts may put the receiver in a state whose own messages fail
 * validation.** A clock saturates at {@link CLOCK_MAX} instead of leaving the range.
 *
 * Saturation keeps the protocols safe and deadlock-free: a request's priority is the pair
 * (timestamp, process id), still a total order when timestamps tie at the ceiling; only the
 * first-come order among requests made after the ceiling falls back to process ids. No honest
 * cluster reaches it (2^53 − 1 requests).
 */
import { counterSchema } from './validate.js';

/** The largest timestamp a protocol message may carry: `Number.MAX_SAFE_INTEGER` (2^53 − 1). */
export const CLOCK_MAX = Number.MAX_SAFE_INTEGER;

/** `c + 1`, saturating at {@link CLOCK_MAX} (a request's new timestamp). */
export function tick(c: number): number {
  return c >= CLOCK_MAX ? CLOCK_MAX : c + 1;
}

/** `max(c, ts)` for a received, validated timestamp `ts` ≤ {@link CLOCK_MAX} (Lamport's receive rule). */
export function witness(c: number, ts: number): number {
  return ts > c ? Math.min(ts, CLOCK_MAX) : c;
}

/** The schema of a Lamport timestamp: {@link counterSchema} (0 … {@link CLOCK_MAX}). */
export const timestampSchema = counterSchema;
