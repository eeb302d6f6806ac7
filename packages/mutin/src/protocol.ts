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
import type { ProcessId } from '@critsec/core';
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

/**
 * The sender's role check of MUTIN's dispatch (ARCHITECTURE.md §2): why `msg` cannot have come
 * from a correct peer of process `id` — Query, Acquire, Release and Withdraw come from R_i,
 * responses and Acks from Q_i, and a response names processes of 0..n−1 only — or null.
 */
export function senderRoleError(
  id: ProcessId,
  n: number,
  roles: { readonly inQ: ReadonlySet<ProcessId>; readonly inR: ReadonlySet<ProcessId> },
  from: ProcessId,
  msg: MutinProtocolMessage,
): string | null {
  switch (msg.type) {
    case 'Query':
    case 'Acquire':
    case 'Release':
    case 'Withdraw':
      return roles.inR.has(from) ? null : `${msg.type} from P${from}, which is not in R_${id}`;
    case 'Ack':
      return roles.inQ.has(from) ? null : `Ack from P${from}, which is not in Q_${id}`;
    case 'Response1':
    case 'Response2': {
      if (!roles.inQ.has(from)) return `${msg.type} from P${from}, which is not in Q_${id}`;
      const bad = msg.procsInCS.find((p) => p >= n);
      return bad === undefined ? null : `${msg.type} from P${from} names process ${bad} (n = ${n})`;
    }
  }
}
