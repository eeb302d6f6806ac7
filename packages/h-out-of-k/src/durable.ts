/**
 * The durable state of one h-out-of-k process (issue 27, crash recovery; the contract is
 * `DurableCSObject` of `@critsec/core`, `durable.ts`): what it persists after every step so that,
 * restarted after a crash, it resumes exactly where its last committed step left it — and how a
 * recovered state is checked before an object is built on it.
 *
 * The paper (Manabe & Tajima, Sec. 4.1, Fig. 1) assumes processes never crash. Everything the
 * others rely on is here, by Fig. 1's names: the Lamport clock `c`; the requester's `h`, `Q`, `K`
 * and `In` (the CS state) with the request's tag `seq`, its clock and the request count; the
 * arbiter's `x` and `Que` (each entry with the clock its latest `OK` carried) and what the
 * no-wedge rules of `arbiter.ts` added (requests set aside, entries admitted in doubt, `done(p)`).
 */
import { ConfigurationError, type ProcessContext, type ProcessId } from '@critsec/core';
import type { HKArbiter } from '@critsec/coteries';
import { counterSchema, timestampSchema } from '@critsec/transport';
import * as v from 'valibot';
import { higher, type Priority, type QueStatus } from './que.js';
import type { SenderRoles } from './roles.js';
import type { HOutOfKSetting } from './types.js';

/** The format tag of {@link HOutOfKDurableState} (a state of another algorithm or version is refused). */
export const H_OUT_OF_K_DURABLE_FORMAT = 'critsec/h-out-of-k@1';

/**
 * One entry of `Que` as stored: `[process, clock, units, status, seq, okTs]` — Fig. 1's
 * `Que[j].process`, `.clock`, `.units`, `.status`, the request's tag, and the clock of the latest
 * `OK` sent for it (−1: none yet).
 */
export type DurableQueEntry = [ProcessId, number, number, QueStatus, number, number];

/**
 * The durable state of one h-out-of-k process: plain JSON (no `undefined`, every number an
 * integer; clocks are timestamps, 0 … `CLOCK_MAX`; −1 means "none" where noted). What
 * `durableState()` returns and what `hOutOfK()`'s factory resumes from when given it as
 * `ProcessContext.recovered`.
 *
 * A request that was waiting is recorded as `state: 'OutCS'` with `requester.waiting: true`: the
 * recovered object is OutCS from the API's view (no `entry()` is in flight on it) while its
 * request still stands at the arbiters, until `recover()` withdraws it.
 */
export type HOutOfKDurableState = {
  /** Always {@link H_OUT_OF_K_DURABLE_FORMAT}. */
  format: typeof H_OUT_OF_K_DURABLE_FORMAT;
  /** The process this state belongs to. */
  id: ProcessId;
  /** The cluster's number of processes. */
  n: number;
  /** The number of units k. */
  k: number;
  /** The CS state (Fig. 1 `In`; a waiting request counts as OutCS, see above). */
  state: 'InCS' | 'OutCS';
  /** Fig. 1 `c`: the Lamport clock. */
  c: number;
  /** The requester role. */
  requester: {
    /** `seq` of the current request (held InCS or waiting), −1 when none. */
    request: number;
    /** Requests made so far: the next request's `seq`. */
    seq: number;
    /** Fig. 1 `h`: units of the current request, 0 when none. */
    h: number;
    /** The clock `c` the current request was sent with (its priority), 0 when none. */
    c: number;
    /**
     * Fig. 1 `Q`: the quorum of the current request (`quorumOf(id, h)`; under quorum reselection
     * the quorum of `Q_{h,k}` the attempt asks), empty when none.
     */
    Q: ProcessId[];
    /** The current request still waits for OKs. */
    waiting: boolean;
    /** Fig. 1 `K`: arbiters of `Q` whose OK is held. */
    K: ProcessId[];
    /** Arbiters of `Q` whose OK was given back with `cancelled` during this request. */
    gaveBack: ProcessId[];
  };
  /** The arbiter role. */
  arbiter: {
    /** Fig. 1 `x`: free units. */
    x: number;
    /** Fig. 1 `Que`, highest priority first. */
    Que: DurableQueEntry[];
    /** Requests set aside, `[process, h, c, seq]` (issue 27 §3, never on an honest run). */
    aside: [ProcessId, number, number, number][];
    /** Processes whose entry in `Que` was admitted in doubt (issue 27 §3). */
    suspect: ProcessId[];
    /** `done(p)`: the largest `seq` of `p` whose entry a `release` ended here, `[p, seq]` (only those with one). */
    done: [ProcessId, number][];
    /** With fencing (issue 28, G1 of `arbiter-fence.ts`): the highest fencing token seen. */
    hs?: number;
  };
};

