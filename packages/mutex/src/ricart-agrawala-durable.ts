/**
 * Ricart–Agrawala's durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`): what one process persists after every step — the paper's variables (Ricart &
 * Agrawala, CACM 24(1), 1981, Sec. 2: Highest_Sequence_Number, Our_Sequence_Number, Requesting_
 * Critical_Section, Reply_Count — here the set of repliers —, Reply_Deferred) and its CS state —
 * and how a recovered state is checked before an object is built on it.
 */
import { ConfigurationError, type ProcessContext, type ProcessId } from '@critsec/core';
import { timestampSchema } from '@critsec/transport';
import * as v from 'valibot';

/** The format tag of {@link RicartAgrawalaDurableState}. */
export const RICART_AGRAWALA_DURABLE_FORMAT = 'critsec/ricart-agrawala@1';

/**
 * The durable state of one Ricart–Agrawala process: plain JSON (integers; timestamps 0 …
 * `CLOCK_MAX`, −1 for "none"). A request that was waiting is recorded as `state: 'OutCS'` with
 * `waiting: true`: the recovered object is OutCS from the API's view until `recover()` withdraws it.
 */
export type RicartAgrawalaDurableState = {
  /** Always {@link RICART_AGRAWALA_DURABLE_FORMAT}. */
  format: typeof RICART_AGRAWALA_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** The process's CS state (a waiting request counts as OutCS). */
  state: 'InCS' | 'OutCS';
  /** Highest_Sequence_Number. */
  highest: number;
  /** Our_Sequence_Number of the current request (held InCS or waiting), −1 when none. */
  request: number;
  /** Requesting_Critical_Section: the current request still waits for replies. */
  waiting: boolean;
  /** The processes whose REPLY to the current request arrived. */
  replies: ProcessId[];
  /** Reply_Deferred: `[process, ts]` of each request whose REPLY waits for this process's exit. */
  deferred: [ProcessId, number][];
};

const pid = v.pipe(v.number(), v.integer(), v.minValue(0));
const schema = v.strictObject({
  format: v.literal(RICART_AGRAWALA_DURABLE_FORMAT),
  id: pid,
  n: pid,
  state: v.picklist(['InCS', 'OutCS']),
  highest: timestampSchema,
  request: v.union([timestampSchema, v.literal(-1)]),
  waiting: v.boolean(),
  replies: v.array(pid),
  deferred: v.array(v.strictTuple([pid, timestampSchema])),
});

/** The first reason `s` cannot be a state of process `id` of `n` the rules reach, or null. */
function incoherence(s: RicartAgrawalaDurableState, id: ProcessId, n: number): string | null {
  if (s.id !== id || s.n !== n) return `it is P${s.id}'s of a cluster of ${s.n}`;
  const others = [...s.replies, ...s.deferred.map(([p]) => p)];
  const stray = others.find((p) => p === id || p >= n);
  if (stray !== undefined) return `it names P${stray}, not another process of 0..${n - 1}`;
  if (new Set(s.replies).size !== s.replies.length) return 'a reply counted twice';
  if (new Set(s.deferred.map(([p]) => p)).size !== s.deferred.length)
    return 'two deferred requests of one process';
  if (s.request > s.highest) return 'the request is above the highest sequence number';
  if (s.state === 'InCS') return s.waiting || s.request === -1 ? 'InCS without a request' : null;
  if (s.waiting) return s.request >= 1 ? null : 'a waiting request without a sequence number';
  const idle = s.request === -1 && s.replies.length === 0 && s.deferred.length === 0;
  return idle ? null : 'OutCS and not waiting, yet holding a request, replies or deferred requests';
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process before anything is built on it.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process or cluster size, or not a state the rules can reach — naming the way out.
 */
export function parseRicartAgrawalaDurable(
  recovered: unknown,
  ctx: ProcessContext,
): RicartAgrawalaDurableState {
  const parsed = v.safeParse(schema, recovered);
  let why: string | null;
  if (parsed.success) {
    why = incoherence(parsed.output as RicartAgrawalaDurableState, ctx.id, ctx.n);
    if (why === null) return parsed.output as RicartAgrawalaDurableState;
  } else {
    const issue = parsed.issues[0];
    why = `not a ${RICART_AGRAWALA_DURABLE_FORMAT} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`;
  }
  throw new ConfigurationError(
    `ricartAgrawala: P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster and process); if that state is lost, the process must not rejoin as new — it would forget the replies it deferred (see "Crash recovery" in the @critsec/mutex README)`,
  );
}
