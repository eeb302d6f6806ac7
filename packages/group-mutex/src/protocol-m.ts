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
import { counterSchema, defineProtocol, timestampSchema } from '@critsec/transport';
import * as v from 'valibot';

const groupSchema = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/** Maekawa_M's messages (Fig. 5), validated on receipt; anything else is dropped and counted. */
export const maekawaMProtocol = defineProtocol(
  'group-mutex/M',
  v.variant('type', [
    v.object({ type: v.literal('REQUEST'), req: counterSchema, ts: timestampSchema, g: groupSchema }),
    v.object({ type: v.literal('LOCKED'), req: counterSchema, ts: timestampSchema }),
    v.object({ type: v.literal('INQUIRE'), req: counterSchema, ts: timestampSchema }),
    v.object({ type: v.literal('UNLOCK'), req: counterSchema, ts: timestampSchema, flag: v.boolean() }),
  ]),
);

/** A Maekawa_M message (see {@link maekawaMProtocol}). */
export type MaekawaMMessage = v.InferOutput<typeof maekawaMProtocol.schema>;
