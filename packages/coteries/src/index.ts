/**
 * `@critsec/coteries` — quorum systems for distributed critical sections: every construction the
 * critsec papers use, with validators and metrics. Pure computation, no I/O.
 *
 * - **Coteries** (global-CS paper, Def. 3, Examples 1–2; Maekawa): {@link majority},
 *   {@link grid}, {@link projectivePlane}, {@link tree}, {@link wall} (crumbling walls),
 *   {@link fromQuorums} / {@link coterieFromJSON} for your own. A {@link Coterie} carries the
 *   per-process assignment `quorumOf(i)` = Q_i and `reportersOf(i)` = R_i.
 * - **k-arbiters and (h,k)-arbiters** (h-out-of-k paper, Sec. 2.3, 3): {@link uniformKArbiter},
 *   {@link cubeKArbiter}, {@link uniformHKArbiter}, {@link cubeHKArbiter}; request patterns
 *   (Defs. 3–4) and {@link checkHKArbiter} (Theorem 1).
 * - **Group quorum systems** (group-mutex paper, Sec. 3): {@link surficial}, {@link groupFromCoterie}
 *   (T_m), {@link checkGroupQuorumSystem}, {@link degree}.
 * - **Validators**: {@link checkCoterie}, {@link checkKArbiter}, {@link checkHKArbiter},
 *   {@link checkGroupQuorumSystem} — results name the offending quorums.
 * - **Metrics**: {@link quorumSizes}, {@link processLoad}, {@link optimalLoad} (Naor–Wool, LP),
 *   {@link faultTolerance}, {@link availability}, {@link dominates}, {@link isNonDominated} — over
 *   the quorums given (for a coterie: the assigned ones).
 * - **Literature families**: `majority(n)` and `tree(n)` carry `family`, the quorum system they
 *   are named after (every majority; the Agrawal–El Abbadi tree protocol). {@link familyMetrics}
 *   gives its figures by closed forms, {@link familyQuorums} enumerates it for small n,
 *   {@link coterieMetrics} reports `assigned` and `literature` figures side by side.
 * - **Quorum reselection**: {@link quorumAvoiding} — `Q_i`, or another quorum of the family that
 *   avoids suspected processes; {@link reselectionAvailability} measures the availability it gives.
 *
 * @example
 * ```ts
 * import { checkCoterie, fromQuorums, grid, optimalLoad } from '@critsec/coteries';
 *
 * const c = grid(9);                 // 3×3 grid, |Q| = 5
 * c.quorumOf(4);                     // [1, 3, 4, 5, 7]
 * c.reportersOf(0);                  // [0, 1, 2, 3, 6]
 * optimalLoad(c).load;               // 5/9
 * checkCoterie({ n: 4, quorums: [[0, 1], [2, 3]] }).message;
 * // 'quorum #0 = {0, 1} and quorum #1 = {2, 3} do not intersect; …'
 * fromQuorums(3, [[0, 1], [1, 2], [0, 2]]).toJSON(); // { n: 3, kind: 'custom', assignment: [...] }
 * ```
 *
 * @packageDocumentation
 */
export {
  type ArbiterCheck,
  type ArbiterCheckOptions,
  type ArbiterViolation,
  checkHKArbiter,
  checkKArbiter,
  fromHKQuorums,
  type HKQuorumSets,
  hkArbiterFromJSON,
} from './check-arbiter.js';
export {
  cubeHKArbiter,
  cubeKArbiter,
  type HKArbiter,
  isHKArbiter,
  type HKArbiterJSON,
  type KArbiter,
  uniformHKArbiter,
  uniformKArbiter,
} from './arbiter.js';
export { cubeSide, cubeZ, uniformQuorumSize } from './arbiter-size.js';
export { MAX_QUORUM_MEMBERSHIPS, MAX_QUORUM_SET_BITS } from './size-limit.js';
export {
  assertCoterie,
  type CoterieCheck,
  type CoterieViolation,
  checkCoterie,
  checkQuorums,
} from './check-coterie.js';
export { type Coterie, type CoterieJSON, isCoterie } from './coterie.js';
export { type AssignedFigures, type CoterieMetrics, coterieMetrics } from './coterie-metrics.js';
export { coterieFromJSON, fromQuorums } from './custom.js';
export {
  type FamilyMetrics,
  familyMetrics,
  familyQuorums,
  type QuorumFamily,
  type QuorumFigures,
} from './family.js';
export { type GridShape, grid, gridShape } from './grid.js';
export {
  type CartelQuorumRef,
  checkGroupQuorumSystem,
  type GroupCheck,
  type GroupViolation,
} from './group-check.js';
export {
  type GroupQuorumSystem,
  isGroupQuorumSystem,
  type GroupQuorumSystemJSON,
  groupFromCoterie,
  groupQuorumSystem,
  groupQuorumSystemFromJSON,
} from './group.js';
export { type DegreeResult, degree, groupDegree } from './group-degree.js';
export { type SurficialFit, surficial, surficialSize } from './surficial.js';
export { majority } from './majority.js';
export {
  COTERIE_NAMES,
  type CoterieName,
  coterieByName,
  maxQuorumSize,
  nearestCoterieSize,
} from './by-name.js';
export { type AvailabilityResult, availability } from './availability.js';
export { quorumAvoiding } from './avoiding.js';
export { type ReselectionAvailabilityOptions, reselectionAvailability } from './avoiding-availability.js';
export { type DominationWitness, dominates, dominationWitness, isNonDominated } from './dominance.js';
export { type FaultToleranceResult, faultTolerance } from './fault-tolerance.js';
export {
  type LoadResult,
  optimalLoad,
  type ProcessLoad,
  processLoad,
  type QuorumSizes,
  quorumSizes,
} from './metrics.js';
export type { QuorumRef, QuorumSet, StructuralViolation } from './prepared.js';
export { MAX_PROJECTIVE_PLANE_ORDER, projectivePlane } from './projective-plane.js';
export { criticalConflictingPatterns, isConflicting, isCritical } from './request-patterns.js';
export { tree } from './tree.js';
export { triangle, wall, wheel } from './wall.js';
