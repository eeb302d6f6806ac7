/*
 * MUTIN(l)'s quorum member (Kamei & Kakugawa, IJNC 9(2), 2019, Sec. 4, Algorithm 2): what a
 * process does, as a member of the quorums of R_i, with ⟨Query⟩, ⟨Acquire⟩, ⟨Release⟩ and (not in
 * the paper, issue 27 §3) ⟨Withdraw⟩ — procsInCS_i and responseAgainTo_i. The requester's side
 * (responses and Acks) is `MutinCS` in `mutin.ts`.
 */
import type { ProcessId } from '@critsec/core';
import { reachOf } from '@critsec/core/kit';
import { sorted } from './mutin-durable.js';
import type { MutinProtocolMessage } from './protocol.js';
import type { ResponseAgain } from './response-again.js';
import type { Response2Rule } from './settings.js';

const reach = reachOf(['mutin:unasked-acquire-ignored', 'mutin:response2-sent', 'mutin:withdrawn'] as const);

/** A member's variables, as `MutinCS` holds them. */
export interface MutinMember {
  /** procsInCS_i. */
  readonly procsInCS: Set<ProcessId>;
  /** responseAgainTo_i, one entry per process. */
  readonly responseAgain: ResponseAgain;
  /** See {@link Response2Rule}. */
  readonly response2: Response2Rule;
}

/** The member's messages (Algorithm 2), a handler each (atomic). */
export type MemberMessage = Extract<
  MutinProtocolMessage,
  { type: 'Query' | 'Acquire' | 'Release' | 'Withdraw' }
>;

/** Handles one member message from `from` (a process of R_i: the caller checked the role). */
export function onMemberMessage(
  m: MutinMember,
  from: ProcessId,
  msg: MemberMessage,
  send: (to: ProcessId, msg: MutinProtocolMessage) => void,
): void {
  switch (msg.type) {
    case 'Query':
      // send ⟨Response1, procsInCS_i, reqCnt, P_i⟩ to P_j; remember P_j for a Response2
      send(from, { type: 'Response1', procsInCS: sorted(m.procsInCS), reqCnt: msg.reqCnt });
      m.responseAgain.query(from, msg.reqCnt);
      return;
    case 'Acquire':
      // an Acquire from a process that never asked here does not match: it touches nothing
      if (!m.responseAgain.has(from)) {
        reach('mutin:unasked-acquire-ignored');
        return;
      }
      // procsInCS_i := procsInCS_i \ {P_j}; send ⟨Ack, P_i⟩ to P_j
      m.procsInCS.delete(from);
      send(from, { type: 'Ack' });
      m.responseAgain.acquire(from);
      return;
    case 'Release':
      // procsInCS_i := procsInCS_i ∪ {P_j}; answer the pending Queries again
      m.procsInCS.add(from);
      for (const { to, reqCnt } of m.responseAgain.answer(m.response2 === 'once')) {
        reach('mutin:response2-sent');
        send(to, { type: 'Response2', procsInCS: sorted(m.procsInCS), reqCnt });
      }
      return;
    case 'Withdraw':
      if (m.responseAgain.withdraw(from, msg.reqCnt)) reach('mutin:withdrawn');
      return;
  }
}
