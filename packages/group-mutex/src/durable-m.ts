/**
 * Maekawa_M's durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`): what one process persists after every step so that, restarted after a crash,
 * it resumes exactly where its last committed step left it — and how a recovered state is checked
 * before an object is built on it.
 *
 * Joung, IEEE TPDS 14(5), 2003, Sec. 4.2 assumes processes never crash. Everything the others rely
 * on is here: the Lamport clock `sn`, Fig. 5's `group`, request number `req`, `priority` and
 * `locked_nodes` with the requester's phase; Fig. 6's `requests`, `lock_ps` (in the order the
 * locks were given: INQUIREs go out in that order), `inquired_ps`, `lock_group`, `has_priority`,
 * and what README deviation 6 added (requests set aside, doubtful requests, `done(p)`).
 */
import type { ProcessContext, ProcessId } from '@critsec/core';
import { timestampSchema } from '@critsec/transport';
import * as v from 'valibot';
import { checkList, parseGroupDurable, type Role } from './durable-check.js';
import type { QuorumPlan } from './plan.js';

/** The format tag of {@link MaekawaMDurableState} (a state of another algorithm or version is refused). */
export const MAEKAWA_M_DURABLE_FORMAT = 'critsec/group-mutex-m@1';

/** A request `[p, t, g, req]`: priority ⟨p, t⟩, group g, request number req. */
export type MRequestTuple = [ProcessId, number, number, number];

/**
 * The durable state of one Maekawa_M process: plain JSON, every number an integer (−1 for ⊥ or ∞).
 * What `durableState()` returns and what `groupMutex({ variant: 'M' })`'s factory resumes from as
 * `ProcessContext.recovered`. A request that was waiting is recorded as `state: 'OutCS'` with
 * `process.waiting: true`, until `recover()` withdraws it.
 */
export type MaekawaMDurableState = {
  /** Always {@link MAEKAWA_M_DURABLE_FORMAT}. */
  format: typeof MAEKAWA_M_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** The number of groups of the group quorum system. */
  m: number;
  /** The process's CS state (a waiting request counts as OutCS). */
  state: 'InCS' | 'OutCS';
  /** Lamport clock `sn` (both roles). */
  sn: number;
  /** Fig. 5, process p. */
  process: {
    /** Group of the current (or last) request; −1 before the first. */
    group: number;
    /** Request number of the current (or last) request; 0 before the first. */
    req: number;
    /** t of `priority` = ⟨p, t⟩; −1 for ∞ (no request). */
    priority: number;
    /** The request still waits for its locks. */
    waiting: boolean;
    /** Nodes whose LOCKED it holds, ascending. */
    locked_nodes: ProcessId[];
  };
  /** Fig. 6, node i. */
  node: {
    /** `requests`. */
    requests: MRequestTuple[];
    /** `lock_ps`, in the order the locks were given. */
    lock_ps: ProcessId[];
    /** `inquired_ps`. */
    inquired_ps: ProcessId[];
    /** −1 for ⊥. */
    lock_group: number;
    /** `has_priority`. */
    has_priority: boolean;
    /** Deviation 6: requests set aside. */
    aside: MRequestTuple[];
    /** Deviation 6: processes whose request was taken in doubt. */
    suspect: ProcessId[];
    /** Deviation 6: `done(p)`, `[p, req]`. */
    done: [ProcessId, number][];
    /** Deviation 8 (issue 28, fencing on only): `hs`, the highest fencing token seen (G5). */
    hs?: number;
  };
};

