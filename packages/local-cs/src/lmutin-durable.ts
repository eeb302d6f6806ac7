/**
 * LMUTIN's durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`): every variable of Kamei & Kakugawa 2017, Algorithm 1 — the Lamport clock ts_i,
 * the request's tag, NGrants_i, and the arbiter's GrantedTo, PendingReq and PreemptingNow
 * (`arbiter-durable.ts`) — and how a recovered state is checked before an object is built on it.
 * LMUTEX (the complement of LMUTIN, Theorem 2) persists the same state.
 */
import { ConfigurationError, type ProcessContext, type ProcessId } from '@critsec/core';
import { timestampSchema } from '@critsec/transport';
import * as v from 'valibot';
import { type ArbiterDurableState, arbiterDurableSchema, arbiterIncoherence } from './arbiter-durable.js';

/** The format tag of {@link LmutinDurableState} (a state of another algorithm or version is refused). */
export const LMUTIN_DURABLE_FORMAT = 'critsec/lmutin@1';

/**
 * The durable state of one LMUTIN process: plain JSON, every number an integer (clocks and tags
 * are timestamps, 0 … `CLOCK_MAX`). What `durableState()` of an LMUTIN object returns and what
 * `lmutin()`'s factory resumes from when given it as `ProcessContext.recovered`.
 *
 * A waiting exit is recorded as `state: 'InCS'` with `waiting: true`: the recovered object is
 * InCS with no `exit()` in flight while its request still stands at the arbiters, until
 * `recover()` withdraws it.
 */
export type LmutinDurableState = {
  /** Always {@link LMUTIN_DURABLE_FORMAT}. */
  format: typeof LMUTIN_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** N_i ∪ {P_i}, ascending: a state saved on another graph is refused. */
  neighborhood: ProcessId[];
  /** l_i: a state saved under another bound is refused. */
  l: number;
  /** The process's CS state (a waiting exit counts as InCS, see above). */
  state: 'InCS' | 'OutCS';
  /** Lamport clock ts_i. */
  ts: number;
  /** Tag of the current request (0: Algorithm 1's initial grants). */
  request: number;
  /** An exit was waiting for grants. */
  waiting: boolean;
  /** NGrants_i: the processes whose Grant is held for `request`, ascending. */
  nGrants: ProcessId[];
  /** The arbiter's variables. */
  arbiter: ArbiterDurableState;
};

const pid = v.pipe(v.number(), v.integer(), v.minValue(0));
const schema = v.strictObject({
  format: v.literal(LMUTIN_DURABLE_FORMAT),
  id: pid,
  n: pid,
  neighborhood: v.array(pid),
  l: pid,
  state: v.picklist(['InCS', 'OutCS']),
  ts: timestampSchema,
  request: timestampSchema,
  waiting: v.boolean(),
  nGrants: v.array(pid),
  arbiter: arbiterDurableSchema,
});

/** The first reason the requester's part cannot be a state Algorithm 2 reaches, or null. */
function requesterIncoherence(s: LmutinDurableState): string | null {
  if (new Set(s.nGrants).size !== s.nGrants.length) return 'nGrants repeats a process';
  if (s.nGrants.some((p) => !s.neighborhood.includes(p)))
    return 'nGrants names a process outside N_i ∪ {P_i}';
  if (s.state === 'OutCS') {
    return !s.waiting && s.nGrants.length === s.neighborhood.length
      ? null
      : 'OutCS without every grant of N_i ∪ {P_i}';
  }
  if (s.waiting)
    return s.request >= 1 && s.nGrants.length < s.neighborhood.length
      ? null
      : 'a waiting exit without a tag, or with every grant';
  return s.nGrants.length === 0 ? null : 'InCS and not waiting, yet holding grants';
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process, the graph and l_i before
 * anything is built on it.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size, graph or bound, or not a state the rules can reach — naming the way out.
 */
export function parseLmutinDurable(
  recovered: unknown,
  ctx: ProcessContext,
  neighborhood: readonly ProcessId[],
  l: number,
): LmutinDurableState {
  const parsed = v.safeParse(schema, recovered);
  let why: string | null;
  if (!parsed.success) {
    const issue = parsed.issues[0];
    why = `not a ${LMUTIN_DURABLE_FORMAT} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`;
  } else {
    const s = parsed.output as LmutinDurableState;
    why =
      s.id !== ctx.id || s.n !== ctx.n
        ? `it is P${s.id}'s of a cluster of ${s.n}`
        : s.neighborhood.join() !== neighborhood.join()
          ? `it was saved with N_${ctx.id} ∪ {P${ctx.id}} = {${s.neighborhood.join(', ')}}, the graph gives {${neighborhood.join(', ')}}`
          : s.l !== l
            ? `it was saved with l_${ctx.id} = ${s.l}, the configuration gives ${l}`
            : (requesterIncoherence(s) ?? arbiterIncoherence('arbiter', s.arbiter, neighborhood));
    if (why === null) return s;
  }
  throw new ConfigurationError(
    `lmutin: P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, graph, bounds and process); if that state is lost, the process must not rejoin as new — it would forget the grants it gave (see "Crash recovery" in the @critsec/local-cs README)`,
  );
}
