/**
 * The messages of the h-out-of-k algorithm — h-out-of-k paper (Manabe & Tajima), Sec. 4.1 and
 * Fig. 1: `request(h, p, c)`, `OK`, `cancel`, `cancelled`, `release`, each carrying the sender's
 * Lamport clock (Sec. 4.1: "the current value of c_p is piggybacked on m").
 *
 * Every field a peer can send is bounded, so no accepted message can put the receiver in a state
 * whose own messages fail validation: clocks are timestamps (0 … `CLOCK_MAX`, kept in range by the
 * saturating `tick`/`witness` of `@critsec/transport`), unit counts are integers `1..k`.
 */
import { counterSchema, defineProtocol, type Protocol, timestampSchema } from '@critsec/transport';
import * as v from 'valibot';

const answer = <T extends string>(type: T) =>
  v.object({ type: v.literal(type), seq: counterSchema, ts: timestampSchema });

function schemaFor(k: number) {
  return v.variant('type', [
    v.object({
      type: v.literal('request'),
      h: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(k)),
      c: timestampSchema,
      seq: counterSchema,
    }),
    v.object({
      type: v.literal('OK'),
      seq: counterSchema,
      ts: timestampSchema,
      hs: v.optional(timestampSchema),
    }),
    answer('cancel'),
    answer('cancelled'),
    answer('release'),
    answer('probe'),
    v.object({
      type: v.literal('confirm'),
      seq: counterSchema,
      ts: timestampSchema,
      token: timestampSchema,
      round: counterSchema,
    }),
    v.object({ type: v.literal('confirmed'), seq: counterSchema, ts: timestampSchema, round: counterSchema }),
    answer('expired'),
  ]);
}

/**
 * A message of the algorithm. `p` of the paper is the transport's sender. `seq` names the request
 * a message belongs to (the requester's request count, 0, 1, 2, … — an addition to Fig. 1, which
 * tags nothing).
 */
export type HOutOfKMessage =
  | {
      /** `request(h, p, c)` requester → arbiter: h units with priority `(c, p)`. */
      type: 'request';
      /** Units requested, an integer 1 … k. */
      h: number;
      /** The request's timestamp, also the piggybacked clock (0 … `CLOCK_MAX`). */
      c: number;
      /** The request this is. */
      seq: number;
    }
  | {
      /** `OK` arbiter → requester: the arbiter set aside `h` of its `x` units for request `seq`. */
      type: 'OK';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
      /**
       * With fencing only (issue 28, `fence.ts` F1): the arbiter's highest fencing token seen
       * (0 … `CLOCK_MAX`). Absent on an arbiter built without fencing (the paper's `OK`).
       */
      hs?: number;
    }
  | {
      /** `cancel` arbiter → requester: give the OK for request `seq` back (a higher-priority request no longer leaves room for it within k units). */
      type: 'cancel';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
    }
  | {
      /** `cancelled` requester → arbiter: the OK for request `seq` is given back (sent only while waiting, never InCS). */
      type: 'cancelled';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
    }
  | {
      /** `release` requester → arbiter: request `seq` is over (after the CS, or withdrawn by an abort). */
      type: 'release';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
    }
  | {
      /**
       * `probe` arbiter → requester: is `seq` your current request? Answered with `release` when it
       * is not, and with the `request` again when it is still waited on without this arbiter's
       * `OK`. Not in the paper (issue 27 §3): sent for a request that cannot be honest — a second
       * one while the first is in `Que`, or one naming a request already released — and after a
       * `release` that came before the `OK` (an abort's, or a forged one), so on an honest run
       * only after an abort (README, second and third deviations).
       */
      type: 'probe';
      /** The request asked about. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
    }
  | {
      /**
       * `confirm` requester → arbiter (issue 28, fencing and time-bounded grants; not in the
       * paper): holding every OK of its quorum, the requester proposes `token`; also its renewal
       * every `ttl / 3`, and with `token` 0 a keep-alive of an OK held while waiting (`fence.ts`).
       */
      type: 'confirm';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
      /** The proposed fencing token (0 for a keep-alive), 0 … `CLOCK_MAX`. */
      token: number;
      /** The requester's renewal round (its count of `confirm` rounds), answered by `confirmed`. */
      round: number;
    }
  | {
      /** `confirmed` arbiter → requester: `confirm` of `round` accepted while the OK was current. */
      type: 'confirmed';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
      /** The round accepted. */
      round: number;
    }
  | {
      /**
       * `expired` arbiter → requester (issue 28, time-bounded grants): the OK for request `seq`
       * was not renewed within the ttl; its units are back in `x` and the entry left `Que`.
       */
      type: 'expired';
      /** The request the message belongs to. */
      seq: number;
      /** The sender's Lamport clock (0 … `CLOCK_MAX`). */
      ts: number;
    };

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<ReturnType<typeof schemaFor>>, HOutOfKMessage> = true;
void schemaMatchesType;

const protocols = new Map<number, Protocol<HOutOfKMessage>>();

/**
 * The validated protocol for k units (one per k, shared by every factory with that k, so its
 * `dropped` count covers them all). A message that fails it — unknown type, a missing field, a
 * clock outside `0..CLOCK_MAX`, `h ∉ 1..k` — is dropped, counted and reported as a
 * `ProtocolError` through the object's `error` event.
 * @throws RangeError unless k is an integer ≥ 1.
 */
export function hOutOfKProtocol(k: number): Protocol<HOutOfKMessage> {
  if (!Number.isSafeInteger(k) || k < 1)
    throw new RangeError(`hOutOfKProtocol: k must be an integer ≥ 1, got ${k}`);
  let p = protocols.get(k);
  if (p === undefined) {
    p = defineProtocol(`h-out-of-${k}`, schemaFor(k)) as Protocol<HOutOfKMessage>;
    protocols.set(k, p);
  }
  return p;
}
