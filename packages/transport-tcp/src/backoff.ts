import { ConfigurationError, createRng, type ProcessId, type Rng } from '@critsec/core';

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
  /**
   * Seed of the jitter (default 0; a safe integer). The jitter is drawn from the project's one
   * PRNG (`createRng` of `@critsec/core`), one stream per peer link: the link from process
   * `self` to peer `p` uses `createRng(seed).fork('reconnect <self>-><p>')`. So links never
   * retry in lockstep, and the same seed, process id and peer id give the same reconnect delays
   * on every run.
   */
  readonly seed?: number;
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
  /** Seed of the jitter streams (see {@link ReconnectOptions.seed}). */
  readonly seed: number;

  /**
   * @throws ConfigurationError for a non-positive delay, `factor < 1`, `jitter ∉ [0, 1]` or a
   * `seed` that is not a safe integer.
   */
  constructor(options: ReconnectOptions = {}) {
    this.initialDelayMs = options.initialDelayMs ?? 50;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 0.5;
    this.seed = options.seed ?? 0;
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
    if (!Number.isSafeInteger(this.seed)) {
      throw new ConfigurationError(`reconnect: seed must be a safe integer, got ${String(this.seed)}`);
    }
  }

  /** The jitter stream of the link from process `self` to peer `peer` (see {@link ReconnectOptions.seed}). */
  linkRng(self: ProcessId, peer: ProcessId): Rng {
    return createRng(this.seed).fork(`reconnect ${self}->${peer}`);
  }

  /** The delay before retry number `attempt` (0-based), in ms, its jitter drawn from `rng`. */
  delay(attempt: number, rng: Rng): number {
    const d = Math.min(this.maxDelayMs, this.initialDelayMs * this.factor ** Math.min(attempt, 64));
    return d * (1 - this.jitter * rng.next());
  }
}
