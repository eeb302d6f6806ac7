/**
 * The messages of Maekawa_M — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE
 * TPDS 14(5), 2003, Sec. 4.2, Fig. 5 ("Messages"): REQUEST(v, g), INQUIRE(i, v, t),
 * UNLOCK(p, t, complete_flag), LOCKED(i, t). The sender (i or p) is the transport's `from`; the
 * priority v = ⟨p, t⟩ of a REQUEST is (`from`, `ts`).
 *
 * Every message also carries `req`, the requester's request number (1, 2, …; never moved by a
 * peer): INQUIRE's `v` is named by it, and LOCKED and UNLOCK carry it too — a deviation from
 * Fig. 5 needed by abort (a LOCKED still in flight when a request is withdrawn must not count for
 * the next one; see the README).
 */
import { counterSchema, defineProtocol, type Protocol, timestampSchema } from '@critsec/transport';
import * as v from 'valibot';

const groupSchema = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

const schema = v.variant('type', [
  v.object({ type: v.literal('REQUEST'), req: counterSchema, ts: timestampSchema, g: groupSchema }),
  v.object({ type: v.literal('LOCKED'), req: counterSchema, ts: timestampSchema }),
  v.object({ type: v.literal('INQUIRE'), req: counterSchema, ts: timestampSchema }),
  v.object({ type: v.literal('UNLOCK'), req: counterSchema, ts: timestampSchema, flag: v.boolean() }),
  v.object({ type: v.literal('PROBE'), req: counterSchema, ts: timestampSchema }),
  v.object({ type: v.literal('FENCE_LOCKED'), req: counterSchema, ts: timestampSchema, hs: timestampSchema }),
  v.object({
    type: v.literal('CONFIRM'),
    req: counterSchema,
    ts: timestampSchema,
    token: timestampSchema,
    round: counterSchema,
  }),
  v.object({ type: v.literal('CONFIRMED'), req: counterSchema, ts: timestampSchema, round: counterSchema }),
  v.object({ type: v.literal('EXPIRED'), req: counterSchema, ts: timestampSchema }),
]);

/**
 * A Maekawa_M message (Fig. 5). `req` is the requester's request number (1, 2, …) the message is
 * about; `ts` the sender's Lamport clock (the paper's t, or sn).
 */
export type MaekawaMMessage =
  | {
      /** REQUEST(v, g): p asks a quorum node for its lock, for group g, with priority v = ⟨p, ts⟩. */
      type: 'REQUEST';
      /** The request number. */
      req: number;
      /** The request's timestamp. */
      ts: number;
      /** The group requested, 0 … m−1. */
      g: number;
    }
  | {
      /** LOCKED(i, t): node i gives its lock to the requester. */
      type: 'LOCKED';
      /** The request the lock is for. */
      req: number;
      /** The sender's clock. */
      ts: number;
    }
  | {
      /** INQUIRE(i, v, t): node i asks the requester of `req` to release its lock. */
      type: 'INQUIRE';
      /** The request whose lock is asked back. */
      req: number;
      /** The sender's clock. */
      ts: number;
    }
  | {
      /** UNLOCK(p, t, complete_flag): p releases the recipient's lock. */
      type: 'UNLOCK';
      /** The request the lock was for. */
      req: number;
      /** The sender's clock. */
      ts: number;
      /** complete_flag: p has entered the CS (its request is over), not merely yielding. */
      flag: boolean;
    }
  | {
      /**
       * PROBE node → requester: is `req` your current request? Answered with UNLOCK(req, true)
       * when it is not. Not in Fig. 5 (issue 27 §3): sent only for a second REQUEST of a process
       * whose request the node still holds, so never on an honest run (README deviation 6).
       */
      type: 'PROBE';
      /** The request asked about. */
      req: number;
      /** The sender's clock. */
      ts: number;
    }
  | {
      /**
       * LOCKED with `hs`, the highest fencing token node i has seen (durable) — issue 28, fencing
       * on (README "Fencing tokens and time-bounded grants"; not in Fig. 5).
       */
      type: 'FENCE_LOCKED';
      /** The request the lock is for. */
      req: number;
      /** The sender's clock. */
      ts: number;
      /** The node's highest fencing token seen. */
      hs: number;
    }
  | {
      /**
       * CONFIRM requester → node (issue 28): holding its whole quorum, p proposes `token`
       * (max of the `hs` it was told + 1; 0 for a keep-alive of a lock held while waiting); the
       * node accepts only while p's lock for `req` is current, raises `hs` to `token` and
       * restarts the lock's TTL.
       */
      type: 'CONFIRM';
      /** The request whose lock it confirms. */
      req: number;
      /** The sender's clock. */
      ts: number;
      /** The proposed fencing token (0: a keep-alive). */
      token: number;
      /** Numbers p's confirmations (renewals included). */
      round: number;
    }
  | {
      /** CONFIRMED node → requester (issue 28): `round` accepted. */
      type: 'CONFIRMED';
      /** The request whose lock was confirmed. */
      req: number;
      /** The sender's clock. */
      ts: number;
      /** The round accepted. */
      round: number;
    }
  | {
      /** EXPIRED node → requester (issue 28): the lock of `req` was reclaimed (its TTL passed unrenewed) and the request dropped. */
      type: 'EXPIRED';
      /** The request whose lock was reclaimed. */
      req: number;
      /** The sender's clock. */
      ts: number;
    };

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<typeof schema>, MaekawaMMessage> = true;
void schemaMatchesType;

/** Maekawa_M's messages (Fig. 5), validated on receipt; anything else is dropped and counted. */
export const maekawaMProtocol: Protocol<MaekawaMMessage> = defineProtocol('group-mutex/M', schema);
