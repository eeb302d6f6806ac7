/**
 * `Que`, the priority queue of one arbiter — h-out-of-k paper (Manabe & Tajima), Sec. 4.1 and
 * Fig. 1: "Que = null: queue; /* Priority queue of the requests. *\/" with the fields
 * `Que[j].clock`, `Que[j].process`, `Que[j].units`, `Que[j].status`.
 *
 * Priority: request `(h, p, c)` is higher than `(h', p', c')` iff `c < c'` or `c = c' ∧ p < p'`
 * (Sec. 4.1), see {@link higher}. Index 0 is the highest (the paper counts from 1). At most one entry per process
 * (a process has one request at a time). Internal to `@critsec/h-out-of-k`.
 */
import type { ProcessId } from '@critsec/core';
import { CLOCK_MAX } from '@critsec/transport';

/**
 * Priority of requests: `'ceiling-fair'` (the default) is Sec. 4.1's `(c, p)` order with ties at
 * the clock ceiling broken by `(seq, p)`; `'printed'` is `(c, p)` everywhere.
 */
export type Priority = 'ceiling-fair' | 'printed';

/** `Que[j].status` (Fig. 1): `'wait'`, `'ok'` (OK sent, units taken from `x`), `'cancel'` (cancel sent, units still taken). */
export type QueStatus = 'wait' | 'ok' | 'cancel';

/** One entry `Que[j]` of Fig. 1. */
export interface QueEntry {
  /** `Que[j].clock`: the request's Lamport timestamp `c`. */
  readonly clock: number;
  /** `Que[j].process`: the requester `p`. */
  readonly process: ProcessId;
  /** `Que[j].units`: the request's `h`. */
  readonly units: number;
  /** The request's tag (the requester's request count): answers and releases name it. */
  readonly seq: number;
  /** `Que[j].status`. */
  status: QueStatus;
  /** The clock the arbiter's latest `OK` for this entry carried (unset before the first OK). */
  okTs?: number;
}

/**
 * True when request `a` has the higher priority than `b`: `c_a < c_b`, or `c_a = c_b ∧ p_a < p_b`
 * (Sec. 4.1). One addition for clocks at the ceiling `CLOCK_MAX` (only a forged clock gets there;
 * the paper's clocks are unbounded): there requests tie on `c` and are ordered by `(seq, p)` —
 * the requester's request count first — so a process that keeps requesting cannot overtake a
 * waiting one forever (Theorem 6 needs later requests to rank lower; at the ceiling `seq` does it).
 */
export function higher(
  a: Pick<QueEntry, 'clock' | 'seq' | 'process'>,
  b: Pick<QueEntry, 'clock' | 'seq' | 'process'>,
  priority: Priority = 'ceiling-fair',
): boolean {
  if (a.clock !== b.clock) return a.clock < b.clock;
  if (priority === 'ceiling-fair' && a.clock === CLOCK_MAX && a.seq !== b.seq) return a.seq < b.seq;
  return a.process < b.process;
}

/** The priority queue `Que` of Fig. 1, highest priority first. */
export class Que {
  readonly #entries: QueEntry[] = [];
  readonly #priority: Priority;

  constructor(priority: Priority) {
    this.#priority = priority;
  }

  /** `Quelength`. */
  get length(): number {
    return this.#entries.length;
  }

  /** `Que[j]` (0-based). */
  at(j: number): QueEntry {
    return this.#entries[j]!;
  }

  /** Index of `p`'s entry, or −1. */
  indexOf(p: ProcessId): number {
    return this.#entries.findIndex((e) => e.process === p);
  }

  /** "Insert this request to Que according to the priority (p', c')"; returns its index j. */
  insert(entry: QueEntry): number {
    let j = this.#entries.length;
    while (j > 0 && higher(entry, this.#entries[j - 1]!, this.#priority)) j--;
    this.#entries.splice(j, 0, entry);
    return j;
  }

  /** "Delete the entry Que[j] from Que". */
  removeAt(j: number): QueEntry {
    return this.#entries.splice(j, 1)[0]!;
  }

  /**
   * The last index i (0-based, −1 if none) with `Σ_{j ≤ i} Que[j].units ≤ k`: "i := maximum
   * integer (≤ Quelength) that satisfies Σ_{j=1}^{i} Que[j].units ≤ k" (Fig. 1), minus one.
   */
  prefixEnd(k: number): number {
    let sum = 0;
    for (let i = 0; i < this.#entries.length; i++) {
      sum += this.#entries[i]!.units;
      if (sum > k) return i - 1;
    }
    return this.#entries.length - 1;
  }

  /** `Σ_{i ≤ j} Que[i].units`. */
  unitsThrough(j: number): number {
    let sum = 0;
    for (let i = 0; i <= j; i++) sum += this.#entries[i]!.units;
    return sum;
  }

  /** The entries, highest first (read only: the durable state copies them). */
  entries(): readonly Readonly<QueEntry>[] {
    return this.#entries;
  }

  /** Snapshot `[process, clock, units, status, seq]` per entry, highest first. */
  toArray(): [ProcessId, number, number, QueStatus, number][] {
    return this.#entries.map((e) => [e.process, e.clock, e.units, e.status, e.seq]);
  }
}
