/**
 * The messages of Maekawa_S — Joung, "Quorum-based algorithms for group mutual exclusion", IEEE
 * TPDS 14(5), 2003, Sec. 4.3, Fig. 7 ("Messages"): REQUEST(p, g, Q, v), GRANT(i), UNLOCK(p).
 *
 * REQUEST names the requester `p` (it is forwarded node to node), its group `g` and its sequence
 * number `sn`; the quorum Q is not sent — every node knows the group quorum system and looks up
 * `Q = quorumOf(p, g)` itself (so a forged Q cannot exist). GRANT and UNLOCK carry `sn` and the
 * group: Fig. 7 uses `sn` only in the proof; here (p, g, sn) names the request, so that an aborted
 * request is recognised everywhere and an UNLOCK releases exactly the request it names, never
 * another of p under the same `sn` (deviations 4 and 7 of the README).
 */
import { counterSchema, defineProtocol, type Protocol, processIdSchema } from '@critsec/transport';
import * as v from 'valibot';

const groupSchema = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

const schema = v.variant('type', [
  v.object({ type: v.literal('REQUEST'), p: processIdSchema, g: groupSchema, sn: counterSchema }),
  v.object({ type: v.literal('GRANT'), g: groupSchema, sn: counterSchema }),
  v.object({ type: v.literal('UNLOCK'), g: groupSchema, sn: counterSchema }),
]);

/** A Maekawa_S message (Fig. 7); `sn` is the requester's sequence number, tagging the request. */
export type MaekawaSMessage =
  | {
      /** REQUEST(p, g, Q, v): p's request for group g, forwarded from node to node of Q = quorumOf(p, g). */
      type: 'REQUEST';
      /** The requester. */
      p: number;
      /** The group requested, 0 … m−1. */
      g: number;
      /** The request's sequence number. */
      sn: number;
    }
  | {
      /** GRANT(i): the request's last node lets the requester in. */
      type: 'GRANT';
      /** The group granted. */
      g: number;
      /** The request granted. */
      sn: number;
    }
  | {
      /** UNLOCK(p): the requester left the CS (or withdrew the request); the nodes release it. */
      type: 'UNLOCK';
      /** The group of the request that is over (with `sn`, it names the request: README deviation 7). */
      g: number;
      /** The request that is over. */
      sn: number;
    };

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<typeof schema>, MaekawaSMessage> = true;
void schemaMatchesType;

/** Maekawa_S's messages (Fig. 7), validated on receipt; anything else is dropped and counted. */
export const maekawaSProtocol: Protocol<MaekawaSMessage> = defineProtocol('group-mutex/S', schema);
