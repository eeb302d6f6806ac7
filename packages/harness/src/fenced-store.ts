/**
 * A fencing-aware resource (issue 28 §1–3): the checker of **exclusion of effects**. A register
 * read and written by holders of a time-bounded grant, each operation carrying the holder's
 * fencing token. With `fencing: true` it rejects an operation whose token is lower than the
 * highest it has seen — reads included, so a stale holder that read before a newer one cannot
 * write afterwards — as a fencing-aware store (etcd's revision compare, a database's version
 * column) would. With `fencing: false` it accepts everything: the same workload is then caught
 * losing updates when a paused holder outlives its grant.
 *
 * Each accepted write is a read-modify-write of one counter (`value := read + 1`), so
 * `lostUpdates = acceptedWrites − value`: an update is lost when two holders read the same value.
 */

/** Options of {@link FencedStore}. */
export interface FencedStoreOptions {
  /** Reject operations with a token below the highest seen (default true). */
  readonly fencing?: boolean;
}

/** A fencing-aware register (see the module comment). */
export class FencedStore {
  /** The register's value. */
  value = 0;
  /** The highest token an accepted operation carried (−1: none yet). */
  highest = -1;
  /** Writes accepted. */
  acceptedWrites = 0;
  /** Operations rejected for a stale token (fencing on). */
  rejected = 0;
  readonly #fencing: boolean;

  /** A register holding 0; `options.fencing` (default true) makes it refuse stale tokens. */
  constructor(options: FencedStoreOptions = {}) {
    this.#fencing = options.fencing ?? true;
  }

  /** Reads the value under `token`; `undefined` (rejected) when the token is stale. */
  read(token: number): number | undefined {
    if (!this.#admit(token)) return undefined;
    return this.value;
  }

  /** Writes `value` under `token`; false (rejected) when the token is stale. */
  write(token: number, value: number): boolean {
    if (!this.#admit(token)) return false;
    this.value = value;
    this.acceptedWrites++;
    return true;
  }

  /** Updates lost so far: accepted increments the value does not show. */
  get lostUpdates(): number {
    return this.acceptedWrites - this.value;
  }

  #admit(token: number): boolean {
    if (this.#fencing && token < this.highest) {
      this.rejected++;
      return false;
    }
    if (token > this.highest) this.highest = token;
    return true;
  }
}
