/**
 * LKCS's durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`): every variable of Kamei & Kakugawa 2017, Algorithm 3 — the Lamport clock, the
 * request tags per algorithm type, NGrants and the triggered flags per type, the type waited for,
 * both arbiters (`arbiter-durable.ts`) and the leader's nomination state (Algorithms 4 and 6,
 * `lkcs-leader.ts`) — and how a recovered state is checked before an object is built on it.
 */
import { ConfigurationError, type ProcessContext, type ProcessId } from '@critsec/core';
import { timestampSchema } from '@critsec/transport';
import * as v from 'valibot';
import { type ArbiterDurableState, arbiterDurableSchema, arbiterIncoherence } from './arbiter-durable.js';
import type { At } from './lkcs-protocol.js';

/** The format tag of {@link LkcsDurableState} (a state of another algorithm or version is refused). */
export const LKCS_DURABLE_FORMAT = 'critsec/lkcs@2';

/**
 * The durable state of one LKCS process: plain JSON, every number an integer. What
 * `durableState()` of an LKCS object returns and what `lkcs()`'s factory resumes from when given
 * it as `ProcessContext.recovered`. A move waiting for grants is recorded with `waiting` its type
 * and `state` the state it leaves (OutCS for an entry, InCS for an exit).
 */
export type LkcsDurableState = {
  /** Always {@link LKCS_DURABLE_FORMAT}. */
  format: typeof LKCS_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** N_i ∪ {P_i}, ascending: a state saved on another graph is refused. */
  neighborhood: ProcessId[];
  /** P_LDR, L_i and K_i: a state saved under another plan is refused. */
  plan: {
    /** P_LDR. */
    leader: ProcessId;
    /** L_i, the tightened lower bound. */
    L: number;
    /** K_i, the tightened upper bound. */
    K: number;
  };
  /** The process's CS state. */
  state: 'InCS' | 'OutCS';
  /** Lamport clock ts_i. */
  ts: number;
  /** The request sequence number (the last tag issued). */
  seq: number;
  /** The tag of the current request per type. */
  request: Record<At, number>;
  /** The type whose grants the process waits for, or null. */
  waiting: At | null;
  /** NGrants per type, ascending. */
  nGrants: Record<At, ProcessId[]>;
  /** Whether the current request per type was made again by a Trigger (RequestByTrigger). */
  triggered: Record<At, boolean>;
  /** The two arbiters. */
  arbiter: Record<At, ArbiterDurableState>;
  /** The leader's variables (empty at every other process). */
  leader: {
    /** The type of each neighbour's last Request, `[P, type]`, by process. */
    lastAt: [ProcessId, At][];
    /** The nomination per type, `[P_q, phase, tag of the request nominated]`, or null. */
    outstanding: Record<At, [ProcessId, 'nominated' | 'sidetrack', number] | null>;
    /** `'printed'` nomination only: a nomination is out. */
    nominated: boolean;
  };
  /** The type whose Release a completed move still owes (sent by `recover()`), or null. */
  releaseDue: At | null;
};

const pid = v.pipe(v.number(), v.integer(), v.minValue(0));
const at = v.picklist(['MUTIN', 'MUTEX']);
const perType = <T extends v.GenericSchema>(s: T) => v.strictObject({ MUTIN: s, MUTEX: s });
const schema = v.strictObject({
  format: v.literal(LKCS_DURABLE_FORMAT),
  id: pid,
  n: pid,
  neighborhood: v.array(pid),
  plan: v.strictObject({ leader: pid, L: pid, K: pid }),
  state: v.picklist(['InCS', 'OutCS']),
  ts: timestampSchema,
  seq: timestampSchema,
  request: perType(timestampSchema),
  waiting: v.nullable(at),
  nGrants: perType(v.array(pid)),
  triggered: perType(v.boolean()),
  arbiter: perType(arbiterDurableSchema),
  leader: v.strictObject({
    lastAt: v.array(v.strictTuple([pid, at])),
    outstanding: perType(
      v.nullable(v.strictTuple([pid, v.picklist(['nominated', 'sidetrack']), timestampSchema])),
    ),
    nominated: v.boolean(),
  }),
  releaseDue: v.nullable(at),
});

/** The first reason the requester's part cannot be a state Algorithms 4–7 reach, or null. */
function requesterIncoherence(s: LkcsDurableState): string | null {
  const size = s.neighborhood.length;
  for (const t of ['MUTIN', 'MUTEX'] as const) {
    const g = s.nGrants[t];
    if (new Set(g).size !== g.length || g.some((p) => !s.neighborhood.includes(p)))
      return `nGrants.${t} repeats a process or names one outside N_i ∪ {P_i}`;
    if (s.request[t] > s.seq) return `request.${t} is above the last tag issued`;
  }
  // the grants of the type that keeps the state: MUTIN while OutCS, MUTEX while InCS
  const keeps: At = s.state === 'OutCS' ? 'MUTIN' : 'MUTEX';
  const other: At = keeps === 'MUTIN' ? 'MUTEX' : 'MUTIN';
  if (s.nGrants[keeps].length !== size) return `${s.state} without every ${keeps} grant of N_i ∪ {P_i}`;
  if (s.waiting === keeps) return `${s.state} and waiting for ${keeps} grants`;
  if (s.waiting === null && s.nGrants[other].length > 0) return `not waiting, yet holding ${other} grants`;
  if (s.waiting !== null && s.nGrants[other].length === size) return 'a waiting move with every grant';
  if (s.releaseDue !== null && (s.waiting !== null || s.releaseDue !== other))
    return `a ${s.releaseDue} Release owed while ${s.waiting === null ? s.state : 'waiting'}`;
  return null;
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process and the plan before anything is
 * built on it.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size, graph or plan, or not a state the rules can reach — naming the way out.
 */
export function parseLkcsDurable(
  recovered: unknown,
  ctx: ProcessContext,
  neighborhood: readonly ProcessId[],
  plan: LkcsDurableState['plan'],
): LkcsDurableState {
  const parsed = v.safeParse(schema, recovered);
  let why: string | null;
  if (!parsed.success) {
    const issue = parsed.issues[0];
    why = `not a ${LKCS_DURABLE_FORMAT} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`;
  } else {
    const s = parsed.output as LkcsDurableState;
    why =
      s.id !== ctx.id || s.n !== ctx.n
        ? `it is P${s.id}'s of a cluster of ${s.n}`
        : s.neighborhood.join() !== neighborhood.join()
          ? `it was saved with N_${ctx.id} ∪ {P${ctx.id}} = {${s.neighborhood.join(', ')}}, the graph gives {${neighborhood.join(', ')}}`
          : s.plan.leader !== plan.leader || s.plan.L !== plan.L || s.plan.K !== plan.K
            ? `it was saved with (P_LDR, L_i, K_i) = (P${s.plan.leader}, ${s.plan.L}, ${s.plan.K}), the plan gives (P${plan.leader}, ${plan.L}, ${plan.K})`
            : (requesterIncoherence(s) ??
              arbiterIncoherence('arbiter.MUTIN', s.arbiter.MUTIN, neighborhood) ??
              arbiterIncoherence('arbiter.MUTEX', s.arbiter.MUTEX, neighborhood));
    if (why === null) return s;
  }
  throw new ConfigurationError(
    `lkcs: P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, graph, bounds, leader and process); if that state is lost, the process must not rejoin as new — it would forget the grants it gave (see "Crash recovery" in the @critsec/local-cs README)`,
  );
}
