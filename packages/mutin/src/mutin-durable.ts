/**
 * MUTIN(l)'s durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`, `durable.ts`): what one process persists after every step so that, restarted
 * after a crash, it resumes exactly where its last committed step left it — and how a recovered
 * state is checked before an object is built on it.
 *
 * Everything the others rely on (Kamei & Kakugawa, IJNC 9(2), 2019, Sec. 4, Algorithms 1–2):
 * reqCnt_i, procsInCS_i, currentInCS_i, ackFrom_i, responseAgainTo_i with its reqCnts (one entry
 * per process, `response-again.ts`), where the process's own Exit() is (its phase, the members
 * that answered its Query, whether that Query was withdrawn), its CS state — and the state of
 * the mutual exclusion `mx` that serializes the leavers, nested as `mx` (the inner factory checks
 * it).
 */
import { ConfigurationError, type JsonValue, type ProcessContext, type ProcessId } from '@critsec/core';
import { counterSchema } from '@critsec/transport';
import * as v from 'valibot';

/** The format tag of {@link MutinDurableState} (a state of another algorithm or version is refused). */
export const MUTIN_DURABLE_FORMAT = 'critsec/mutin@1';

/** Where a process's Exit() is: `'idle'` when no Exit() runs (see `MutinCS`). */
export type MutinPhase = 'idle' | 'mx.Entry' | 'query' | 'acquire' | 'mx.Exit';

/**
 * The durable state of one MUTIN(l) process: plain JSON, every number an integer. What
 * `durableState()` of a MUTIN object returns and what `mutin()`'s factory resumes from when given
 * it as `ProcessContext.recovered`. Process lists are sorted ascending.
 */
export type MutinDurableState = {
  /** Always {@link MUTIN_DURABLE_FORMAT}. */
  format: typeof MUTIN_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** l of MUTIN(l): a state saved under another l is refused. */
  l: number;
  /** `Q_i`, the process's quorum: a state saved under another coterie is refused. */
  quorum: ProcessId[];
  /** The process's CS state. */
  state: 'InCS' | 'OutCS';
  /** Where its Exit() was (`'idle'`: none). */
  phase: MutinPhase;
  /** reqCnt_i. */
  reqCnt: number;
  /** The Query of reqCnt_i was withdrawn (an aborted Exit()): a response to it no longer counts. */
  queryAborted: boolean;
  /** procsInCS_i (⊆ R_i). */
  procsInCS: ProcessId[];
  /** currentInCS_i. */
  currentInCS: ProcessId[];
  /** The members of Q_i whose Response1 to the Query of reqCnt_i arrived. */
  answered: ProcessId[];
  /** ackFrom_i (⊆ Q_i). */
  ackFrom: ProcessId[];
  /** responseAgainTo_i, oldest first: `[leaver, reqCnt of its Query here, spent]` (leavers ⊆ R_i). */
  responseAgain: [ProcessId, number, boolean][];
  /** The durable state of `mx` (its own format; checked by `mx`'s factory). */
  mx: JsonValue;
  /** Members of Q_i whose Ack to an undone Acquire is owed (issue 28, `mx-tenure.ts`; absent: none). */
  lateAcks?: ProcessId[];
};

const pid = v.pipe(v.number(), v.integer(), v.minValue(0));
const ids = v.array(pid);
const durableSchema = v.strictObject({
  format: v.literal(MUTIN_DURABLE_FORMAT),
  id: pid,
  n: pid,
  l: pid,
  quorum: ids,
  state: v.picklist(['InCS', 'OutCS']),
  phase: v.picklist(['idle', 'mx.Entry', 'query', 'acquire', 'mx.Exit']),
  reqCnt: counterSchema,
  queryAborted: v.boolean(),
  procsInCS: ids,
  currentInCS: ids,
  answered: ids,
  ackFrom: ids,
  responseAgain: v.array(v.strictTuple([pid, counterSchema, v.boolean()])),
  mx: v.custom<JsonValue>((x) => x !== undefined, 'the state of mx is missing'),
  lateAcks: v.optional(ids),
});

/** The first reason `list` is not a set of members of `within`, or null. */
function notSubset(name: string, list: readonly ProcessId[], within: ReadonlySet<ProcessId>): string | null {
  if (new Set(list).size !== list.length) return `${name} repeats a process`;
  const stray = list.find((p) => !within.has(p));
  return stray === undefined ? null : `${name} names P${stray}, not one it may name`;
}

