/**
 * LKCS's messages (Kamei & Kakugawa 2017, Sec. 5.2, Algorithms 4–7): Request, Grant, Release,
 * Preempt, Relinquish of either algorithm type, and the leader's Trigger / RequestByTrigger.
 */
import { defineProtocol, timestampSchema } from '@critsec/transport';
import type { Bounds } from './config.js';
import type { ArbiterSnapshot } from './arbiter.js';
import type { Graph, ProcessId } from '@critsec/core';
import * as v from 'valibot';

/** The algorithm type of Algorithm 3: `MUTIN` (grants to exit), `MUTEX` (grants to enter). */
export type At = 'MUTEX' | 'MUTIN';

const msg = <T extends string>(type: T) =>
  v.strictObject({
    type: v.literal(type),
    at: v.picklist(['MUTEX', 'MUTIN']),
    req: timestampSchema,
    ts: timestampSchema,
  });

/**
 * LKCS's messages (Algorithms 4–7). `at`: the algorithm type; `req`: the tag of the request the
 * message is about (the requester's sequence number; Trigger: the nominee's; the sidetrack's
 * Grant: 0); `ts`: the sender's Lamport clock, for Request the request's timestamp ts_i. The
 * sender P_j of the paper is the transport's `from`.
 */
export const lkcsProtocol = defineProtocol(
  'lkcs',
  v.variant('type', [
    msg('Request'),
    msg('Grant'),
    msg('Release'),
    msg('Preempt'),
    msg('Relinquish'),
    msg('Trigger'),
    msg('RequestByTrigger'),
  ]),
);

/** An LKCS message (see {@link lkcsProtocol}). */
export type LkcsMessage = v.InferOutput<typeof lkcsProtocol.schema>;

/** Rare paths of LKCS (coverage marks via `reach()`). */
export const lkcsRarePaths = [
  'lkcs:trigger-nomination',
  'lkcs:trigger',
  'lkcs-MUTIN:sidetrack-grant',
  'lkcs-MUTEX:sidetrack-grant',
  'lkcs:relinquish',
  'lkcs-MUTIN:preempt',
  'lkcs-MUTEX:preempt',
] as const;

/**
 * How the leader nominates triggers: `'one-per-type'` (default) never while a sidetrack of the
 * same type is in use; `'printed'` whenever Waiting_LDR = |N_LDR| + 1 again (Algorithm 4), which
 * can hand out two sidetracks of one type at once (unsafe, see the README); `'release-printed'`:
 * one per type, but a Release always grants the head of `pendingReq` (Algorithm 5). @internal
 */
export type LkcsNomination = 'one-per-type' | 'printed' | 'release-printed';

/** Options of {@link lkcs}. */
export interface LkcsOptions {
  readonly graph: Graph;
  /** l_i per process. */
  readonly l: Bounds;
  /** k_i per process, `l_i < k_i ≤ |N_i| + 1`. */
  readonly k: Bounds;
  /** P_LDR; by default the valid leader of highest degree (see {@link lkcsPlan}). */
  readonly leader?: ProcessId;
}

/** Protocol variables of one LKCS process (Algorithm 3's names). */
export interface LkcsSnapshot {
  readonly ts: number;
  readonly waiting: At | null;
  readonly request: Readonly<Record<At, number>>;
  readonly triggered: Readonly<Record<At, boolean>>;
  readonly nGrants: Readonly<Record<At, readonly ProcessId[]>>;
  readonly arbiter: Readonly<Record<At, ArbiterSnapshot>>;
  /** Leader only: the trigger nominated per type and not yet done, `[P_q, phase]`. */
  readonly outstanding: Readonly<Record<At, readonly [ProcessId, string] | null>>;
}
