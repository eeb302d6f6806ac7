/**
 * LKCS's configuration (Kamei & Kakugawa 2017, Section 5.1 and Algorithm 3 "Macros"): the leader
 * P_LDR with |N_LDR| ≥ 4, and the tightened bounds L_i = l_i + 1, K_i = k_i − 1 of every process
 * within two hops of it (which must then keep k_i − l_i ≥ 3), the others keeping L_i = l_i,
 * K_i = k_i. The slack of one on each side is the "sidetrack" the leader hands to one trigger.
 */
import { ConfigurationError, type Graph, type LocalSpec, localSpec, type ProcessId } from '@critsec/core';
import { type Bounds, localBounds } from './config.js';
import { distances } from './graphs.js';

/** What {@link lkcsPlan} decides: the leader, the macros L_i and K_i, and both problems. */
export interface LkcsPlan {
  /** P_LDR. */
  readonly leader: ProcessId;
  /** dist(P_LDR, P_i) for every i (hops; `Infinity` when unreachable). */
  readonly dist: readonly number[];
  /** The problem LKCS solves: (l_i, k_i). */
  readonly spec: LocalSpec;
  /** The bounds it keeps while nobody uses the sidetrack: (L_i, K_i). Initial configurations must satisfy these. */
  readonly tightened: LocalSpec;
}

/** Why `p` cannot be the leader, or null if it can (Sec. 5.1: |N_LDR| ≥ 4, k_q − l_q ≥ 3 within two hops). */
export function leaderProblem(spec: LocalSpec, p: ProcessId): string | null {
  const degree = spec.graph.neighbors[p]!.length;
  if (degree < 4) return `|N_${p}| = ${degree} < 4`;
  const dist = distances(spec.graph, p);
  for (let q = 0; q < spec.n; q++) {
    if (dist[q]! <= 2 && spec.k[q]! - spec.l[q]! < 3) {
      return `P${q} is within two hops of P${p} but k_${q} − l_${q} = ${spec.k[q]} − ${spec.l[q]} = ${spec.k[q]! - spec.l[q]!} < 3`;
    }
  }
  return null;
}

/**
 * Validates LKCS's preconditions and picks the leader (Sec. 5.1).
 *
 * Without `leader`, the valid leader of highest degree (smallest id on ties) is taken.
 * @throws ConfigurationError if the bounds break `0 ≤ l_i < k_i ≤ |N_i| + 1`, if the given leader
 *   is not a process id or breaks a precondition (the message names the process and the value),
 *   or if no process can lead (the message gives the reason for the best-connected candidate).
 */
export function lkcsPlan(graph: Graph, l: Bounds, k: Bounds, leader?: ProcessId): LkcsPlan {
  const spec = localBounds(graph, l, k);
  let ldr: ProcessId;
  if (leader !== undefined) {
    if (!Number.isSafeInteger(leader) || leader < 0 || leader >= graph.n) {
      throw new ConfigurationError(
        `lkcs: leader must be a process id 0..${graph.n - 1}, got ${String(leader)}`,
      );
    }
    const why = leaderProblem(spec, leader);
    if (why !== null) throw new ConfigurationError(`lkcs: P${leader} cannot be the leader: ${why}`);
    ldr = leader;
  } else {
    const order = [...Array(graph.n).keys()].sort(
      (a, b) => graph.neighbors[b]!.length - graph.neighbors[a]!.length || a - b,
    );
    const found = order.find((p) => leaderProblem(spec, p) === null);
    if (found === undefined) {
      const best = order[0]!;
      throw new ConfigurationError(
        `lkcs: no process can be the leader (Sec. 5.1 needs |N_LDR| ≥ 4 and k_q − l_q ≥ 3 within two hops); e.g. P${best}: ${leaderProblem(spec, best)}`,
      );
    }
    ldr = found;
  }
  const dist = distances(graph, ldr);
  const near = (i: number) => dist[i]! <= 2;
  const tightened = localSpec(
    graph,
    spec.l.map((li, i) => (near(i) ? li + 1 : li)),
    spec.k.map((ki, i) => (near(i) ? ki - 1 : ki)),
  );
  return { leader: ldr, dist, spec, tightened };
}
