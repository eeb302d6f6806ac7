/*
 * The messages of MUTIN(l) — Kamei & Kakugawa, IJNC 9(2), 2019, Section 4, Algorithms 1–2:
 * ⟨Query, reqCnt⟩, ⟨Response1, procsInCS, reqCnt⟩, ⟨Acquire⟩, ⟨Ack⟩, ⟨Release⟩,
 * ⟨Response2, procsInCS, reqCnt⟩. The sender P_j the paper writes into every message is the
 * transport's `from`.
 */
import { counterSchema, defineProtocol, processIdSchema } from '@critsec/transport';
import * as v from 'valibot';

const procsInCS = v.array(processIdSchema);

/** The valibot schema of MUTIN's message union (discriminated on `type`). */
export const mutinMessages = v.variant('type', [
  v.object({ type: v.literal('Query'), reqCnt: counterSchema }),
  v.object({ type: v.literal('Response1'), procsInCS, reqCnt: counterSchema }),
  v.object({ type: v.literal('Acquire') }),
  v.object({ type: v.literal('Ack') }),
  v.object({ type: v.literal('Release') }),
  v.object({ type: v.literal('Response2'), procsInCS, reqCnt: counterSchema }),
]);

/** One MUTIN message. */
export type MutinProtocolMessage = v.InferOutput<typeof mutinMessages>;

/** MUTIN's protocol: its only way in is `mutinProtocol.listen(endpoint, handler, onInvalid)`. */
export const mutinProtocol = defineProtocol<MutinProtocolMessage>('mutin', mutinMessages);
