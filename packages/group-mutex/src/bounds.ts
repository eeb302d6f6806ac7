/**
 * The paper's costs of Maekawa_M and Maekawa_S for given parameters — Joung, "Quorum-based
 * algorithms for group mutual exclusion", IEEE TPDS 14(5), 2003: Theorem 5 (Maekawa_M, at most
 * 3c + 3c·max[g] messages per entry as the paper counts), Theorem 6 (its minimum synchronization
 * delay 2), Sec. 4.2.1 (3c + 3c·s/deg(C) with the subgroup assignment), Theorem 9 (Maekawa_S:
 * 2c + 1 messages, delay c + 1) — and what holds of them in our runs (issue 26): per exit+entry
 * pair under the causal attribution Maekawa_M stays within c·(2 + 6·max[g]) (not within Theorem
 * 5's figure), and a Maekawa_S request costs 2|Q| + 1 plus one self-addressed REQUEST per node
 * where it arrived early (E.17–E.19), at most 3|Q|. Proofs in the package README. For the CLI
 * (`critsec simulate/bench group-mutex`) and the tests.
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
  /** Messages of one entry–exit pair without contention: M 3|Q| (REQUEST, LOCKED, UNLOCK), S 2|Q| + 1 (exact; no request is early). */
  readonly uncontended: {
    /** Over the smallest quorum. */
    readonly min: number;
    /** Over the largest quorum. */
    readonly max: number;
  };
  /**
   * Worst case per request (entry and its exit), counting a request's own messages:
   * - M: `3c + 3c·max_g max[g]`, Theorem 5 as the paper counts — the INQUIRE, UNLOCK and LOCKED
   *   of each lock a node takes back charged to the request that made it take it back. Not a
   *   bound per exit+entry pair under the causal attribution (T_2(grid(9)), `maxLocks: 2`: 54 > 45),
   *   see {@link GroupMutexBounds.worstPerPair}.
   * - S: `3c` — the messages naming the request (its REQUEST hops, GRANT, UNLOCKs) are
   *   `2|Q| + 1`, plus one REQUEST a node sends itself for each node where the request arrived
   *   before the requester's previous UNLOCK (E.17–E.19), at most `|Q| − 1` of them (Theorem 9's
   *   `2c + 1` leaves them out: exact only when no request is early, e.g. without contention).
   *   Without aborts; hence also amortised: a run sends at most `3c` per request.
   */
  readonly worstPerEntry: number;
  /**
   * Worst case per exit+entry pair under the causal attribution (`@critsec/testing`'s
   * `MessageAttribution`: every message charged to the invocation whose message chain caused it),
   * without aborts. M: `c·(2 + 6·max_g max[g])` — at each node of Q, the REQUEST (or the exit's
   * UNLOCK) and its chain: at most max[g] INQUIREs, as many UNLOCK(false) and max[g] LOCKEDs
   * (package README). S: `undefined` — a node's UNLOCK forwards every deferred REQUEST of the
   * next group, and the causal attribution charges those chains, through the rest of their
   * quorums, to the exit; no per-pair figure is claimed.
   */
  readonly worstPerPair: number | undefined;
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
    worstPerEntry: isM ? 3 * c + 3 * c * maxMax : 3 * c,
    worstPerPair: isM ? c * (2 + 6 * maxMax) : undefined,
    syncDelay: isM ? 2 : c + 1,
    syncDelayMin: isM ? 2 : cMin + 1,
  };
}
