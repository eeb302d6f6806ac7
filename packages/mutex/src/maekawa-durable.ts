/**
 * Maekawa's durable state (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`, `durable.ts`): what one process persists after every step so that, restarted
 * after a crash, it resumes exactly where its last committed step left it — and how a recovered
 * state is checked before an object is built on it.
 *
 * The papers (Maekawa 1985; Sanders 1987; Joung, IEEE TPDS 2003, Sec. 4.1, Figs. 5–6) assume
 * processes never crash. Everything the others rely on is here: the Lamport clock `sn` (Fig. 5),
 * the requester's request tag and marks (R1–R7 of `maekawa-process.ts`: `priority`,
 * `locked_nodes`, failed / yielded, deferred inquiries), the arbiter's lock, queue and INQUIRE flag
 * (A1–A3 of `maekawa-arbiter.ts`, Fig. 6 `lock_ps`, `requests`, `inquired_ps`) and what the
 * no-wedge rule A4 added (requests set aside, `done(p)`).
 */
import { ConfigurationError, type ProcessContext, type ProcessId } from '@critsec/core';
import { timestampSchema } from '@critsec/transport';
import * as v from 'valibot';
import type { MaekawaSnapshot } from './maekawa-protocol.js';

/** The format tag of {@link MaekawaDurableState} (a state of another algorithm or version is refused). */
export const MAEKAWA_DURABLE_FORMAT = 'critsec/maekawa@1';

/**
 * The durable state of one Maekawa process: plain JSON (no `undefined`, every number an integer;
 * tags and clocks are timestamps, 0 … `CLOCK_MAX`, −1 for "none" where noted). What
 * `durableState()` of a Maekawa object returns and what `maekawa()`'s factory resumes from when
 * given it as `ProcessContext.recovered`.
 *
 * A request that was waiting (the process was "Trying") is recorded as `state: 'OutCS'` with
 * `requester.waiting: true`: the recovered object is OutCS from the API's view (no `entry()` is in
 * flight on it) while its request still stands at the arbiters, until `recover()` withdraws it.
 */
export type MaekawaDurableState = {
  /** Always {@link MAEKAWA_DURABLE_FORMAT}. */
  format: typeof MAEKAWA_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** `Q_i`, the process's quorum: a state saved under another coterie is refused. */
  quorum: ProcessId[];
  /** The process's CS state (a waiting request counts as OutCS, see above). */
  state: 'InCS' | 'OutCS';
  /** Lamport clock `sn` (Fig. 5). */
  sn: number;
  /** The requester role (R1–R7). */
  requester: {
    /** Tag of the current request (held InCS or waiting), −1 when none. */
    request: number;
    /** Tag of the latest request this process issued (R7 tells its own tags by it). */
    lastTag: number;
    /** The current request is still waiting for locks. */
    waiting: boolean;
    /** Arbiters whose lock is held. */
    locks: ProcessId[];
    /** Arbiters that sent FAILED and have not granted since. */
    failed: ProcessId[];
    /** Arbiters relinquished to and not regained. */
    yielded: ProcessId[];
    /** Arbiters whose INQUIRE is deferred. */
    inquiredBy: ProcessId[];
  };
  /** The arbiter role (A1–A4). */
  arbiter: {
    /** Holder of the lock, −1 when not locked. */
    grantedTo: ProcessId;
    /** Tag of the holder's request (0 when not locked). */
    grantedReq: number;
    /** INQUIRE sent to the holder for this grant. */
    inquired: boolean;
    /** Waiting requests in priority order: `[process, tag, failed flag]`. */
    queue: [ProcessId, number, boolean][];
    /** A4: requests set aside, `[process, tag]`. */
    aside: [ProcessId, number][];
    /** A4: `done(p)`, the largest tag of `p` whose entry ended here by RELEASE, `[p, tag]` (nonzero only). */
    done: [ProcessId, number][];
    /** A5 (issue 28, with fencing only): the highest fencing token this arbiter has seen. */
    hs?: number;
  };
};

/** Builds the durable state from the snapshot and the two variables `inspect()` leaves out. */
export function maekawaDurable(
  where: { id: ProcessId; n: number; quorum: readonly ProcessId[]; state: 'InCS' | 'OutCS' },
  s: MaekawaSnapshot,
  lastTag: number,
  done: [ProcessId, number][],
  hs?: number,
): MaekawaDurableState {
  const r = s.requester;
  const a = s.arbiter;
  return {
    format: MAEKAWA_DURABLE_FORMAT,
    id: where.id,
    n: where.n,
    quorum: [...where.quorum],
    state: where.state,
    sn: s.sn,
    requester: {
      request: r.request,
      lastTag,
      waiting: r.waiting,
      locks: [...r.locks],
      failed: [...r.failed],
      yielded: [...r.yielded],
      inquiredBy: [...r.inquiredBy],
    },
    arbiter: {
      grantedTo: a.grantedTo,
      grantedReq: a.grantedReq,
      inquired: a.inquired,
      queue: a.queue.map(([p, t, f]): [ProcessId, number, boolean] => [p, t, f]),
      aside: a.aside.map(([p, t]): [ProcessId, number] => [p, t]),
      done,
      ...(hs === undefined ? {} : { hs }),
    },
  };
}

