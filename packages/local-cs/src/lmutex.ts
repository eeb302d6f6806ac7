/**
 * ki-LMUTEX — the generalized local ki-mutual exclusion, the (0, k_i)-CS on any graph.
 *
 * Source: Kamei & Kakugawa 2017, Section 4, Theorem 2 (the generalized local complementary
 * theorem): Co-(li-LMUTIN) solves the (0, |N_i| + 1 − l_i)-CS; with l_i = |N_i| + 1 − k_i it is
 * ki-LMUTEX. Built with `complement` of `@critsec/complement` over {@link lmutin}: `entry()` is
 * LMUTIN's exit-sequence (Request / Grant, waits), `exit()` its entry-sequence (Release, at once).
 */
import { complement } from '@critsec/complement';
import { ConfigurationError, type CSFactory, type Graph } from '@critsec/core';
import { assertSafeInitial, type Bounds, expandBounds, localBounds } from './config.js';
import { lmutin } from './lmutin.js';
import { assertGraph } from './validate.js';

/** Options of {@link lmutex}. */
export interface LmutexOptions {
  /** The communication graph. */
  readonly graph: Graph;
  /** k_i per process, `1 ≤ k_i ≤ |N_i| + 1`: at most k_i of N_i ∪ {P_i} InCS. */
  readonly k: Bounds;
}

/**
 * ki-LMUTEX = Co-(li-LMUTIN) with l_i = |N_i| + 1 − k_i (Sec. 4, Thm. 2): at most k_i processes of
 * N_i ∪ {P_i} InCS. `entry({ signal })` waits for a Grant from every process of N_i ∪ {P_i} and can
 * be aborted (the request is released everywhere); `exit()` completes at once. Messages per pair
 * as LMUTIN (Lemma 3): 3(|N_i|+1) uncontended, at most 6(|N_i|+1).
 *
 * @param options `{ graph, k }`; k as one number, an array, or `(i, degree) => k_i`.
 * @throws ConfigurationError if the graph is invalid, some `k_i` is outside `1 ≤ k_i ≤ |N_i| + 1`
 *   (named as LMUTIN's `l_i = |N_i| + 1 − k_i`, with both values), or (from the factory) the
 *   initial configuration has more than k_i InCS in some N_i ∪ {P_i}.
 */
export function lmutex(options: LmutexOptions): CSFactory {
  const graph = assertGraph(options?.graph, 'lmutex');
  const k = expandBounds(graph, options.k, 'k');
  const l = k.map((ki, i) => {
    const size = graph.neighbors[i]!.length + 1;
    if (ki < 1 || ki > size) {
      throw new ConfigurationError(
        `lmutex: P${i} needs 1 ≤ k_i ≤ |N_i|+1 = ${size}, got k_${i} = ${ki} (LMUTIN's l_${i} = |N_i|+1−k_i = ${size - ki})`,
      );
    }
    return size - ki;
  });
  const spec = localBounds(graph, 0, k);
  const inner = complement(lmutin({ graph, l }));
  return (ctx) => {
    assertSafeInitial(spec, ctx.initial, 'lmutex');
    return inner(ctx);
  };
}
