/**
 * The durable state of one arbiter (issue 27, crash recovery; the contract is `DurableCSObject` of
 * `@critsec/core`): `grantedTo`, `pendingReq` and `preemptingNow` of Kamei & Kakugawa 2017,
 * Algorithms 1–2 (Algorithms 3 and 5 per type for LKCS), and the requests set aside by the
 * one-request-per-process rule (README deviation 10) — as JSON, the schema that checks it, the
 * coherence rules, and the restore.
 */
import type { ProcessId } from '@critsec/core';
import { timestampSchema } from '@critsec/transport';
import * as v from 'valibot';
import type { Arbiter, Entry } from './arbiter.js';

/** One arbiter's durable state: `[P, ts, tag]` per entry, `[P, tag]` for the preemption in progress. */
export type ArbiterDurableState = {
  /** GrantedTo: the grants given and still counted. */
  grantedTo: [ProcessId, number, number][];
  /** PendingReq: the requests waiting. */
  pendingReq: [ProcessId, number, number][];
  /** Requests set aside while their process had another entry here. */
  aside: [ProcessId, number, number][];
  /** PreemptingNow, or null. */
  preemptingNow: [ProcessId, number] | null;
};

const pid = v.pipe(v.number(), v.integer(), v.minValue(0));
const entries = v.array(v.strictTuple([pid, timestampSchema, timestampSchema]));

/** The valibot schema of {@link ArbiterDurableState}. */
export const arbiterDurableSchema = v.strictObject({
  grantedTo: entries,
  pendingReq: entries,
  aside: entries,
  preemptingNow: v.nullable(v.strictTuple([pid, timestampSchema])),
});

const list = (m: ReadonlyMap<ProcessId, Entry>): [ProcessId, number, number][] =>
  [...m].sort(([a], [b]) => a - b).map(([p, e]) => [p, e.ts, e.tag]);

/** The arbiter's durable state (entries by process id). */
export function arbiterDurable(a: Arbiter): ArbiterDurableState {
  return {
    grantedTo: list(a.grantedTo),
    pendingReq: list(a.pendingReq),
    aside: list(a.aside),
    preemptingNow: a.preemptingNow && [a.preemptingNow.pid, a.preemptingNow.tag],
  };
}

/**
 * The first reason `s` is not a state the arbiter's rules reach in N_i ∪ {P_i} (`within`), or null:
 * a process twice in one list or outside N_i ∪ {P_i}, both granted and pending, set aside without
 * an entry, or preempted without a grant.
 */
export function arbiterIncoherence(
  name: string,
  s: ArbiterDurableState,
  within: readonly ProcessId[],
): string | null {
  for (const [key, l] of [
    ['grantedTo', s.grantedTo],
    ['pendingReq', s.pendingReq],
    ['aside', s.aside],
  ] as const) {
    const ids = l.map(([p]) => p);
    if (new Set(ids).size !== ids.length) return `${name}.${key} repeats a process`;
    const stray = ids.find((p) => !within.includes(p));
    if (stray !== undefined) return `${name}.${key} names P${stray}, not in {${within.join(', ')}}`;
  }
  const granted = new Set(s.grantedTo.map(([p]) => p));
  const pending = new Set(s.pendingReq.map(([p]) => p));
  if ([...pending].some((p) => granted.has(p))) return `${name}: a process is both granted and pending`;
  if (s.aside.some(([p]) => !granted.has(p) && !pending.has(p)))
    return `${name}: a request set aside without an entry`;
  if (s.preemptingNow !== null && !granted.has(s.preemptingNow[0]))
    return `${name}: preempting a process not granted`;
  return null;
}

/** Replaces the arbiter's variables by a recovered (checked) state. */
export function restoreArbiter(a: Arbiter, s: ArbiterDurableState): void {
  a.grantedTo.clear();
  a.pendingReq.clear();
  a.aside.clear();
  for (const [p, ts, tag] of s.grantedTo) a.grantedTo.set(p, { ts, tag });
  for (const [p, ts, tag] of s.pendingReq) a.pendingReq.set(p, { ts, tag });
  for (const [p, ts, tag] of s.aside) a.aside.set(p, { ts, tag });
  a.preemptingNow = s.preemptingNow && { pid: s.preemptingNow[0], tag: s.preemptingNow[1] };
}
