/**
 * Process clocks and simulated pauses (issue 28 §1). Every process of a simulated cluster is
 * given a {@link ProtocolClock} over the network's virtual clock (time units) as
 * `ProcessContext.clock`. A **pause** of process `p` for `D` time units models a process stopped
 * by SIGSTOP, a long GC or swapping: for `D` time units its handlers do not run — messages to it
 * wait in their links (`SimNetwork.setPaused`) and its timers fire late, at the resume, in the
 * order they were due — while its state stays as it was (unlike a crash). Seeded pauses
 * (`createCluster({ pauses })`) fall at times drawn from the run's seed.
 */
import { ConfigurationError, type ProcessId, type ProtocolClock } from '@critsec/core';
import type { SimNetwork } from '@critsec/transport-sim';

/** Seeded pauses of a simulated cluster (`createCluster({ pauses })`). */
export interface PauseOptions {
  /** Pauses in the run (each of a random process; a process already paused or crashed is skipped). */
  readonly count: number;
  /** A pause lasts a duration uniform in [min, max] time units. */
  readonly duration: readonly [number, number];
  /** Pauses start at times uniform in [0, window] time units (default 100). */
  readonly window?: number;
}

/** What the pauses of a run did. */
export interface PauseStats {
  /** Pauses that happened. */
  pauses: number;
  /** Timers that came due during a pause and fired at its end. */
  lateTimers: number;
}

/** The clocks and pauses of one simulated cluster (see the module comment). */
export class ProcessClocks {
  /** What happened so far. */
  readonly stats: PauseStats = { pauses: 0, lateTimers: 0 };
  readonly #net: SimNetwork;
  readonly #paused: boolean[];
  /** Per process: timers that came due during its pause, in due order. */
  readonly #late: (() => void)[][];
  /** Per process: the cancel functions of its current incarnation's pending timers. */
  readonly #timers: Set<() => void>[];

  /**
   * The clocks of `n` processes over `net`'s virtual clock.
   * @param isDown true while a process is crashed (a crashed process is not paused).
   */
  constructor(
    net: SimNetwork,
    n: number,
    readonly isDown: (p: ProcessId) => boolean = () => false,
  ) {
    this.#net = net;
    this.#paused = new Array<boolean>(n).fill(false);
    this.#late = Array.from({ length: n }, () => []);
    this.#timers = Array.from({ length: n }, () => new Set());
  }

  /**
   * Draws `options.count` pauses from the network's `'pauses'` stream and schedules them.
   * @throws ConfigurationError for bad options.
   */
  plan(options: PauseOptions, n: number): void {
    const [min, max] = options.duration;
    const window = options.window ?? 100;
    if (!(Number.isSafeInteger(options.count) && options.count >= 0))
      throw new ConfigurationError(`pauses.count must be an integer ≥ 0, got ${String(options.count)}`);
    if (!(Number.isFinite(min) && min >= 0 && Number.isFinite(max) && max >= min && window >= 0))
      throw new ConfigurationError(`pauses: duration must be [min, max] with 0 ≤ min ≤ max and window ≥ 0`);
    const rng = this.#net.rng('pauses');
    for (let k = 0; k < options.count; k++) {
      const at = rng.next() * window;
      const p = rng.int(n);
      const d = min + rng.next() * (max - min);
      this.#net.schedule(at, () => this.pause(p, d), `P${p} pause`);
    }
  }

  /** True while `p` is paused. */
  paused(p: ProcessId): boolean {
    return this.#paused[p]!;
  }

  /**
   * Pauses `p` for `duration` time units from now (nothing when it is paused or crashed).
   * @returns whether the pause happened.
   */
  pause(p: ProcessId, duration: number): boolean {
    if (this.paused(p) || this.isDown(p)) return false;
    this.stats.pauses++;
    this.#paused[p] = true;
    this.#net.setPaused(p, true);
    this.#net.schedule(duration, () => this.#resume(p), `P${p} resume`);
    return true;
  }

  #resume(p: ProcessId): void {
    this.#paused[p] = false;
    this.#net.setPaused(p, false);
    const late = this.#late[p]!.splice(0);
    for (const fn of late) fn();
  }

  /** The clock of `p`'s current incarnation (a fresh one per incarnation: see {@link crashed}). */
  clock(p: ProcessId): ProtocolClock {
    const net = this.#net;
    const timers = this.#timers[p]!;
    return {
      now: () => net.now,
      setTimer: (delay, fn) => {
        const run = () => {
          timers.delete(cancel);
          if (this.paused(p)) {
            this.stats.lateTimers++;
            this.#late[p]!.push(fn);
          } else fn();
        };
        const stop = net.schedule(Math.max(0, delay), run, `P${p} clock`);
        const cancel = () => {
          timers.delete(cancel);
          stop();
        };
        timers.add(cancel);
        return cancel;
      },
    };
  }

  /** `p` crashed: its incarnation's pending and late timers die with it. */
  crashed(p: ProcessId): void {
    for (const cancel of [...this.#timers[p]!]) cancel();
    this.#late[p]!.length = 0;
    this.#paused[p] = false;
  }
}
