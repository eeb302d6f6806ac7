/**
 * Positions of process ids in a short list (a quorum Q_i, an arbiter's reporters), found by
 * binary search over the sorted ids: O(|Q|) memory per process instead of an array of n — at
 * n = 10,000 the n-sized arrays of every process were 600 MB (issue 15).
 */
import type { ProcessId } from '@critsec/core';

/** The position of each id of a list (its last occurrence when an id repeats). */
export class IdIndex {
  readonly #ids: Int32Array;
  readonly #positions: Int32Array;

  constructor(list: readonly ProcessId[]) {
    const last = new Map<number, number>();
    list.forEach((id, x) => {
      last.set(id, x);
    });
    const ids = [...last.keys()].sort((a, b) => a - b);
    this.#ids = Int32Array.from(ids);
    this.#positions = Int32Array.from(ids, (id) => last.get(id)!);
  }

  /** The position of `id` in the list, or −1 when it is not in it. */
  indexOf(id: ProcessId): number {
    const ids = this.#ids;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = ids[mid]!;
      if (x === id) return this.#positions[mid]!;
      if (x < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
