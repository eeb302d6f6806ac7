import { StoreError } from './errors.js';

type Write = readonly [string, string | undefined];

/**
 * The simulated disk under {@link memoryStore}: it outlives the store objects opened on it (a
 * simulated restart opens a new store on the same disk). A transaction of k entries is k+1
 * **writes** — its k entries, then its commit mark — and is visible only once the mark is
 * written, so a crash part-way (a torn transaction) is never visible. `crashAtWrite(w)` makes
 * write number `w` (counted from 0 over the disk's life) fail as a power cut would: it and every
 * later write are lost, until `restart()`.
 */
export class MemoryDisk {
  readonly #entries = new Map<string, string>();
  #writes = 0;
  #crashAt: number | undefined;
  #crashed = false;
  #torn: Write[] = [];

  /** Writes performed so far (entries and commit marks). */
  get writes(): number {
    return this.#writes;
  }

  /** True from a simulated crash until `restart()`. */
  get crashed(): boolean {
    return this.#crashed;
  }

  /** The entries written by the transaction a crash tore (never visible), for inspection. */
  get torn(): ReadonlyArray<readonly [string, string | undefined]> {
    return this.#torn;
  }

  /** Make write number `w` (and all after it) fail; `undefined` clears the crash point. */
  crashAtWrite(w: number | undefined): void {
    this.#crashAt = w;
  }

  /** The disk as found after a power cut: torn writes dropped, writable again. */
  restart(): void {
    this.#crashed = false;
    this.#crashAt = undefined;
    this.#torn = [];
  }

  /** The committed entries (throws `StoreError` `io` while crashed: restart first). */
  entries(): Iterable<[string, string]> {
    if (this.#crashed)
      throw new StoreError('io', 'the simulated disk has crashed: restart() it before reading');
    return new Map(this.#entries);
  }

  /**
   * Write one transaction, synchronously (the memory store's "sync" is instant). Throws
   * `StoreError` `io` at the crash point; the entries written before it stay torn, invisible.
   * `tearAfter` writes only that many entries (at most all of them, never the commit mark) and
   * then crashes (a seeded torn write).
   */
  transact(writes: ReadonlyArray<readonly [string, string | undefined]>, tearAfter?: number): void {
    const done: Write[] = [];
    const tear = tearAfter === undefined ? undefined : Math.min(tearAfter, writes.length); // never the commit mark
    for (let i = 0; i <= writes.length; i++) {
      if (this.#crashed || this.#writes === this.#crashAt || i === tear) {
        this.#crashed = true;
        this.#torn = done;
        throw new StoreError('io', `simulated crash at write ${this.#writes}`);
      }
      this.#writes++;
      if (i < writes.length) done.push(writes[i] as Write);
    }
    for (const [key, text] of done) {
      if (text === undefined) this.#entries.delete(key);
      else this.#entries.set(key, text);
    }
  }
}

/** A new, empty simulated disk. */
export function memoryDisk(): MemoryDisk {
  return new MemoryDisk();
}
