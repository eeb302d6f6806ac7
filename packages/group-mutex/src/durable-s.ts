/**
 * Maekawa_S's durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`): what one process persists after every step so that, restarted after a crash,
 * it resumes exactly where its last committed step left it — and how a recovered state is checked
 * before an object is built on it.
 *
 * Joung, IEEE TPDS 14(5), 2003, Sec. 4.3 assumes processes never crash. Everything the others rely
 * on is here: Fig. 7's `group`, `sn`, `locked_nodes` and the requester's phase, with the GRANT
 * bookkeeping of README deviation 7; Fig. 8's `lock_ps`, `deferred_req`, `early_requests`,
 * `lock_group`, `reference` and the withdrawn requests a node remembers (deviation 4), in the order
 * the node keeps them (E.4–E.7 and E.8–E.16 depend on it).
 */
import type { ProcessContext, ProcessId } from '@critsec/core';
import { counterSchema } from '@critsec/transport';
import * as v from 'valibot';
import { checkList, parseGroupDurable, type Role } from './durable-check.js';
import type { QuorumPlan } from './plan.js';

/** The format tag of {@link MaekawaSDurableState} (a state of another algorithm or version is refused). */
export const MAEKAWA_S_DURABLE_FORMAT = 'critsec/group-mutex-s@1';

/** A request `[p, g, sn]` (Fig. 8's tuple (p, g, Q, sn); Q is `quorumOf(p, g)`). */
export type SRequestTuple = [ProcessId, number, number];

/**
 * The durable state of one Maekawa_S process: plain JSON, every number an integer (−1 for ⊥).
 * What `durableState()` returns and what `groupMutex({ variant: 'S' })`'s factory resumes from as
 * `ProcessContext.recovered`. A request that was waiting is recorded as `state: 'OutCS'` with
 * `process.waiting: true`, until `recover()` withdraws it.
 */
export type MaekawaSDurableState = {
  /** Always {@link MAEKAWA_S_DURABLE_FORMAT}. */
  format: typeof MAEKAWA_S_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** The number of groups of the group quorum system. */
  m: number;
  /** The process's CS state (a waiting request counts as OutCS). */
  state: 'InCS' | 'OutCS';
  /** Fig. 7, process p. */
  process: {
    /** Group of the current (or last) request; −1 before the first. */
    group: number;
    /** Sequence number of the current (or last) request; 0 before the first. */
    sn: number;
    /** The request (group, sn) still waits for its GRANT. */
    waiting: boolean;
    /** Nodes locked (set at GRANT), ascending. */
    locked_nodes: ProcessId[];
    /** The GRANT of (group, sn) has not come (deviation 7: one late GRANT of a withdrawn request is ignored). */
    grantOwed: boolean;
    /** Requests `[g, sn]` above `sn` whose GRANT was handed back (a later request skips their tag). */
    handedBack: [number, number][];
  };
  /** Fig. 8, node i. */
  node: {
    /** `lock_ps`, in the order the locks were given. */
    lock_ps: SRequestTuple[];
    /** `deferred_req`, in order. */
    deferred_req: SRequestTuple[];
    /** `early_requests`, in order. */
    early_requests: SRequestTuple[];
    /** −1 for ⊥. */
    lock_group: number;
    /** The reference request (one of `lock_ps`), or null for ⊥. */
    reference: SRequestTuple | null;
    /** Withdrawn requests whose REQUEST has not arrived (deviation 4). */
    cancelled: SRequestTuple[];
  };
};

const pid = v.pipe(v.number(), v.safeInteger(), v.minValue(-1));
const tuple = v.strictTuple([pid, pid, counterSchema]);
const schema = v.strictObject({
  format: v.literal(MAEKAWA_S_DURABLE_FORMAT),
  id: pid,
  n: pid,
  m: pid,
  state: v.picklist(['InCS', 'OutCS']),
  process: v.strictObject({
    group: pid,
    sn: counterSchema,
    waiting: v.boolean(),
    locked_nodes: v.array(pid),
    grantOwed: v.boolean(),
    handedBack: v.array(v.strictTuple([pid, counterSchema])),
  }),
  node: v.strictObject({
    lock_ps: v.array(tuple),
    deferred_req: v.array(tuple),
    early_requests: v.array(tuple),
    lock_group: pid,
    reference: v.nullable(tuple),
    cancelled: v.array(tuple),
  }),
});

/** The first reason Fig. 7's part cannot be a state the rules reach, or null. */
function processIncoherence(s: MaekawaSDurableState, plan: QuorumPlan): string | null {
  const r = s.process;
  if ((r.group === -1) !== (r.sn === 0) || r.group >= plan.m) return `group ${r.group} with sn ${r.sn}`;
  if (r.handedBack.some(([g, sn]) => g < 0 || g >= plan.m || sn <= r.sn))
    return 'a handed-back tag not above sn';
  if (s.state === 'InCS') {
    const Q = plan.quorumOf(s.id, r.group);
    return !r.waiting && r.locked_nodes.join() === Q.join() ? null : 'InCS without every node of Q locked';
  }
  return r.locked_nodes.length === 0 ? null : 'OutCS with locked nodes';
}

/** The first reason Fig. 8's part cannot be a state the rules reach, or null. */
function nodeIncoherence(s: MaekawaSDurableState, plan: QuorumPlan): string | null {
  const nd = s.node;
  const role: Role = (p, g) => p >= 0 && p < plan.n && g >= 0 && g < plan.m && plan.contains(s.id, p, g);
  const bad =
    checkList('node.lock_ps', nd.lock_ps, role) ??
    checkList('node.deferred_req', nd.deferred_req, role) ??
    checkList('node.early_requests', nd.early_requests, role) ??
    checkList('node.cancelled', nd.cancelled, role);
  if (bad !== null) return bad;
  if (nd.lock_ps.some(([, g]) => g !== nd.lock_group)) return 'a lock of another group than lock_group';
  const ref = nd.reference;
  if (ref !== null && !nd.lock_ps.some((r) => r.join() === ref.join())) return 'the reference holds no lock';
  return null;
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process and the group quorum system
 * before anything is built on it.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size or number of groups, or not a state Figs. 7–8 can reach.
 */
export function parseMaekawaSDurable(
  recovered: unknown,
  ctx: ProcessContext,
  plan: QuorumPlan,
): MaekawaSDurableState {
  return parseGroupDurable<MaekawaSDurableState>(
    'Maekawa_S',
    MAEKAWA_S_DURABLE_FORMAT,
    schema,
    recovered,
    ctx,
    plan,
    (s) => processIncoherence(s, plan) ?? nodeIncoherence(s, plan),
  );
}
