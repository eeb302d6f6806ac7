/**
 * The options of a simulated network (`SimNetwork` of `network.ts`): size, seed, delays,
 * mode, faults, tracing, the failure detector.
 */
import type { ProcessId } from '@critsec/core';
import type { DelayModel, unitDelay } from './delay.js';
import type { FaultOptions } from './faulty-link.js';
import type { CausalContext } from './ports.js';

/** Options of `SimNetwork`. */
export interface SimNetworkOptions {
  /** Number of processes (ids `0..n-1`). */
  readonly n: number;
  /** Seed of every random choice (delays, faults). Default 1. */
  readonly seed?: number;
  /** Delay model of every link (default {@link unitDelay}). */
  readonly delay?: DelayModel;
  /** Per-link override: return a model for the link `from → to`, or `undefined` for the default. */
  readonly linkDelay?: (from: ProcessId, to: ProcessId) => DelayModel | undefined;
  /** `'timed'` (default): `SimNetwork.run` drives the clock. `'controlled'`: the caller picks each event. */
  readonly mode?: 'timed' | 'controlled';
  /**
   * Keep FIFO per (from, to, channel). Default `true`. `false` lets a later message overtake an
   * earlier one under random delays — **for negative tests only** (algorithms assume FIFO).
   */
  readonly fifo?: boolean;
  /**
   * Record a JSON-lines trace: `true` keeps it in `SimNetwork.trace`; a function receives
   * each line as it is produced.
   */
  readonly trace?: boolean | ((line: string) => void);
  /** Attribution hook, see {@link CausalContext}. */
  readonly context?: CausalContext;
  /**
   * Pass every message through `JSON.stringify`/`JSON.parse`, as a real transport would:
   * catches algorithms that send non-JSON values or mutate a message after sending. Default false.
   */
  readonly serialize?: boolean;
  /** Inject faults below a reliable session layer (see {@link FaultOptions}); timed mode only. */
  readonly faults?: FaultOptions;
  /**
   * The failure detector (issue 28 §4; `detector.ts`), in time units > 0 (default: off, no timer
   * added): `endpoint(i).suspicions` holds `j` once `j` has been crashed, or cut off from `i` by
   * a partition (`SimNetwork.partitions`), this long; trusted again at its restart or heal.
   */
  readonly suspectAfter?: number;
}
