/**
 * The messages of Maekawa_S — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE
 * TPDS 14(5), 2003, Sec. 4.3, Fig. 7 ("Messages"): REQUEST(p, g, Q, v), GRANT(i), UNLOCK(p).
 *
 * REQUEST names the requester `p` (it is forwarded node to node), its group `g` and its sequence
 * number `sn`; the quorum Q is not sent — every node knows the group quorum system and looks up
 * `Q = quorumOf(p, g)` itself (so a forged Q cannot exist). GRANT and UNLOCK carry `sn` and GRANT
 * the group: Fig. 7 uses `sn` only in the proof; here it also tags the request, so that an
 * aborted request is recognised everywhere (a deviation named in the README).
 */
import { counterSchema, defineProtocol, processIdSchema } from '@critsec/transport';
import * as v from 'valibot';

const groupSchema = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/** Maekawa_S's messages (Fig. 7), validated on receipt; anything else is dropped and counted. */
export const maekawaSProtocol = defineProtocol(
  'group-mutex/S',
  v.variant('type', [
    v.object({ type: v.literal('REQUEST'), p: processIdSchema, g: groupSchema, sn: counterSchema }),
    v.object({ type: v.literal('GRANT'), g: groupSchema, sn: counterSchema }),
    v.object({ type: v.literal('UNLOCK'), sn: counterSchema }),
  ]),
);

/** A Maekawa_S message (see {@link maekawaSProtocol}). */
export type MaekawaSMessage = v.InferOutput<typeof maekawaSProtocol.schema>;
