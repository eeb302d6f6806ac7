/**
 * Quorum sizes and messages per request of the (h,k)-arbiters against the k-arbiters they
 * generalize (h-out-of-k paper, Sec. 3: "the quorums in each (h,k)-arbiter are not larger than
 * these in the corresponding k-arbiter") — the rows of a `critsec bench` table.
 */
import {
  cubeHKArbiter,
  cubeKArbiter,
  type HKArbiter,
  uniformHKArbiter,
  uniformKArbiter,
} from '@critsec/coteries';
import { hOutOfKBounds } from './bounds.js';
import { asHKArbiter } from './factory.js';

/** Largest quorum for h units and the messages per request without conflict (`3·|q|`). */
export interface ArbiterCost {
  /** Largest quorum for h units, `|q|`. */
  readonly quorum: number;
  /** Messages per request without conflict, `3·|q|`. */
  readonly messages: number;
}

/** One row per h: the four arbiters side by side. */
export interface ArbiterComparisonRow {
  /** Number of processes. */
  readonly n: number;
  /** Number of resource units. */
  readonly k: number;
  /** Units per request. */
  readonly h: number;
  /** Uniform (h,k)-arbiter (Sec. 3.2). */
  readonly uniform: ArbiterCost;
  /** Uniform k-arbiter (Sec. 2.3): the same quorum for every h. */
  readonly uniformK: ArbiterCost;
  /** (k+1)-cube (h,k)-arbiter (Sec. 3.3). */
  readonly cube: ArbiterCost;
  /** (k+1)-cube k-arbiter (Sec. 2.3). */
  readonly cubeK: ArbiterCost;
}

function costs(a: HKArbiter): ArbiterCost[] {
  return hOutOfKBounds(a).map((r) => ({ quorum: r.quorumSize.max, messages: r.messagesUncontended }));
}

/**
 * Compares, for every h = 1..k, the uniform and (k+1)-cube (h,k)-arbiters with the uniform and
 * (k+1)-cube k-arbiters for n processes: largest quorum `|q|` and messages per request without
 * conflict `3·|q|` (exact, Sec. 4.3; the fast test suite measures it).
 * @throws ConfigurationError unless n ≥ 2 and 1 ≤ k < n.
 */
export function compareArbiters(n: number, k: number): ArbiterComparisonRow[] {
  const u = costs(uniformHKArbiter(n, k));
  const uk = costs(asHKArbiter(uniformKArbiter(n, k)));
  const c = costs(cubeHKArbiter(n, k));
  const ck = costs(asHKArbiter(cubeKArbiter(n, k)));
  return u.map((_, t) => ({ n, k, h: t + 1, uniform: u[t]!, uniformK: uk[t]!, cube: c[t]!, cubeK: ck[t]! }));
}
