/**
 * `@critsec/complement` — the complement transform Co-A (global-CS paper, Sec. 2, Thm. 1;
 * local-CS paper, Thm. 2) for any CS factory, live CS object or problem spec: InCS and OutCS
 * swapped, `entry` and `exit` swapped, and for a factory the initial configuration flipped
 * before it reaches the inner algorithm. Co-A of an (l,k)-CS algorithm solves (n−k, n−l).
 *
 * @example
 * ```ts
 * import { complement } from '@critsec/complement';
 * import { globalSpec } from '@critsec/core';
 * import { mutin } from '@critsec/mutin';
 * import { majority } from '@critsec/coteries';
 *
 * const n = 5;
 * const coterie = majority(n);
 * // MUTIN(n−1) keeps ≥ n−1 processes InCS; its complement keeps ≤ 1 InCS: mutual exclusion
 * const mutex = complement(mutin({ l: n - 1, coterie }));
 * console.log(complement(globalSpec(n - 1, n, n))); // { kind: 'global', n: 5, l: 0, k: 1 }
 * ```
 *
 * @packageDocumentation
 */
export {
  type ComplementArgs,
  type ComplementObject,
  type ComplementRequestOptions,
  complement,
} from './complement.js';
export { complementSpec } from '@critsec/core';
