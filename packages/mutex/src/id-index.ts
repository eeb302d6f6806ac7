/**
 * Positions of process ids in a short list (a quorum Q_i, an arbiter's reporters): a small
 * open-addressing hash table (linear probing, at most half full), O(|Q|) memory per process
 * instead of an array of n — at n = 10,000 the n-sized arrays of every process were 600 MB
 * (issue 15) — and about one probe a lookup.
 */
import type { ProcessId } from '@critsec/core';

const EMPTY = -1;

/** The position of each id of a list (its last occurrence when an id repeats). */
export class IdIndex {
  readonly #ids: Int32Array;
  readonly #positions: Int32Array;
  readonly #mask: number;
  readonly #shift: number;
  /** The length of the list: positions are `0..size-1`. */
  readonly size: number;

  constructor(list: readonly ProcessId[]) {
    this.size = list.length;
    let bits = 1;
    while (1 << bits < 2 * list.length) bits++;
    this.#ids = new Int32Array(1 << bits).fill(EMPTY);
    this.#positions = new Int32Array(1 << bits);
    this.#mask = (1 << bits) - 1;
    this.#shift = 32 - bits;
    list.forEach((id, x) => {
      let h = this.#slot(id);
      while (this.#ids[h] !== EMPTY && this.#ids[h] !== id) h = (h + 1) & this.#mask;
      this.#ids[h] = id;
      this.#positions[h] = x;
    });
  }

  /** The position of `id` in the list, or −1 when it is not in it. */
  indexOf(id: ProcessId): number {
    const ids = this.#ids;
    for (let h = this.#slot(id); ; h = (h + 1) & this.#mask) {
      const x = ids[h]!;
      if (x === EMPTY) return -1;
      if (x === id) return this.#positions[h]!;
    }
  }

  /** Fibonacci hashing: the top bits of id × 2^32/φ. */
  #slot(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.#shift;
  }
}
