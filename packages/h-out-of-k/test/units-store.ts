/**
 * A fencing-aware resource for h-out-of-k (issue 28 §2–3): the checker of **exclusion of effects**
 * for holders of time-bounded h-unit grants. Each CS makes two operations on it, `begin` (a read)
 * and `end` (the write that commits the CS's effect), each carrying the holder's fencing token and
 * its h.
 *
 * **The rule** (fencing on): an operation with token t and h units is rejected when an operation
 * of a *conflicting* request — h' units with h + h' > k — carrying a token > t was accepted
 * before. Tokens are ordered across conflicting holders only (README, "Why tokens increase"), so
 * this is all a token can tell: an exclusive writer (h = k) fences every older holder, a sharer
 * (h ≤ k/2) fences older writers and is fenced by newer ones, sharers never fence each other.
 * A shared/exclusive store (readers–writers) needs no more.
 *
 * **What is checked**: a CS is *committed* when both its operations were accepted; two committed
 * CSs of conflicting requests whose operations interleave at the store (`begin`…`end` intervals
 * overlap in the store's order) are a `conflict` — the h-out-of-k analogue of a lost update (two
 * writers that read the same value). `overCapacity` counts committed CSs whose interval overlaps
 * others' with more than k units in all, pairwise conflict or not: three sharers of k = 2
 * overlapping are not told apart by tokens, only by bounded pauses (README, "The guarantee").
 * With fencing off the store accepts everything: the same workload is then caught.
 */

/** One CS's effect at the store. */
interface Effect {
  readonly h: number;
  readonly token: number;
  /** Store order of the accepted `begin` (−1: rejected). */
  readonly from: number;
  /** Store order of the accepted `end` (−1: not yet, or rejected). */
  to: number;
}

/** The resource (see the module comment). */
export class UnitsStore {
  /** Operations rejected for a stale token. */
  rejected = 0;
  readonly #k: number;
  readonly #fencing: boolean;
  /** Per h (index h − 1): the highest token an accepted operation with h units carried. */
  readonly #highest: number[];
  readonly #effects = new Map<number, Effect>();
  #order = 0;
  #next = 0;

  constructor(k: number, options: { readonly fencing?: boolean } = {}) {
    this.#k = k;
    this.#fencing = options.fencing ?? true;
    this.#highest = new Array<number>(k).fill(-1);
  }

  /** The first operation of a CS; returns its handle (`end` takes it), or −1 when rejected. */
  begin(token: number, h: number): number {
    if (!this.#admit(token, h)) return -1;
    const id = this.#next++;
    this.#effects.set(id, { h, token, from: this.#order++, to: -1 });
    return id;
  }

  /** The CS's last operation (its commit); false when rejected (or its `begin` was). */
  end(handle: number, token: number, h: number): boolean {
    const e = this.#effects.get(handle);
    if (e === undefined || !this.#admit(token, h)) return false;
    e.to = this.#order++;
    return true;
  }

  /** Pairs of committed CSs of conflicting requests (h + h' > k) that interleaved here. */
  get conflicts(): number {
    const c = this.#committed();
    let bad = 0;
    for (let i = 0; i < c.length; i++)
      for (let j = i + 1; j < c.length; j++) if (c[i]!.h + c[j]!.h > this.#k && overlap(c[i]!, c[j]!)) bad++;
    return bad;
  }

  /** Committed CSs at whose `begin` the committed CSs then open held more than k units in all. */
  get overCapacity(): number {
    const c = this.#committed();
    const openAt = (t: number) => c.reduce((sum, y) => sum + (y.from <= t && t < y.to ? y.h : 0), 0);
    return c.filter((x) => openAt(x.from) > this.#k).length;
  }

  /** CSs committed (both operations accepted). */
  get commits(): number {
    return this.#committed().length;
  }

  #committed(): Effect[] {
    return [...this.#effects.values()].filter((e) => e.to >= 0);
  }

  #admit(token: number, h: number): boolean {
    if (this.#fencing) {
      for (let g = this.#k - h + 1; g <= this.#k; g++) {
        if (this.#highest[g - 1]! > token) {
          this.rejected++;
          return false;
        }
      }
    }
    if (token > this.#highest[h - 1]!) this.#highest[h - 1] = token;
    return true;
  }
}

function overlap(a: Effect, b: Effect): boolean {
  return a.from < b.to && b.from < a.to;
}
