/**
 * The vocabulary both roles of Maekawa's algorithm share (Maekawa 1985, Sanders 1987; Joung,
 * IEEE TPDS 2003, Sec. 4.1, Figs. 5–6): its messages (validated on receipt), its rare paths,
 * the snapshot `inspect()` returns and the choice of conflict rules.
 */
import type { ProcessId } from '@critsec/core';
import { reachOf } from '@critsec/core/kit';
import { counterSchema, defineProtocol, type Protocol, timestampSchema } from '@critsec/transport';
import * as v from 'valibot';

const tagged = <T extends string>(type: T) =>
  v.object({ type: v.literal(type), req: timestampSchema, ts: timestampSchema });

const maekawaSchema = v.variant('type', [
  tagged('REQUEST'),
  tagged('LOCKED'),
  tagged('FAILED'),
  tagged('INQUIRE'),
  tagged('RELINQUISH'),
  tagged('RELEASE'),
  tagged('PROBE'),
  v.object({
    type: v.literal('FENCE_LOCKED'),
    req: timestampSchema,
    ts: timestampSchema,
    hs: timestampSchema,
  }),
  v.object({
    type: v.literal('CONFIRM'),
    req: timestampSchema,
    ts: timestampSchema,
    token: timestampSchema,
    round: counterSchema,
  }),
  v.object({ type: v.literal('CONFIRMED'), req: timestampSchema, ts: timestampSchema, round: counterSchema }),
  tagged('EXPIRED'),
]);

/**
 * Maekawa's messages. `req` is the tag of the request a message belongs to (the request's
 * timestamp); `ts` is the sender's Lamport clock. For REQUEST both are the request's timestamp.
 * Both are timestamps (`timestampSchema`: 0 … `CLOCK_MAX`).
 *
 * - `REQUEST` requester → arbiter: lock request with priority `(req, sender)`.
 * - `LOCKED` arbiter → requester: the lock is yours.
 * - `FAILED` arbiter → requester: a higher-priority request is here; you will wait.
 * - `INQUIRE` arbiter → holder: a higher-priority request waits; yield if you cannot enter.
 * - `RELINQUISH` holder → arbiter: the lock is yours again (yield).
 * - `RELEASE` requester → arbiter: unlock after the CS, or withdraw an aborted request.
 * - `PROBE` arbiter → requester: is this tag your current request? Answered by RELEASE when it
 *   is not. Not in the papers (issue 27 §3): sent only when a REQUEST in the requester's name
 *   cannot be honest (rule A4 of `maekawa-arbiter.ts`), so never on an honest FIFO run.
 *
 * Fencing and time-bounded grants (issue 28, not in the papers; only with `fencing` or `ttl`,
 * rules F1–F4 of `maekawa-fence.ts` and A5–A6 of `maekawa-arbiter.ts`):
 * - `FENCE_LOCKED` arbiter → requester: LOCKED, with `hs`, the highest fencing token this arbiter
 *   has seen (durable).
 * - `CONFIRM` requester → arbiter: holding the whole quorum, the requester proposes `token`
 *   (max of the `hs` it was told + 1; 0 for a keep-alive of a lock held while waiting); the
 *   arbiter accepts only while that grant is current, raises `hs` to `token` and restarts the
 *   grant's TTL. `round` numbers the requester's confirmations (renewals included).
 * - `CONFIRMED` arbiter → requester: `round` accepted.
 * - `EXPIRED` arbiter → requester: the grant of `req` was reclaimed (its TTL passed unrenewed).
 */
export const maekawaProtocol: Protocol<MaekawaMessage> = defineProtocol('maekawa', maekawaSchema);

