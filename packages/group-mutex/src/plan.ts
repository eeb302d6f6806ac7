/**
 * Which quorum each process acquires for each group, and how many locks a node may give one
 * group: the subgroup assignment of Joung, "Quorum-based algorithms for group mutual exclusion",
 * IEEE TPDS 14(5), 2003, Sec. 4.2.1 (last paragraphs before eq. (1)).
 *
 * "For each group g with cartel C, we can partition g into deg(C) subgroups, and assign deg(C)
 * pairwise disjoint quora in C to them, one quorum per subgroup. […] each subgroup consists of
 * s/deg(C) members […] So each node needs only to give away at most s/deg(C) locks at a time."
 * Here every process may request every group, so the group size s is n; process i belongs to
 * subgroup `i mod deg(C_g)` and `max[g] = ⌈n / deg(C_g)⌉`.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import { degree, type GroupQuorumSystem } from '@critsec/coteries';

/** The outcome of {@link subgroupAssignment} (JSON-serializable). */
export interface SubgroupAssignment {
  /** `degree[g]` = deg(C_g) found (Def. 2). */
  readonly degree: readonly number[];
  /** `exact[g]`: the degree search finished (else `degree[g]` is the best packing found). */
  readonly exact: readonly boolean[];
  /** `quora[g]` = indices into `system.cartels[g]` of the deg(C_g) pairwise disjoint quora. */
  readonly quora: readonly (readonly number[])[];
  /** `assignment[i][g]` = index into `system.cartels[g]` of the quorum P_i acquires for group g. */
  readonly assignment: readonly (readonly number[])[];
  /** `maxLocks[g]` = ⌈n / deg(C_g)⌉, the paper's `max[g]` (s = n). */
  readonly maxLocks: readonly number[];
}

/**
 * The subgroup assignment of Sec. 4.2.1: for each cartel C_g, deg(C_g) pairwise disjoint quora
 * (found by `degree` of `@critsec/coteries`), process i assigned to quorum `i mod deg(C_g)`, and
 * `max[g] = ⌈n / deg(C_g)⌉`. For T_m(C) (degree 1) every process of a group uses one quorum.
 */
export function subgroupAssignment(system: GroupQuorumSystem): SubgroupAssignment {
  const results = system.cartels.map((c) => degree(c, system.n));
  const quora = results.map((r) => r.quora);
  const assignment = Array.from({ length: system.n }, (_, i) => quora.map((q) => q[i % q.length]!));
  return {
    degree: results.map((r) => r.degree),
    exact: results.map((r) => r.exact),
    quora,
    assignment,
    maxLocks: results.map((r) => Math.ceil(system.n / r.degree)),
  };
}

/** Quorums and lock limits as the protocol cores use them. @internal */
export interface QuorumPlan {
  readonly n: number;
  readonly m: number;
  /** The quorum P_p acquires for group g (sorted ascending). */
  quorumOf(p: ProcessId, g: number): readonly ProcessId[];
  /** Node `node` ∈ quorumOf(p, g). */
  contains(node: ProcessId, p: ProcessId, g: number): boolean;
  /**
   * Node `node` ∈ quorumOf(p, g) for some group g: p may address `node` at all (a REQUEST of some
   * group, an UNLOCK, a lock handed back), and `node` may answer p (LOCKED, INQUIRE, GRANT). m set
   * lookups, no table of its own.
   */
  inSomeQuorum(node: ProcessId, p: ProcessId): boolean;
  /** `max[g]` (Fig. 6 cont.). */
  readonly maxLocks: readonly number[];
}

/** Builds the plan: the system's own assignment, or the subgroup assignment. @internal */
export function makePlan(
  system: GroupQuorumSystem,
  assignment: 'subgroups' | 'system',
  maxLocks: number | readonly number[] | undefined,
): QuorumPlan {
  const { n, m } = system;
  const sub = assignment === 'subgroups' ? subgroupAssignment(system) : undefined;
  const quorums: (readonly ProcessId[])[] = [];
  // One membership set per distinct quorum (processes of a subgroup share theirs): memory in the
  // quorum memberships, never a dense n·m·n table.
  const members: ReadonlySet<ProcessId>[] = [];
  const setOf = new Map<readonly ProcessId[], ReadonlySet<ProcessId>>();
  for (let p = 0; p < n; p++) {
    for (let g = 0; g < m; g++) {
      const q = sub ? system.cartels[g]![sub.assignment[p]![g]!]! : system.quorumOf(p, g);
      let set = setOf.get(q);
      if (set === undefined) {
        set = new Set(q);
        setOf.set(q, set);
      }
      quorums.push(q);
      members.push(set);
    }
  }
  const limits = Array.from({ length: m }, (_, g) => {
    const given = typeof maxLocks === 'number' ? maxLocks : maxLocks?.[g];
    return given ?? sub?.maxLocks[g] ?? n;
  });
  return {
    n,
    m,
    quorumOf: (p, g) => quorums[p * m + g]!,
    // p or g out of range finds no set: not a member (the callers have checked them already)
    contains: (node, p, g) => members[p * m + g]?.has(node) === true,
    inSomeQuorum: (node, p) => {
      for (let g = 0; g < m; g++) if (members[p * m + g]?.has(node) === true) return true;
      return false;
    },
    maxLocks: Object.freeze(limits),
  };
}

/** @throws ConfigurationError unless `maxLocks` is an integer ≥ 1 or one per group. @internal */
export function checkMaxLocks(maxLocks: unknown, m: number): void {
  if (maxLocks === undefined) return;
  const ok = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 1;
  if (typeof maxLocks === 'number') {
    if (!ok(maxLocks))
      throw new ConfigurationError(`groupMutex: maxLocks must be an integer ≥ 1, got ${String(maxLocks)}`);
    return;
  }
  if (!Array.isArray(maxLocks) || maxLocks.length !== m || !maxLocks.every(ok)) {
    throw new ConfigurationError(
      `groupMutex: maxLocks must be an integer ≥ 1 or ${m} of them (one per group), got ${JSON.stringify(maxLocks)}`,
    );
  }
}

/** @throws ConfigurationError unless `g` is a group id `0..m-1` (checked before anything is sent). @internal */
export function checkGroup(g: unknown, m: number): asserts g is number {
  if (typeof g !== 'number' || !Number.isSafeInteger(g) || g < 0 || g >= m) {
    throw new ConfigurationError(
      `groupMutex: entry(group): group must be an integer 0..${m - 1}, got ${String(g)}`,
    );
  }
}
