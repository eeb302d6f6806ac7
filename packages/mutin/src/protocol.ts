/*
 * The messages of MUTIN(l) — Kamei & Kakugawa, IJNC 9(2), 2019, Section 4, Algorithms 1–2:
 * ⟨Query, reqCnt⟩, ⟨Response1, procsInCS, reqCnt⟩, ⟨Acquire⟩, ⟨Ack⟩, ⟨Release⟩,
 * ⟨Response2, procsInCS, reqCnt⟩. The sender P_j the paper writes into every message is the
 * transport's `from`. ⟨Withdraw, reqCnt⟩ is not in the paper (issue 27 §3, `response-again.ts`).
 */
import {
  counterSchema,
  defineProtocol,
  type MessageSchema,
  type Protocol,
  processIdSchema,
} from '@critsec/transport';
import * as v from 'valibot';

const procsInCS = v.array(processIdSchema);

const schema = v.variant('type', [
  v.object({ type: v.literal('Query'), reqCnt: counterSchema }),
  v.object({ type: v.literal('Response1'), procsInCS, reqCnt: counterSchema }),
  v.object({ type: v.literal('Acquire') }),
  v.object({ type: v.literal('Ack') }),
  v.object({ type: v.literal('Release') }),
  v.object({ type: v.literal('Response2'), procsInCS, reqCnt: counterSchema }),
  v.object({ type: v.literal('Withdraw'), reqCnt: counterSchema }),
]);

/**
 * One MUTIN message (Algorithms 1–2). `reqCnt` is the requester's request counter, echoed by the
 * responses so that a stale response is recognised; `procsInCS` is the responder's view of the
 * processes InCS.
 */
export type MutinProtocolMessage =
  | {
      /** ⟨Query, reqCnt⟩: asks the quorum which processes are InCS (Exit()). */
      type: 'Query';
      /** The requester's request counter. */
      reqCnt: number;
    }
  | {
      /** ⟨Response1, procsInCS, reqCnt⟩: the answer to a Query. */
      type: 'Response1';
      /** The processes the responder knows to be InCS. */
      procsInCS: number[];
      /** The Query's request counter, echoed. */
      reqCnt: number;
    }
  | {
      /** ⟨Acquire⟩: the sender is leaving the CS; each quorum member drops it from procsInCS and answers Ack (Exit()). */
      type: 'Acquire';
    }
  | {
      /** ⟨Ack⟩: acknowledges an Acquire. */
      type: 'Ack';
    }
  | {
      /** ⟨Release⟩: the sender has entered the CS; each quorum member adds it to procsInCS (Entry()). */
      type: 'Release';
    }
  | {
      /** ⟨Response2, procsInCS, reqCnt⟩: sent at a Release to the leaver waiting for more processes InCS (responseAgainTo). */
      type: 'Response2';
      /** The processes the responder knows to be InCS. */
      procsInCS: number[];
      /** The Query's request counter, echoed. */
      reqCnt: number;
    }
  | {
      /**
       * ⟨Withdraw, reqCnt⟩ (not in the paper, issue 27 §3): the requester's answer to a response
       * for a Query it never made (a reqCnt above its own) — the quorum member forgets the entry
       * that Query left in its responseAgainTo, if it still names it.
       */
      type: 'Withdraw';
      /** The reqCnt of the response being answered. */
      reqCnt: number;
    };

/** Holds when the schema's output and the documented type are the same type (checked by `tsc`). */
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesType: SameType<v.InferOutput<typeof schema>, MutinProtocolMessage> = true;
void schemaMatchesType;

/** The valibot schema of MUTIN's message union (discriminated on `type`). */
export const mutinMessages: MessageSchema<MutinProtocolMessage> = schema;

/** MUTIN's protocol: its only way in is `mutinProtocol.listen(endpoint, handler, onInvalid)`. */
export const mutinProtocol: Protocol<MutinProtocolMessage> = defineProtocol('mutin', schema);
