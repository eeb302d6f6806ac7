/**
 * Priorities and the `rank` function of Maekawa_M — Joung, "Quorum-based algorithms for group
 * mutual exclusion", IEEE TPDS 14(5), 2003, Sec. 4.2 and Fig. 6 (cont.), "Variables".
 *
 * A priority is the pair ⟨p, t⟩ (process id, Lamport timestamp): ⟨p, t₁⟩ > ⟨q, t₂⟩ iff
 * t₁ > t₂ or (t₁ = t₂ ∧ p > q). The larger the value, the lower the priority.
 */
import type { ProcessId } from '@critsec/core';

/** One entry of a node's `requests`: the tuple (p, t, g) plus the request's tag `req`. */
export interface RequestEntry {
  readonly p: ProcessId;
  /** Timestamp t of the priority ⟨p, t⟩. */
  readonly t: number;
  /** Group g of the requester. */
  readonly g: number;
  /** The requester's request number (tags LOCKED/INQUIRE/UNLOCK). */
  readonly req: number;
}

/** ⟨p, t₁⟩ < ⟨q, t₂⟩: the first priority is higher. */
export function higher(a: RequestEntry, b: RequestEntry): boolean {
  return a.t < b.t || (a.t === b.t && a.p < b.p);
}

/**
 * `rank(k, h, Q, requests)` (Fig. 6 cont.): the k-th highest priority request (|k|-th lowest if
 * k < 0) among the requests of group `h` (any group when `h` is `undefined`, the paper's '−')
 * whose process satisfies `inQ`; `undefined` for the paper's (⊥, ⊥, ⊥).
 */
export function rank(
  k: number,
  h: number | undefined,
  inQ: (p: ProcessId) => boolean,
  requests: ReadonlyMap<ProcessId, RequestEntry>,
): RequestEntry | undefined {
  const picked: RequestEntry[] = [];
  for (const e of requests.values()) if ((h === undefined || e.g === h) && inQ(e.p)) picked.push(e);
  if (picked.length === 0) return undefined;
  picked.sort((a, b) => (higher(a, b) ? -1 : higher(b, a) ? 1 : 0));
  return k > 0 ? picked[k - 1] : picked[picked.length + k];
}

/** Every process. */
export const ALL = (): boolean => true;
