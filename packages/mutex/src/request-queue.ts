import type { ProcessId } from '@critsec/core';
import type { IdIndex } from './id-index.js';

/**
 * Priority order of requests `(ts, id)`: the smaller timestamp wins, ties broken by the smaller
 * process id (Lamport 1978; group-mutex paper, Sec. 4.2: `⟨p, t1⟩ > ⟨q, t2⟩` iff `t1 > t2` or
 * `t1 = t2 ∧ p > q`, the larger value being the lower priority). True when `(tsA, a)` has the
 * higher priority.
 */
export function beats(tsA: number, a: ProcessId, tsB: number, b: ProcessId): boolean {
  return tsA < tsB || (tsA === tsB && a < b);
}

/**
 * The waiting queue of one arbiter: a binary min-heap of requests ordered by {@link beats}, stored
 * in parallel typed arrays (no allocation per request). Each entry carries a `failed` flag: the
 * requester knows it is not (or may not be) the highest request here — this arbiter sent it
 * `FAILED`, or it relinquished this arbiter's lock. At most one entry per process.
 *
 * Internal to `@critsec/mutex`.
 */
export class RequestQueue {
  #pid: Int32Array;
  #ts: Float64Array;
  #failed: Uint8Array;
  #size = 0;
  /** `present[slot(pid)] = 1` while `pid` has an entry: O(1) membership. */
  readonly #present: Uint8Array;
  /** The processes that may ask, when given: slots by their position (memory O(|Q|), not n). */
  readonly #members: IdIndex | undefined;

  /**
   * @param capacity initial capacity (the number of processes that may ask; grows if exceeded).
   * @param n number of processes: entries are process ids `0..n-1`.
   * @param members the only processes that may ask (an arbiter's reporters): membership is then
   *   kept per member, not per process (issue 15: n bytes per arbiter were 100 MB at n = 10,000).
   */
  constructor(capacity: number, n: number, members?: IdIndex) {
    this.#members = members;
    this.#present = new Uint8Array(members === undefined ? n : members.size);
    const c = Math.max(1, capacity);
    this.#pid = new Int32Array(c);
    this.#ts = new Float64Array(c);
    this.#failed = new Uint8Array(c);
  }

  /** Where `pid`'s membership is kept (−1, never set, for a process that may not ask). */
  #slot(pid: ProcessId): number {
    return this.#members === undefined ? pid : this.#members.indexOf(pid);
  }

  /** True when `pid` has an entry (O(1)). */
  has(pid: ProcessId): boolean {
    return this.#present[this.#slot(pid)] === 1;
  }

  get size(): number {
    return this.#size;
  }

  /** Process of the highest-priority entry (−1 when empty). */
  get headPid(): ProcessId {
    return this.#size === 0 ? -1 : this.#pid[0]!;
  }

  /** Timestamp of the highest-priority entry (NaN when empty). */
  get headTs(): number {
    return this.#size === 0 ? Number.NaN : this.#ts[0]!;
  }

  /** The `failed` flag of the highest-priority entry. */
  get headFailed(): boolean {
    return this.#size > 0 && this.#failed[0] === 1;
  }

  /** Sets the `failed` flag of the highest-priority entry. */
  markHeadFailed(): void {
    if (this.#size > 0) this.#failed[0] = 1;
  }

  /** Position of `pid`'s entry, or −1 (O(1) when absent, a scan when present). */
  indexOf(pid: ProcessId): number {
    if (this.#present[this.#slot(pid)] !== 1) return -1;
    for (let i = 0; i < this.#size; i++) if (this.#pid[i] === pid) return i;
    return -1;
  }

  /** Timestamp of the entry at `index` (from {@link indexOf}). */
  tsAt(index: number): number {
    return this.#ts[index]!;
  }

  /** Adds a request. */
  push(pid: ProcessId, ts: number, failed: boolean): void {
    if (this.#size === this.#pid.length) this.#grow();
    this.#present[this.#slot(pid)] = 1;
    let i = this.#size++;
    // sift up
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!beats(ts, pid, this.#ts[parent]!, this.#pid[parent]!)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#pid[i] = pid;
    this.#ts[i] = ts;
    this.#failed[i] = failed ? 1 : 0;
  }

  /** Removes the highest-priority entry (the caller read it through the `head*` getters). */
  pop(): void {
    this.removeAt(0);
  }

  /** Removes the entry at `index`. */
  removeAt(index: number): void {
    this.#present[this.#slot(this.#pid[index]!)] = 0;
    const last = --this.#size;
    if (index === last) return;
    const pid = this.#pid[last]!;
    const ts = this.#ts[last]!;
    const failed = this.#failed[last]!;
    // sift the last entry into the hole, up or down
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!beats(ts, pid, this.#ts[parent]!, this.#pid[parent]!)) break;
      this.#move(parent, i);
      i = parent;
    }
    if (i === index) {
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const c = r < last && beats(this.#ts[r]!, this.#pid[r]!, this.#ts[l]!, this.#pid[l]!) ? r : l;
        if (!beats(this.#ts[c]!, this.#pid[c]!, ts, pid)) break;
        this.#move(c, i);
        i = c;
      }
    }
    this.#pid[i] = pid;
    this.#ts[i] = ts;
    this.#failed[i] = failed;
  }

  /** The entries in priority order, for `inspect()` and tests: `[pid, ts, failed]`. */
  toSortedArray(): [ProcessId, number, boolean][] {
    const out: [ProcessId, number, boolean][] = [];
    for (let i = 0; i < this.#size; i++) out.push([this.#pid[i]!, this.#ts[i]!, this.#failed[i] === 1]);
    return out.sort((x, y) => (beats(x[1], x[0], y[1], y[0]) ? -1 : 1));
  }

  #move(from: number, to: number): void {
    this.#pid[to] = this.#pid[from]!;
    this.#ts[to] = this.#ts[from]!;
    this.#failed[to] = this.#failed[from]!;
  }

  #grow(): void {
    const c = this.#pid.length * 2;
    const pid = new Int32Array(c);
    const ts = new Float64Array(c);
    const failed = new Uint8Array(c);
    pid.set(this.#pid);
    ts.set(this.#ts);
    failed.set(this.#failed);
    this.#pid = pid;
    this.#ts = ts;
    this.#failed = failed;
  }
}
