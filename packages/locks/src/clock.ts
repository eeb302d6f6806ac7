/**
 * The clock a lock manager times `timeout` with — the shape of issue 28's `ProtocolClock`
 * (`now()`, `setTimer(delay, fn)` returning its cancel), so the simulator's virtual clock and the
 * wall clock are interchangeable.
 */

/** A clock: `now()` and one-shot timers, both in one unit (ms for {@link wallClockMs}). */
export interface LockClock {
  /** The current time (monotonic). */
  now(): number;
  /** Calls `fn` once after `delay`; returns the function that cancels it. */
  setTimer(delay: number, fn: () => void): () => void;
}

/** The wall clock in ms: `performance.now()` and `setTimeout` (unreferenced: it never keeps Node alive). */
export const wallClockMs: LockClock = {
  now: () => performance.now(),
  setTimer(delay, fn) {
    const t = setTimeout(fn, delay);
    t.unref?.();
    return () => clearTimeout(t);
  },
};
