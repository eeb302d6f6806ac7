import { ConfigurationError } from '@critsec/core';

/** Reconnection schedule of a dialing process (all times in milliseconds). */
export interface ReconnectOptions {
  /** Delay before the first retry (default 50 ms). */
  readonly initialDelayMs?: number;
  /** Upper bound of the delay (default 5 000 ms). */
  readonly maxDelayMs?: number;
  /** Growth factor per failed attempt (default 2). */
  readonly factor?: number;
  /**
   * Fraction of the delay that is randomised (default 0.5): the delay is drawn uniformly from
   * `[(1 − jitter)·d, d]`, so peers that lost each other at once do not retry in lockstep.
   */
  readonly jitter?: number;
}

/** Exponential backoff with jitter (the dialer's reconnection schedule; times in ms). */
export class Backoff {
  /** Delay before the first retry, in ms. */
  readonly initialDelayMs: number;
  /** Upper bound of the delay, in ms. */
  readonly maxDelayMs: number;
  /** Growth factor per failed attempt. */
  readonly factor: number;
  /** Fraction of the delay that is randomised, in [0, 1]. */
  readonly jitter: number;
  readonly #random: () => number;

  /**
   * @param random - a source of uniform numbers in [0, 1) for the jitter (default `Math.random`).
   * @throws ConfigurationError for a non-positive delay, `factor < 1` or `jitter ∉ [0, 1]`.
   */
  constructor(options: ReconnectOptions = {}, random: () => number = Math.random) {
    this.initialDelayMs = options.initialDelayMs ?? 50;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 0.5;
    this.#random = random;
    if (!(this.initialDelayMs > 0) || !(this.maxDelayMs >= this.initialDelayMs)) {
      throw new ConfigurationError(
        `reconnect: need 0 < initialDelayMs ≤ maxDelayMs, got ${this.initialDelayMs} and ${this.maxDelayMs}`,
      );
    }
    if (!(this.factor >= 1))
      throw new ConfigurationError(`reconnect: factor must be ≥ 1, got ${this.factor}`);
    if (!(this.jitter >= 0 && this.jitter <= 1)) {
      throw new ConfigurationError(`reconnect: jitter must be in [0, 1], got ${this.jitter}`);
    }
  }

  /** The delay before retry number `attempt` (0-based), in ms. */
  delay(attempt: number): number {
    const d = Math.min(this.maxDelayMs, this.initialDelayMs * this.factor ** Math.min(attempt, 64));
    return d * (1 - this.jitter * this.#random());
  }
}