const pid = v.pipe(v.number(), v.integer(), v.minValue(0));
const ids = v.array(pid);
const noneOr = (s: typeof counterSchema) => v.union([s, v.literal(-1)]);
const units = v.pipe(v.number(), v.integer(), v.minValue(0));
const durableSchema = v.strictObject({
  format: v.literal(H_OUT_OF_K_DURABLE_FORMAT),
  id: pid,
  n: pid,
  k: pid,
  state: v.picklist(['InCS', 'OutCS']),
  c: timestampSchema,
  requester: v.strictObject({
    request: noneOr(counterSchema),
    seq: counterSchema,
    h: units,
    c: timestampSchema,
    Q: ids,
    waiting: v.boolean(),
    K: ids,
    gaveBack: ids,
  }),
  arbiter: v.strictObject({
    x: units,
    Que: v.array(
      v.strictTuple([
        pid,
        timestampSchema,
        units,
        v.picklist(['wait', 'ok', 'cancel']),
        counterSchema,
        noneOr(timestampSchema),
      ]),
    ),
    aside: v.array(v.strictTuple([pid, units, timestampSchema, counterSchema])),
    suspect: ids,
    done: v.array(v.strictTuple([pid, counterSchema])),
    hs: v.optional(timestampSchema),
  }),
});

/** The first reason `list` is not a set of members of `within`, or null. */
function notSubset(name: string, list: readonly ProcessId[], within: readonly ProcessId[]): string | null {
  if (new Set(list).size !== list.length) return `${name} repeats a process`;
  const stray = list.find((p) => !within.includes(p));
  return stray === undefined ? null : `${name} names P${stray}, not one of {${within.join(', ')}}`;
}

/** The first reason the requester's part cannot be a state of Fig. 1's requester, or null. */
function requesterIncoherence(s: HOutOfKDurableState, arbiter: HKArbiter, reselect: boolean): string | null {
  const r = s.requester;
  if (r.request === -1) {
    const idle = r.h === 0 && r.c === 0 && r.Q.length + r.K.length + r.gaveBack.length === 0;
    return idle && !r.waiting && s.state === 'OutCS' ? null : 'no request, yet h, Q, K, waiting or InCS';
  }
  if (r.request !== r.seq - 1) return 'the current request is not the latest one';
  if (r.h < 1 || r.h > s.k) return `h = ${r.h} is not in 1..k`;
  const Q = arbiter.quorumOf(s.id, r.h);
  // under reselection (S1–S2 of reselect.ts) the request may ask any quorum of Q_{h,k}
  const listed = reselect && arbiter.quorumSet(r.h).quorums.some((q) => q.join() === r.Q.join());
  if (r.Q.join() !== Q.join() && !listed) {
    const of = reselect ? `no quorum of Q_{h,k} for h = ${r.h}` : `the arbiter gives {${Q.join(', ')}}`;
    return `it was saved with Q = {${r.Q.join(', ')}} for h = ${r.h}, ${of}`;
  }
  if (r.c < 1 || r.c > s.c) return 'the request clock is not a past tick of c';
  const bad = notSubset('requester.K', r.K, r.Q) ?? notSubset('requester.gaveBack', r.gaveBack, r.Q);
  if (bad !== null) return bad;
  if (s.state === 'InCS') return r.waiting || r.K.length !== r.Q.length ? 'InCS without every OK of Q' : null;
  return r.waiting ? null : 'OutCS and not waiting, yet holding a request';
}