const pid = v.pipe(v.number(), v.integer(), v.minValue(-1));
const ids = v.array(pid);
const tagOrNone = v.union([timestampSchema, v.literal(-1)]);
const durableSchema = v.strictObject({
  format: v.literal(MAEKAWA_DURABLE_FORMAT),
  id: pid,
  n: pid,
  quorum: ids,
  state: v.picklist(['InCS', 'OutCS']),
  sn: timestampSchema,
  requester: v.strictObject({
    request: tagOrNone,
    lastTag: timestampSchema,
    waiting: v.boolean(),
    locks: ids,
    failed: ids,
    yielded: ids,
    inquiredBy: ids,
  }),
  arbiter: v.strictObject({
    grantedTo: pid,
    grantedReq: timestampSchema,
    inquired: v.boolean(),
    queue: v.array(v.strictTuple([pid, timestampSchema, v.boolean()])),
    aside: v.array(v.strictTuple([pid, timestampSchema])),
    done: v.array(v.strictTuple([pid, timestampSchema])),
    hs: v.optional(timestampSchema),
  }),
});

/** The first reason `list` is not a set of members of `within`, or null. */
function notSubset(name: string, list: readonly ProcessId[], within: readonly ProcessId[]): string | null {
  if (new Set(list).size !== list.length) return `${name} repeats a process`;
  const stray = list.find((p) => !within.includes(p));
  return stray === undefined ? null : `${name} names P${stray}, not one of {${within.join(', ')}}`;
}

/** True when the requester holds nothing and asks nothing (OutCS, no request, no marks). */
function idleRequester(s: MaekawaDurableState): boolean {
  const r = s.requester;
  return (
    s.state === 'OutCS' &&
    r.request === -1 &&
    !r.waiting &&
    r.locks.length + r.failed.length + r.yielded.length + r.inquiredBy.length === 0
  );
}

/** The first reason the requester's part cannot be a state R1–R7 reach, or null. */
function requesterIncoherence(s: MaekawaDurableState): string | null {
  const r = s.requester;
  const lists = { locks: r.locks, failed: r.failed, yielded: r.yielded, inquiredBy: r.inquiredBy };
  for (const [name, list] of Object.entries(lists)) {
    const bad = notSubset(`requester.${name}`, list, s.quorum);
    if (bad !== null) return bad;
  }
  if (r.locks.some((x) => r.failed.includes(x) || r.yielded.includes(x))) {
    return 'a held lock is also marked failed or yielded';
  }
  if (r.inquiredBy.some((x) => !r.locks.includes(x))) return 'an INQUIRE is deferred for a lock not held';
  if (r.request !== -1 && r.request !== r.lastTag) return 'the current request is not the latest one';
  if (s.state === 'InCS') {
    if (r.waiting || r.request === -1 || r.locks.length !== s.quorum.length)
      return 'InCS without every lock of Q_i';
    return r.failed.length + r.yielded.length + r.inquiredBy.length === 0 ? null : 'InCS with marks';
  }
  if (r.waiting) return r.request >= 1 ? null : 'a waiting request without a tag';
  const idle = r.request === -1 && r.locks.length + r.failed.length + r.yielded.length === 0;
  return idle && r.inquiredBy.length === 0 ? null : 'OutCS and not waiting, yet holding a request or marks';
}

/** The first reason the arbiter's part cannot be a state A1–A4 reach, or null. */
function arbiterIncoherence(
  a: MaekawaDurableState['arbiter'],
  reporters: readonly ProcessId[],
): string | null {
  if (a.grantedTo !== -1 && !reporters.includes(a.grantedTo))
    return `the lock is held by P${a.grantedTo}, not in R_i`;
  const queued = a.queue.map(([p]) => p);
  const bad =
    notSubset('arbiter.queue', queued, reporters) ??
    notSubset(
      'arbiter.aside',
      a.aside.map(([p]) => p),
      reporters,
    ) ??
    notSubset(
      'arbiter.done',
      a.done.map(([p]) => p),
      reporters,
    );
  if (bad !== null) return bad;
  if (queued.includes(a.grantedTo)) return 'the holder is also queued';
  if (a.grantedTo === -1 && (a.queue.length > 0 || a.inquired || a.grantedReq !== 0)) {
    return 'an unlocked arbiter with a queue, an INQUIRE or a tag (I1)';
  }
  return null;
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process and its quorum before anything
 * is built on it. Under quorum reselection (`roles.reselect`) a state whose requester is idle
 * (OutCS, no request, no marks) is accepted whatever quorum its last request asked — nothing in
 * it refers to that quorum; a waiting or InCS one must have asked `Q_i` (its withdrawal or exit
 * goes to `Q_i`).
 * @param roles `reporters`: whom the arbiter may hold or queue (`R_i`; every process under
 *   reselection, S4); `reselect`: whether reselection is on.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size or coterie, or not a state the rules can reach — naming the way out.
 */
export function parseMaekawaDurable(
  recovered: unknown,
  ctx: ProcessContext,
  quorum: readonly ProcessId[],
  roles: { readonly reporters: readonly ProcessId[]; readonly reselect?: boolean },
): MaekawaDurableState {
  const { reporters, reselect = false } = roles;
  const parsed = v.safeParse(durableSchema, recovered);
  let why: string | null;
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const at = v.getDotPath(issue) ?? '(root)';
    why = `not a ${MAEKAWA_DURABLE_FORMAT} state (${at}: ${issue.message})`;
  } else {
    const s = parsed.output as MaekawaDurableState;
    why =
      s.id !== ctx.id || s.n !== ctx.n
        ? `it is P${s.id}'s of a cluster of ${s.n}`
        : s.quorum.join() !== quorum.join() && !(reselect && idleRequester(s))
          ? `it was saved with Q_${ctx.id} = {${s.quorum.join(', ')}}, the coterie gives {${quorum.join(', ')}}`
          : (requesterIncoherence(s) ?? arbiterIncoherence(s.arbiter, reporters));
    if (why === null) return s;
  }
  throw new ConfigurationError(
    `maekawa: P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, coterie and process); if that state is lost, the process must not rejoin as new — it would forget the locks it granted (see "Crash recovery" in the @critsec/mutex README)`,
  );
}
