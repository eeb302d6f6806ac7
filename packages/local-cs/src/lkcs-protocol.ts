/**
 * LKCS's messages (Kamei & Kakugawa 2017, Sec. 5.2, Algorithms 4–7): Request, Grant, Release,
 * Preempt, Relinquish of either algorithm type, and the leader's Trigger / RequestByTrigger.
 */
import { defineProtocol, type Protocol, timestampSchema } from '@critsec/transport';
import type { Bounds } from './config.js';
import type { ArbiterSnapshot } from './arbiter.js';
import type { Graph, ProcessId } from '@critsec/core';
import * as v from 'valibot';
import type { Mark } from './marks.js';

/** The algorithm type of Algorithm 3: `MUTIN` (grants to exit), `MUTEX` (grants to enter). */
export type At = 'MUTEX' | 'MUTIN';

const msg = <T extends string>(type: T) =>
  v.strictObject({
    type: v.literal(type),
    at: v.picklist(['MUTEX', 'MUTIN']),
    req: timestampSchema,
    ts: timestampSchema,
  });

/** The names of LKCS's messages (Algorithms 4–7). */
export type LkcsMessageType =
  | 'Request'
  | 'Grant'
  | 'Release'
  | 'Preempt'
  | 'Relinquish'
  | 'Trigger'
  | 'RequestByTrigger';

/**
 * An LKCS message (Algorithms 4–7). The sender P_j of the paper is the transport's `from`.
 */
export type LkcsMessage = {
  /** The message's name. */
  type: LkcsMessageType;
  /** The algorithm type it belongs to (Algorithm 3). */
  at: At;
  /**
   * The tag of the request the message is about: the requester's sequence number (Trigger: the
   * nominee's; the sidetrack's Grant: 0).
   */
  req: number;
  /** The sender's Lamport clock; for Request, the request's timestamp ts_i. */
  ts: number;
};

const lkcsSchema = v.variant('type', [
  msg('Request'),
  msg('Grant'),
  msg('Release'),
  msg('Preempt'),
  msg('Relinquish'),
  msg('Trigger'),
  msg('RequestByTrigger'),
]);

/** Holds when the schema's output and the documented interface are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterface: SameType<v.InferOutput<typeof lkcsSchema>, LkcsMessage> = true;
void schemaMatchesInterface;

/** LKCS's messages (Algorithms 4–7), validated at the boundary (see {@link LkcsMessage}). */
export const lkcsProtocol: Protocol<LkcsMessage> = defineProtocol('lkcs', lkcsSchema);

/** Rare paths of LKCS (coverage marks via `reach()`). */
export const lkcsRarePaths = [
  'lkcs:trigger-nomination',
  'lkcs:trigger',
  'lkcs-MUTIN:sidetrack-grant',
  'lkcs-MUTEX:sidetrack-grant',
  'lkcs:relinquish',
  'lkcs-MUTIN:preempt',
  'lkcs-MUTEX:preempt',
] as const satisfies readonly Mark[];

/**
 * How the leader nominates triggers: `'one-per-type'` (default) never while a sidetrack of the
 * same type is in use; `'printed'` whenever Waiting_LDR = |N_LDR| + 1 again (Algorithm 4), which
 * can hand out two sidetracks of one type at once (unsafe, see the README); `'release-printed'`:
 * one per type, but a Release always grants the head of `pendingReq` (Algorithm 5). @internal
 */
export type LkcsNomination = 'one-per-type' | 'printed' | 'release-printed';

/** Options of {@link lkcs}. */
export interface LkcsOptions {
  /** The communication graph; N_i is i's closed neighbourhood in it. */
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
  /** The process's Lamport clock. */
  readonly ts: number;
  /** The algorithm type whose grants it waits for, or `null`. */
  readonly waiting: At | null;
  /** Tag of the current request per algorithm type. */
  readonly request: Readonly<Record<At, number>>;
  /** Whether the current request per type was made by a Trigger (RequestByTrigger). */
  readonly triggered: Readonly<Record<At, boolean>>;
  /** The processes whose grant it holds, per type, ascending. */
  readonly nGrants: Readonly<Record<At, readonly ProcessId[]>>;
  /** Its arbiter's state, per type. */
  readonly arbiter: Readonly<Record<At, ArbiterSnapshot>>;
  /** Leader only: the trigger nominated per type and not yet done, `[P_q, phase]`. */
  readonly outstanding: Readonly<Record<At, readonly [ProcessId, string] | null>>;
}