/** The first reason `Que` breaks one entry per asking process, the priority order or its units, or null. */
function queIncoherence(
  Que: readonly DurableQueEntry[],
  roles: SenderRoles,
  priority: Priority,
): string | null {
  const entry = ([process, clock, , , seq]: DurableQueEntry) => ({ process, clock, seq });
  for (let j = 0; j < Que.length; j++) {
    const [p, , h, status, , okTs] = Que[j]!;
    if (!roles.asks(p, h))
      return `Que holds a request of P${p} for ${h} units, which does not ask this arbiter`;
    if (status !== 'wait' && okTs === -1) return `Que's entry of P${p} holds units with no OK sent`;
    if (j > 0 && !higher(entry(Que[j - 1]!), entry(Que[j]!), priority)) return 'Que is not in priority order';
  }
  return new Set(Que.map(([p]) => p)).size === Que.length ? null : 'Que holds two entries of one process';
}

/**
 * The first reason the arbiter's part cannot be a state of Fig. 1's arbiter with the no-wedge
 * rules, or null: besides `Que` itself, `x = k − Σ units taken ≥ 0` and every entry in status ok
 * within the prefix of `Que` that fits in k units (the invariant of `h-out-of-k.ts`).
 */
function arbiterIncoherence(
  a: HOutOfKDurableState['arbiter'],
  k: number,
  roles: SenderRoles,
  priority: Priority,
): string | null {
  const bad = queIncoherence(a.Que, roles, priority);
  if (bad !== null) return bad;
  const taken = a.Que.reduce((sum, [, , h, status]) => sum + (status === 'wait' ? 0 : h), 0);
  if (a.x !== k - taken || a.x < 0) return `x = ${a.x}, but k − (units taken) = ${k - taken}`;
  let sum = 0;
  for (const [p, , h, status] of a.Que) {
    sum += h;
    if (status === 'ok' && sum > k) return `P${p}'s entry holds an OK outside the k-unit prefix of Que`;
  }
  const queued = a.Que.map(([p]) => p);
  const aside = a.aside.map(([p]) => p);
  const why =
    notSubset('arbiter.aside', aside, queued) ??
    notSubset('arbiter.suspect', a.suspect, queued) ??
    notSubset(
      'arbiter.done',
      a.done.map(([p]) => p),
      Array.from({ length: roles.n }, (_, p) => p).filter((p) => roles.asksSome(p)),
    );
  if (why !== null) return why;
  const unasked = a.aside.find(([p, h]) => !roles.asks(p, h));
  return unasked === undefined
    ? null
    : `a request of P${unasked[0]} set aside for units it does not ask here`;
}

/**
 * Checks a recovered state (`ctx.recovered`) against the process, k and the (h,k)-arbiter before
 * anything is built on it.
 * @returns the state, typed.
 * @throws ConfigurationError when it is malformed, of another algorithm or version, of another
 *   process, cluster size, k or arbiter, or not a state the rules can reach — naming the way out.
 */
export function parseHOutOfKDurable(
  recovered: unknown,
  ctx: ProcessContext,
  setting: HOutOfKSetting,
  roles: SenderRoles,
): HOutOfKDurableState {
  const parsed = v.safeParse(durableSchema, recovered);
  let why: string | null;
  if (!parsed.success) {
    const issue = parsed.issues[0];
    why = `not a ${H_OUT_OF_K_DURABLE_FORMAT} state (${v.getDotPath(issue) ?? '(root)'}: ${issue.message})`;
  } else {
    const s = parsed.output as HOutOfKDurableState;
    why =
      s.id !== ctx.id || s.n !== ctx.n || s.k !== setting.k
        ? `it is P${s.id}'s of a cluster of ${s.n} with k = ${s.k}`
        : (requesterIncoherence(s, setting.arbiter, setting.reselect === true) ??
          arbiterIncoherence(s.arbiter, setting.k, roles, setting.priority));
    if (why === null) return s;
  }
  throw new ConfigurationError(
    `hOutOfK: P${ctx.id} cannot resume from its recovered state: ${why}. Give it the state its own store committed last (same cluster, k, arbiter and process); if that state is lost, the process must not rejoin as new — it would forget the units it granted (see "Fault model" in the @critsec/h-out-of-k README)`,
  );
}
