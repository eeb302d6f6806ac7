/**
 * The requester's marks of Maekawa's algorithm (group-mutex paper Fig. 5 `locked_nodes`, and
 * Sanders' failed / yielded marks and deferred inquiries; rules R2–R4 of `maekawa-process.ts`),
 * one entry per arbiter of `Q_i` (index `x`), with the counters the rules read in O(1).
 */
import type { ProcessId } from '@critsec/core';
import type { IdIndex } from './id-index.js';
import type { MaekawaDurableState } from './maekawa-durable.js';
import type { MaekawaSnapshot } from './maekawa-protocol.js';

/** The marks of one requester (see the module comment). */
export class RequesterMarks {
  /** `locks[x] = 1`: the lock of arbiter `Q_i[x]` is held. A set: `lockCount` counts its members. */
  readonly locks: Uint8Array;
  /** Members of {@link locks}. */
  lockCount = 0;
  /** `failed[x] = 1`: `Q_i[x]` sent FAILED for this request and has not granted since. */
  readonly failed: Uint8Array;
  /** `yielded[x] = 1`: this process relinquished `Q_i[x]`'s lock and has not regained it. */
  readonly yielded: Uint8Array;
  /** Number of x with `failed[x] ∨ yielded[x]`: nonzero ⇒ answer INQUIRE with RELINQUISH. */
  blocked = 0;
  /** `inquiredBy[x] = 1`: an INQUIRE from `Q_i[x]` is deferred. */
  readonly inquiredBy: Uint8Array;
  /** Members of {@link inquiredBy}. */
  deferredCount = 0;

  /** @param q `|Q_i|`. */
  constructor(q: number) {
    this.locks = new Uint8Array(q);
    this.failed = new Uint8Array(q);
    this.yielded = new Uint8Array(q);
    this.inquiredBy = new Uint8Array(q);
  }

  /** No lock, no mark (a new request, an exit, a withdrawal). */
  reset(): void {
    this.locks.fill(0);
    this.lockCount = 0;
    this.failed.fill(0);
    this.yielded.fill(0);
    this.blocked = 0;
    this.clearInquiries();
  }

  /** Every lock of `Q_i` held — or of the given indices (the initial holder under reselection). */
  holdAll(indices?: readonly number[]): void {
    if (indices === undefined) this.locks.fill(1);
    else for (const x of indices) this.locks[x] = 1;
    this.lockCount = indices?.length ?? this.locks.length;
  }

  /** R2: the lock of `Q_i[x]` is granted (its marks go). @returns false for a duplicate. */
  lock(x: number): boolean {
    if (this.locks[x] === 1) return false;
    this.locks[x] = 1;
    this.lockCount++;
    this.#unmark(x);
    return true;
  }

  /** F4 (issue 28): `Q_i[x]` reclaimed its grant — no lock, no mark, no deferred INQUIRE there. */
  forget(x: number): void {
    if (this.locks[x] === 1) {
      this.locks[x] = 0;
      this.lockCount--;
    }
    this.#undefer(x);
    this.#unmark(x);
  }

  /** R3: FAILED from `Q_i[x]`. @returns false when ignored (lock held or already marked). */
  fail(x: number): boolean {
    if (this.locks[x] === 1 || this.failed[x] === 1) return false;
    this.failed[x] = 1;
    if (this.yielded[x] === 0) this.blocked++;
    return true;
  }

  /** R4: defer an INQUIRE from `Q_i[x]` (once). @returns false when already deferred. */
  defer(x: number): boolean {
    if (this.inquiredBy[x] === 1) return false;
    this.inquiredBy[x] = 1;
    this.deferredCount++;
    return true;
  }

  /** R3–R4: the lock of `Q_i[x]` is relinquished (marked yielded). */
  relinquish(x: number): void {
    this.#undefer(x);
    this.locks[x] = 0;
    this.lockCount--;
    this.yielded[x] = 1;
    if (this.failed[x] === 0) this.blocked++;
  }

  /** R2: deferred inquiries are dropped at entry (the RELEASE at exit answers them). */
  clearInquiries(): void {
    this.inquiredBy.fill(0);
    this.deferredCount = 0;
  }

  /** The requester's variables as `inspect()` shows them, the marks by arbiter id. */
  snapshot(quorum: readonly ProcessId[], request: number, waiting: boolean): MaekawaSnapshot['requester'] {
    const pick = (a: Uint8Array) => RequesterMarks.pick(quorum, a);
    const [locks, failed, yielded] = [pick(this.locks), pick(this.failed), pick(this.yielded)];
    return { request, waiting, locks, failed, yielded, inquiredBy: pick(this.inquiredBy) };
  }

  /** The ids of `quorum` whose mark in `a` is set. */
  static pick(quorum: readonly ProcessId[], a: Uint8Array): ProcessId[] {
    return quorum.filter((_, x) => a[x] === 1);
  }

  /** Sets the marks from a recovered state (checked by `parseMaekawaDurable`). */
  restore(r: MaekawaDurableState['requester'], qIndex: IdIndex): void {
    const mark = (a: Uint8Array, list: readonly ProcessId[]): void => {
      for (const p of list) a[qIndex.indexOf(p)] = 1;
    };
    mark(this.locks, r.locks);
    mark(this.failed, r.failed);
    mark(this.yielded, r.yielded);
    mark(this.inquiredBy, r.inquiredBy);
    this.blocked = new Set([...r.failed, ...r.yielded]).size;
    [this.lockCount, this.deferredCount] = [r.locks.length, r.inquiredBy.length];
  }

  #undefer(x: number): void {
    if (this.inquiredBy[x] === 1) {
      this.inquiredBy[x] = 0;
      this.deferredCount--;
    }
  }

  #unmark(x: number): void {
    if (this.failed[x] === 1 || this.yielded[x] === 1) {
      this.failed[x] = 0;
      this.yielded[x] = 0;
      this.blocked--;
    }
  }
}