const pid = v.pipe(v.number(), v.safeInteger(), v.minValue(-1));
const ids = v.array(pid);
const tuple = v.strictTuple([pid, timestampSchema, pid, timestampSchema]);
const schema = v.strictObject({
  format: v.literal(MAEKAWA_M_DURABLE_FORMAT),
  id: pid,
  n: pid,
  m: pid,
  state: v.picklist(['InCS', 'OutCS']),
  sn: timestampSchema,
  process: v.strictObject({
    group: pid,
    req: timestampSchema,
    priority: v.union([timestampSchema, v.literal(-1)]),
    waiting: v.boolean(),
    locked_nodes: ids,
  }),
  node: v.strictObject({
    requests: v.array(tuple),
    lock_ps: ids,
    inquired_ps: ids,
    lock_group: pid,
    has_priority: v.boolean(),
    aside: v.array(tuple),
    suspect: ids,
    done: v.array(v.strictTuple([pid, timestampSchema])),
    hs: v.optional(timestampSchema),
  }),
});

/** The first reason Fig. 5's part cannot be a state the rules reach, or null. */
function processIncoherence(s: MaekawaMDurableState, plan: QuorumPlan): string | null {
  const r = s.process;
  if ((r.group === -1) !== (r.req === 0) || r.group >= plan.m) return `group ${r.group} with req ${r.req}`;
  const Q = r.group === -1 ? [] : plan.quorumOf(s.id, r.group);
  const stray = r.locked_nodes.find((x) => !Q.includes(x));
  if (stray !== undefined || new Set(r.locked_nodes).size !== r.locked_nodes.length)
    return `locked_nodes names P${stray ?? r.locked_nodes[0]} twice or outside Q`;
  if (s.state === 'InCS') {
    const all = !r.waiting && r.priority !== -1 && r.locked_nodes.length === Q.length;
    return all ? null : 'InCS without every node of Q locked';
  }
  if (r.waiting) return r.priority === -1 ? 'a waiting request with priority ∞' : null;
  return r.priority === -1 && r.locked_nodes.length === 0
    ? null
    : 'OutCS and not waiting, yet holding a request';
}

/** The first reason Fig. 6's part cannot be a state the rules reach, or null. */
function nodeIncoherence(s: MaekawaMDurableState, plan: QuorumPlan): string | null {
  const nd = s.node;
  const role: Role = (p, g) => p >= 0 && p < plan.n && g >= 0 && g < plan.m && plan.contains(s.id, p, g);
  const byProcess = (t: readonly number[]): string => String(t[0]);
  const bad =
    checkList('node.requests', nd.requests, role, { p: 0, g: 2 }, byProcess) ??
    checkList('node.aside', nd.aside, role, { p: 0, g: 2 }, byProcess);
  if (bad !== null) return bad;
  const groupOf = new Map(nd.requests.map(([p, , g]) => [p, g]));
  if (nd.lock_ps.some((p) => !groupOf.has(p))) return 'a lock given to a process with no request';
  if (new Set(nd.lock_ps).size !== nd.lock_ps.length) return 'node.lock_ps repeats a process';
  if (nd.lock_ps.some((p) => groupOf.get(p) !== nd.lock_group))
    return 'a lock of another group than lock_group';
  if (nd.lock_ps.length > 0 && nd.lock_ps.length > plan.maxLocks[nd.lock_group]!)
    return 'more locks than max[g]';
  if (nd.inquired_ps.some((p) => !nd.lock_ps.includes(p))) return 'an INQUIRE to a process holding no lock';
  const outside = [...nd.suspect, ...nd.done.map(([p]) => p)].find((p) => p < 0 || p >= plan.n);
  return outside === undefined ? null : `node names P${outside}, not a process`;
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process and the group quorum system
 * before anything is built on it.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size or number of groups, or not a state Figs. 5–6 can reach.
 */
export function parseMaekawaMDurable(
  recovered: unknown,
  ctx: ProcessContext,
  plan: QuorumPlan,
): MaekawaMDurableState {
  return parseGroupDurable<MaekawaMDurableState>(
    'Maekawa_M',
    MAEKAWA_M_DURABLE_FORMAT,
    schema,
    recovered,
    ctx,
    plan,
    (s) => processIncoherence(s, plan) ?? nodeIncoherence(s, plan),
  );
}