/** A Maekawa message (see {@link maekawaProtocol}). */
export type MaekawaMessage =
  | {
      /** The message's name (see {@link maekawaProtocol}). */
      type: 'REQUEST' | 'LOCKED' | 'FAILED' | 'INQUIRE' | 'RELINQUISH' | 'RELEASE' | 'PROBE' | 'EXPIRED';
      /** The tag of the request the message belongs to: the request's timestamp (0 … `CLOCK_MAX`). */
      req: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`); for REQUEST, the request's timestamp. */
      ts: number;
    }
  | {
      /** LOCKED with the arbiter's highest token seen (fencing). */
      type: 'FENCE_LOCKED';
      /** The tag of the request granted. */
      req: number;
      /** The sender's Lamport clock. */
      ts: number;
      /** The highest fencing token this arbiter has seen (0 … `CLOCK_MAX`). */
      hs: number;
    }
  | {
      /** A proposed fencing token, or a renewal (fencing). */
      type: 'CONFIRM';
      /** The tag of the request whose grant it confirms. */
      req: number;
      /** The sender's Lamport clock. */
      ts: number;
      /** The proposed token; 0 for a keep-alive of a lock held while waiting. */
      token: number;
      /** The confirmation's number (per requester, increasing). */
      round: number;
    }
  | {
      /** A CONFIRM accepted (fencing). */
      type: 'CONFIRMED';
      /** The tag of the request whose grant was confirmed. */
      req: number;
      /** The sender's Lamport clock. */
      ts: number;
      /** The round accepted. */
      round: number;
    };

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<typeof maekawaSchema>, MaekawaMessage> = true;
void schemaMatchesType;

/**
 * The rare paths of Maekawa's algorithm, marked with `reach()` from `@critsec/core` so a test can
 * assert that each was taken across its seeds:
 *
 * - `maekawa:inquire` an arbiter sent INQUIRE;
 * - `maekawa:inquire-deferred` a requester deferred an INQUIRE (no FAILED yet);
 * - `maekawa:relinquish` a requester relinquished a lock;
 * - `maekawa:relinquish-after-failed` a deferred INQUIRE was answered when a FAILED arrived;
 * - `maekawa:failed-displaced` a queue head displaced by a higher request got FAILED;
 * - `maekawa:stale-ignored` a LOCKED/FAILED/INQUIRE for an earlier request was ignored;
 * - `maekawa:inquire-after-entry` an INQUIRE arrived after entry and was ignored;
 * - `maekawa:duplicate-locked` a second LOCKED from the same arbiter did not count;
 * - `maekawa:cancel-queued` RELEASE withdrew a queued (aborted) request;
 * - `maekawa:regrant-relinquisher` after a RELINQUISH the relinquisher was still the highest.
 */
export const maekawaRarePaths = [
  'maekawa:inquire',
  'maekawa:inquire-deferred',
  'maekawa:relinquish',
  'maekawa:relinquish-after-failed',
  'maekawa:failed-displaced',
  'maekawa:stale-ignored',
  'maekawa:inquire-after-entry',
  'maekawa:duplicate-locked',
  'maekawa:cancel-queued',
  'maekawa:regrant-relinquisher',
] as const;

/**
 * Marks of paths no honest run takes (issue 27 §3: a request set aside, a probe) and of a tag
 * released unused; with {@link maekawaRarePaths}, every mark of Maekawa's algorithm.
 */
const otherMarks = [
  'maekawa:aside-admitted',
  'maekawa:probe',
  'maekawa:probe-current',
  'maekawa:reselected',
  'maekawa:request-set-aside',
  'maekawa:unused-tag-released',
  'maekawa:grant-expired',
  'maekawa:expired-regained',
  'maekawa:expired-in-cs',
  'maekawa:confirm-stale',
] as const;

/** @internal `reach()` of `@critsec/core` typed against Maekawa's marks (a typo fails `tsc`). */
export const reach = reachOf([...maekawaRarePaths, ...otherMarks]);

/** Protocol variables of one process, as returned by `inspect()` (JSON-serializable). */
export interface MaekawaSnapshot {
  /** Lamport clock `sn`. */
  readonly sn: number;
  /** Requester role. */
  readonly requester: {
    /** Tag (timestamp) of the current request, −1 when none. */
    readonly request: number;
    /** True while a request waits for locks: `entry` in flight, or a recovered request until `recover()`. */
    readonly waiting: boolean;
    /** Arbiters whose lock is held. */
    readonly locks: readonly ProcessId[];
    /** Arbiters that sent FAILED (and have not granted since). */
    readonly failed: readonly ProcessId[];
    /** Arbiters relinquished to (and not regained). */
    readonly yielded: readonly ProcessId[];
    /** Arbiters whose INQUIRE is deferred. */
    readonly inquiredBy: readonly ProcessId[];
  };
  /** Arbiter role. */
  readonly arbiter: {
    /** Holder of the lock, −1 when not locked. */
    readonly grantedTo: ProcessId;
    /** Tag of the holder's request. */
    readonly grantedReq: number;
    /** INQUIRE sent to the holder for this grant. */
    readonly inquired: boolean;
    /** Waiting requests in priority order: `[process, ts, failed]`. */
    readonly queue: readonly [ProcessId, number, boolean][];
    /**
     * Requests set aside (`[process, tag]`): a REQUEST from a process that still had an entry
     * here, admitted when that entry ends. Never on an honest FIFO run (issue 27 §3; rule A4 of
     * `maekawa-arbiter.ts`, a deviation from the papers listed in the README).
     */
    readonly aside: readonly [ProcessId, number][];
  };
}

/**
 * `'sanders'`: the deadlock-free rules (`maekawa-arbiter.ts`, A1–A3). `'paraphrased'`: FAILED decided only
 * against the holder and no FAILED to a displaced head — the version that deadlocks.
 * @internal
 */
export type MaekawaRules = 'sanders' | 'paraphrased';
