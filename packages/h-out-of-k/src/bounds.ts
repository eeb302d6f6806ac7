/**
 * The paper's costs of the h-out-of-k algorithm for given parameters (h-out-of-k paper, Sec. 4.3),
 * for tests, benchmarks and the CLI's summary.
 */
import type { HKArbiter } from '@critsec/coteries';

/** The bounds for requests of h units (Sec. 4.3). Message counts include self-messages. */
export interface HOutOfKBoundRow {
  /** Units per request. */
  readonly h: number;
  /** `|q_{h,k}|`: the size of the largest quorum of `Q_{h,k}` (smallest and mean beside it). */
  readonly quorumSize: {
    /** Smallest quorum of `Q_{h,k}`. */
    readonly min: number;
    /** Mean quorum size over the n processes. */
    readonly mean: number;
    /** Largest quorum, `|q_{h,k}|`. */
    readonly max: number;
  };
  /** Messages per request without conflict: exactly `3·|q|` for a process whose quorum is q. */
  readonly messagesUncontended: number;
  /**
   * Messages per request in the worst case, `(3h + 3)·|q_{h,k}|`, **as Sec. 4.3 counts them**: a
   * `cancel`, the `cancelled` answering it and the `OK` an arbiter sends again after it are charged
   * to the request whose arrival made the arbiter cancel (at most h cancels per arbiter), every other
   * message to its own request. Hence a run's messages, once every request has released, are at most
   * the sum of this over its requests (amortised). It does **not** bound what one exit+entry pair is
   * charged under the causal attribution, where the OKs of a `NewChance` go to whoever's message ran
   * it (the package README: uniform n = 6, k = 5, 40 > 36).
   */
  readonly messagesContended: number;
  /** Waiting time of `entry` without contention, unit delays (time units): 2 (request, OK). */
  readonly waitingEntry: number;
  /** Waiting time of `exit` (time units): 0 (release is sent and the exit completes). */
  readonly waitingExit: number;
}

/**
 * One row per h = 1..k: quorum sizes of `Q_{h,k}` and the paper's message bounds (Sec. 4.3) —
 * `3·|q_{h,k}|` per request without conflict, `(3h+3)·|q_{h,k}|` per request in the worst case as
 * the paper counts (see {@link HOutOfKBoundRow.messagesContended}: per request, or amortised over a
 * run, not per exit+entry pair under causal attribution) — and the waiting times with unit delays
 * (entry 2, exit 0). `|q_{h,k}|` is the largest quorum, as in the paper.
 */
export function hOutOfKBounds(arbiter: HKArbiter): HOutOfKBoundRow[] {
  const rows: HOutOfKBoundRow[] = [];
  for (let h = 1; h <= arbiter.k; h++) {
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    let sum = 0;
    for (let i = 0; i < arbiter.n; i++) {
      const s = arbiter.quorumOf(i, h).length;
      min = Math.min(min, s);
      max = Math.max(max, s);
      sum += s;
    }
    rows.push({
      h,
      quorumSize: { min, mean: sum / arbiter.n, max },
      messagesUncontended: 3 * max,
      messagesContended: (3 * h + 3) * max,
      waitingEntry: 2,
      waitingExit: 0,
    });
  }
  return rows;
}
