import { ConfigurationError, type Rng } from '@critsec/core';

/**
 * How long a message takes, in virtual **time units**.
 * - `unit`: exactly 1 (with zero-time local computation this is the papers' waiting-time model);
 * - `constant`: exactly `delay`;
 * - `uniform`: uniform in [min, max];
 * - `exponential`: exponential with the given mean.
 */
export type DelayModel =
  | {
      /** Exactly 1 time unit. */
      readonly kind: 'unit';
    }
  | {
      /** Exactly `delay`. */
      readonly kind: 'constant';
      /** The delay, time units. */
      readonly delay: number;
    }
  | {
      /** Uniform in [min, max]. */
      readonly kind: 'uniform';
      /** Shortest delay, time units. */
      readonly min: number;
      /** Longest delay, time units. */
      readonly max: number;
    }
  | {
      /** Exponential. */
      readonly kind: 'exponential';
      /** Mean delay, time units. */
      readonly mean: number;
    };

/** Every message takes exactly 1 time unit. */
export const unitDelay: DelayModel = Object.freeze({ kind: 'unit' });

/** @throws ConfigurationError unless `delay ≥ 0`. */
export function constantDelay(delay: number): DelayModel {
  if (!(Number.isFinite(delay) && delay >= 0))
    throw new ConfigurationError(`constant delay must be ≥ 0, got ${delay}`);
  return Object.freeze({ kind: 'constant', delay });
}

/** @throws ConfigurationError unless `0 ≤ min ≤ max`, both finite. */
export function uniformDelay(min: number, max: number): DelayModel {
  if (!(Number.isFinite(min) && Number.isFinite(max) && min >= 0 && min <= max)) {
    throw new ConfigurationError(`uniform delay needs finite 0 ≤ min ≤ max, got min = ${min}, max = ${max}`);
  }
  return Object.freeze({ kind: 'uniform', min, max });
}

/** @throws ConfigurationError unless `mean > 0`, finite. */
export function exponentialDelay(mean: number): DelayModel {
  if (!(Number.isFinite(mean) && mean > 0))
    throw new ConfigurationError(`exponential delay needs a mean > 0, got ${mean}`);
  return Object.freeze({ kind: 'exponential', mean });
}

/**
 * Parses `unit`, `constant:D`, `uniform:MIN:MAX` or `exponential:MEAN` (the CLI's `--delay`).
 * @throws ConfigurationError naming the accepted forms.
 */
export function parseDelay(text: string): DelayModel {
  const [kind, ...args] = text.trim().split(':');
  const nums = args.map(Number);
  const bad = () =>
    new ConfigurationError(
      `unknown delay model '${text}'; expected unit, constant:D, uniform:MIN:MAX or exponential:MEAN`,
    );
  if (nums.some((x) => Number.isNaN(x))) throw bad();
  switch (kind) {
    case 'unit':
      if (nums.length !== 0) throw bad();
      return unitDelay;
    case 'constant':
      if (nums.length !== 1) throw bad();
      return constantDelay(nums[0]!);
    case 'uniform':
      if (nums.length !== 2) throw bad();
      return uniformDelay(nums[0]!, nums[1]!);
    case 'exponential':
      if (nums.length !== 1) throw bad();
      return exponentialDelay(nums[0]!);
    default:
      throw bad();
  }
}

/** The text form {@link parseDelay} reads. */
export function formatDelay(d: DelayModel): string {
  switch (d.kind) {
    case 'unit':
      return 'unit';
    case 'constant':
      return `constant:${d.delay}`;
    case 'uniform':
      return `uniform:${d.min}:${d.max}`;
    case 'exponential':
      return `exponential:${d.mean}`;
  }
}

/** True when every message of the model takes the same time. */
export function isConstantDelay(d: DelayModel): boolean {
  return d.kind === 'unit' || d.kind === 'constant' || (d.kind === 'uniform' && d.min === d.max);
}

/** Draws one delay (time units). */
export function sampleDelay(d: DelayModel, rng: Rng): number {
  switch (d.kind) {
    case 'unit':
      return 1;
    case 'constant':
      return d.delay;
    case 'uniform':
      return d.min + rng.next() * (d.max - d.min);
    case 'exponential':
      return -d.mean * Math.log(1 - rng.next());
  }
}
