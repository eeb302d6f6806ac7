/**
 * Fig. 1's `Q` and `K` of one requester — h-out-of-k paper (Manabe & Tajima), Sec. 4.1: the
 * quorum of the current request and the arbiters of it whose `OK` is held ("K := K ∪ {p'}" on
 * `OK`, "K := K − {p'}" on `cancel`), with the OKs given back during the request. Membership
 * arrays over the n processes. Internal to `@critsec/h-out-of-k`.
 */
import type { ProcessId } from '@critsec/core';

/** `Q`, `K` and the OKs given back, for the current request. */
export class QuorumOKs {
  /** Fig. 1 `Q`: the quorum of the current request (empty when none). */
  Q: readonly ProcessId[] = [];
  /** `inQ[r] = 1`: r ∈ Q (read by the sender check, `roles.ts`). */
  readonly inQ: Uint8Array;
  /** Fig. 1 `K` as a membership array over processes. */
  readonly #K: Uint8Array;
  #size = 0;
  /** `gaveBack[r] = 1`: r's OK was given back with `cancelled` during this request. */
  readonly #gaveBack: Uint8Array;

  constructor(n: number) {
    this.inQ = new Uint8Array(n);
    this.#K = new Uint8Array(n);
    this.#gaveBack = new Uint8Array(n);
  }

  /** A new request's quorum (`K := φ`), or none (`[]`). */
  set(Q: readonly ProcessId[]): void {
    for (const r of this.Q) this.inQ[r] = this.#K[r] = this.#gaveBack[r] = 0;
    this.#size = 0;
    this.Q = Q;
    for (const r of Q) this.inQ[r] = 1;
  }

  /** r ∈ K. */
  has(r: ProcessId): boolean {
    return this.#K[r] === 1;
  }

  /** True when r's OK was given back during this request. */
  gaveBack(r: ProcessId): boolean {
    return this.#gaveBack[r] === 1;
  }

  /** `K := K ∪ {r}`; true when now `K = Q`. */
  add(r: ProcessId): boolean {
    if (this.#K[r] === 0) this.#size++;
    this.#K[r] = 1;
    return this.#size === this.Q.length;
  }

  /** `K := K − {r}`; `gaveBack` marks an OK given back with `cancelled`. */
  remove(r: ProcessId, gaveBack: boolean): void {
    if (this.#K[r] === 1) this.#size--;
    this.#K[r] = 0;
    if (gaveBack) this.#gaveBack[r] = 1;
  }

  /** `K`, in `Q`'s order. */
  get K(): ProcessId[] {
    return this.Q.filter((r) => this.#K[r] === 1);
  }

  /** The arbiters whose OK was given back, in `Q`'s order. */
  get givenBack(): ProcessId[] {
    return this.Q.filter((r) => this.#gaveBack[r] === 1);
  }

  /** Resumes a recovered request's `Q`, `K` and OKs given back. */
  restore(Q: readonly ProcessId[], K: readonly ProcessId[], gaveBack: readonly ProcessId[]): void {
    this.set(Q);
    for (const r of K) this.add(r);
    for (const r of gaveBack) this.#gaveBack[r] = 1;
  }
}
