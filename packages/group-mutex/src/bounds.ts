/**
 * The paper's costs of Maekawa_M and Maekawa_S for given parameters — Joung, "Quorum-based
 * algorithms for group mutual exclusion", IEEE TPDS 14(5), 2003: Theorem 5 (Maekawa_M, at most
 * 3c + 3c·max[g] messages per entry), Theorem 6 (its minimum synchronization delay 2), Sec. 4.2.1
 * (3c + 3c·s/deg(C) with the subgroup assignment), Theorem 9 (Maekawa_S: 2c + 1 messages, delay
 * c + 1). For the CLI (`critsec simulate/bench group-mutex`) and the tests.
 */
import { groupDegree } from '@critsec/coteries';
import type { GroupMutexOptions } from './group-mutex.js';
import { checkMaxLocks, makePlan } from './plan.js';

/** The outcome of {@link groupMutexBounds}. Messages count those a process sends to itself. */
export interface GroupMutexBounds {
  /** Maekawa_M or Maekawa_S. */
  readonly variant: 'M' | 'S';
  /** Number of processes. */
  readonly n: number;
  /** Number of groups. */
  readonly m: number;
  /** c: the largest quorum any process acquires (under the chosen assignment). */
  readonly c: number;
  /** The smallest such quorum. */
  readonly cMin: number;
  /** deg of the system (Def. 2: the minimum over cartels). */
  readonly degree: number;
  /** `max[g]` per group (Maekawa_M; n for Maekawa_S, which does not bound it). */
  readonly maxLocks: readonly number[];
  /** Messages of one entry–exit pair without contention: M 3|Q| (REQUEST, LOCKED, UNLOCK), S 2|Q| + 1. */
  readonly uncontended: {
    /** Over the smallest quorum. */
    readonly min: number;
    /** Over the largest quorum. */
    readonly max: number;
  };
  /** Worst case per entry: M 3c + 3c·max_g max[g] (Theorem 5); S 2c + 1 (Theorem 9). */
  readonly worstPerEntry: number;
  /** Minimum synchronization delay in message times: M 2 (Theorem 6), S c + 1 (Theorem 9). */
  readonly syncDelay: number;
  /** Minimum synchronization delay of the largest-quorum process (S: cMin + 1 … c + 1). */
  readonly syncDelayMin: number;
}

/**
 * The paper's message and delay bounds for a configuration of {@link groupMutex}.
 * @throws ConfigurationError for `maxLocks` that is not an integer ≥ 1 (or one per group).
 */
export function groupMutexBounds(options: GroupMutexOptions): GroupMutexBounds {
  const { system, variant } = options;
  checkMaxLocks(options.maxLocks, system.m);
  const plan = makePlan(system, options.assignment ?? 'subgroups', options.maxLocks);
  let c = 0;
  let cMin = Number.POSITIVE_INFINITY;
  for (let i = 0; i < system.n; i++) {
    for (let g = 0; g < system.m; g++) {
      const q = plan.quorumOf(i, g).length;
      c = Math.max(c, q);
      cMin = Math.min(cMin, q);
    }
  }
  const maxLocks = variant === 'M' ? plan.maxLocks : plan.maxLocks.map(() => system.n);
  const maxMax = Math.max(...maxLocks);
  const isM = variant === 'M';
  return {
    variant,
    n: system.n,
    m: system.m,
    c,
    cMin,
    degree: groupDegree(system).degree,
    maxLocks,
    uncontended: isM ? { min: 3 * cMin, max: 3 * c } : { min: 2 * cMin + 1, max: 2 * c + 1 },
    worstPerEntry: isM ? 3 * c + 3 * c * maxMax : 2 * c + 1,
    syncDelay: isM ? 2 : c + 1,
    syncDelayMin: isM ? 2 : cMin + 1,
  };
}