/** The first reason `s` cannot be a state Algorithms 1–2 reach for this process, or null. */
function incoherence(s: MutinDurableState, R: readonly ProcessId[]): string | null {
  const inQ = new Set(s.quorum);
  const all = new Set(Array.from({ length: s.n }, (_, p) => p));
  const bad =
    notSubset('procsInCS', s.procsInCS, new Set(R)) ??
    notSubset('currentInCS', s.currentInCS, all) ??
    notSubset('answered', s.answered, inQ) ??
    notSubset('ackFrom', s.ackFrom, inQ) ??
    notSubset('lateAcks', s.lateAcks ?? [], inQ) ??
    notSubset(
      'responseAgain',
      s.responseAgain.map(([p]) => p),
      new Set(R),
    );
  if (bad !== null) return bad;
  if (s.phase !== 'idle' && s.state !== 'InCS') return `an Exit() in phase ${s.phase} while OutCS`;
  if ((s.phase === 'query' || s.phase === 'acquire') && s.reqCnt === 0) return 'a Query without a reqCnt';
  return null;
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process, l and its quorum before
 * anything is built on it (the nested `mx` state is left to `mx`'s factory).
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size, l or coterie, or not a state the algorithm reaches — naming the way out.
 */
export function parseMutinDurable(
  recovered: unknown,
  ctx: ProcessContext,
  l: number,
  quorums: { readonly Q: readonly ProcessId[]; readonly R: readonly ProcessId[] },
): MutinDurableState {
  const parsed = v.safeParse(durableSchema, recovered);
  let why: string | null;
  if (!parsed.success) {
    const issue = parsed.issues[0];
    why = `not a ${MUTIN_DURABLE_FORMAT} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`;
  } else {
    const s = parsed.output as MutinDurableState;
    why =
      s.id !== ctx.id || s.n !== ctx.n
        ? `it is P${s.id}'s of a cluster of ${s.n}`
        : s.l !== l
          ? `it was saved by MUTIN(${s.l}), this is MUTIN(${l})`
          : s.quorum.join() !== quorums.Q.join()
            ? `it was saved with Q_${ctx.id} = {${s.quorum.join(', ')}}, the coterie gives {${quorums.Q.join(', ')}}`
            : incoherence(s, quorums.R);
    if (why === null) return s;
  }
  throw new ConfigurationError(
    `mutin: P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, l, coterie and process); if that state is lost, the process must not rejoin as new — the others count it InCS or OutCS by what it told them (see "Crash recovery" in the @critsec/mutin README)`,
  );
}

/** The paper's variables of one MUTIN process, as `MutinCS` exposes them. */
interface MutinPublic {
  readonly id: ProcessId;
  readonly l: number;
  readonly Q: readonly ProcessId[];
  readonly state: 'InCS' | 'OutCS';
  readonly reqCnt: number;
  readonly procsInCS: ReadonlySet<ProcessId>;
  readonly currentInCS: ReadonlySet<ProcessId>;
  readonly ackFrom: ReadonlySet<ProcessId>;
  readonly responseAgain: { snapshot(): [ProcessId, number, boolean][] };
  readonly lateAcks: { snapshot(): ProcessId[] };
}

/** The members of `s`, ascending. */
export function sorted(s: ReadonlySet<ProcessId>): ProcessId[] {
  return [...s].sort((a, b) => a - b);
}

/** Builds the durable state from the process's variables (the paper's, where its Exit() is, `mx`'s state). */
export function mutinDurableState(
  x: MutinPublic,
  where: { readonly n: number; readonly phase: MutinPhase; readonly queryAborted: boolean },
  more: { readonly answered: ReadonlySet<ProcessId>; readonly mx: JsonValue },
): MutinDurableState {
  const lateAcks = x.lateAcks.snapshot();
  return {
    format: MUTIN_DURABLE_FORMAT,
    id: x.id,
    n: where.n,
    l: x.l,
    quorum: [...x.Q],
    state: x.state,
    phase: where.phase,
    reqCnt: x.reqCnt,
    queryAborted: where.queryAborted,
    procsInCS: sorted(x.procsInCS),
    currentInCS: sorted(x.currentInCS),
    answered: sorted(more.answered),
    ackFrom: sorted(x.ackFrom),
    responseAgain: x.responseAgain.snapshot(),
    mx: more.mx,
    ...(lateAcks.length === 0 ? {} : { lateAcks }),
  };
}
