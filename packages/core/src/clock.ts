/**
 * The clock a CS object may be given (issue 28 §1: time-bounded grants): a monotonic time and
 * timers. The simulator (`createCluster` of `@critsec/harness`) gives each process its virtual
 * clock, in **time units**; real members (`@critsec/cluster`) give `performance.now()` and
 * `setTimeout`, in **milliseconds** — never the wall clock (`Date.now()` can jump). An algorithm
 * given none behaves exactly as without time bounds.
 */

/**
 * A monotonic clock with timers, as {@link ProcessContext.clock}. The unit is the clock's own:
 * milliseconds on a real member, time units in the simulator; every duration an algorithm takes
 * from its options (a TTL, a renewal period) is read in that unit.
 */
export interface ProtocolClock {
  /** The current time: monotonic, never decreasing (ms of `performance.now()`, or virtual time units). */
  now(): number;
  /**
   * Runs `fn` once after `delay` (≥ 0, same unit as {@link now}); returns a function that cancels
   * the timer (idempotent, harmless after it fired). A paused process's timers fire late, never early.
   */
  setTimer(delay: number, fn: () => void): () => void;
}

/**
 * The real clock of a member: `performance.now()` (monotonic ms since the process started) and
 * `setTimeout` (unref'ed: a pending renewal never keeps a process alive). A negative delay runs as 0.
 */
export function monotonicClock(): ProtocolClock {
  return {
    now: () => performance.now(),
    setTimer(delay, fn) {
      const timer = setTimeout(fn, Math.max(0, delay));
      (timer as { unref?: () => void }).unref?.();
      return () => clearTimeout(timer);
    },
  };
}
