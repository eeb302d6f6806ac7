/*
 * The clocks of the workload engine: the time a workload reads (call start and end), sleeps on
 * (think and hold times) and sets timers on (aborts). The simulated clock is the virtual clock of
 * a `SimNetwork` (time units); the wall clock is `performance.now()` and `setTimeout` (ms).
 */
import type { SimNetwork } from '@critsec/transport-sim';

/**
 * What the workload engine needs of time. The unit is the clock's own: time units for
 * {@link simulatedClock}, milliseconds for {@link wallClock}; every duration a workload takes
 * (think, hold, abort delay) is in that unit.
 */
export interface WorkloadClock {
  /** The current time. */
  now(): number;
  /**
   * Resolves after `delay` (≥ 0). `label` names the wait where the clock records timers (the
   * simulator's trace). Must return a plain promise (the engine awaits it directly).
   */
  sleep(delay: number, label: string): Promise<void>;
  /** Runs `fn` after `delay` (≥ 0); returns a cancel function. */
  schedule(delay: number, fn: () => void, label: string): () => void;
}

/**
 * The virtual clock of a simulated network: time units, timers are network events (they appear in
 * the trace under `label` and run only while `net.run()` drives the network).
 * @throws ConfigurationError (from `SimNetwork.schedule`) for a negative or non-finite delay.
 */
export function simulatedClock(net: SimNetwork): WorkloadClock {
  return {
    now: () => net.now,
    sleep: (delay, label) =>
      new Promise<void>((resolve) => {
        net.schedule(delay, resolve, label);
      }),
    schedule: (delay, fn, label) => net.schedule(delay, fn, label),
  };
}

/**
 * The wall clock, in milliseconds: `performance.now()`, `setTimeout` (a zero or negative sleep
 * resolves at once, without a timer). Labels are ignored.
 */
export function wallClock(): WorkloadClock {
  return {
    now: () => performance.now(),
    sleep: (ms) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
    schedule: (ms, fn) => {
      const timer = setTimeout(fn, Math.max(0, ms));
      return () => clearTimeout(timer);
    },
  };
}
