/**
 * The sender-role check of Maekawa's dispatch (ARCHITECTURE.md §2: one check per protocol,
 * before anything is touched — the Lamport clock included): an arbiter's answer must come from
 * `Q_i`, a requester's message from `R_i`.
 */
import type { ProcessId } from '@critsec/core';
import type { IdIndex } from './id-index.js';
import type { MaekawaArbiter } from './maekawa-arbiter.js';
import type { MaekawaMessage } from './maekawa-protocol.js';

const TO_REQUESTER = new Set(['LOCKED', 'FAILED', 'INQUIRE', 'PROBE']);

/**
 * Where `msg` from `from` goes (at process `id`, whose quorum `quorum` is indexed by `qIndex`): the sender's index in `Q_i` for a message to the requester, −1
 * for one to the arbiter, or why no honest process could have sent it (a string).
 */
export function routeOf(
  id: ProcessId,
  quorum: readonly ProcessId[],
  qIndex: IdIndex,
  from: ProcessId,
  msg: MaekawaMessage,
  arbiter: MaekawaArbiter,
): number | string {
  if (TO_REQUESTER.has(msg.type)) {
    const x = qIndex.indexOf(from);
    return x === -1 ? `which is not in its quorum Q_${id} = {${quorum.join(', ')}}` : x;
  }
  return arbiter.mayAsk(from) ? -1 : `whose quorum Q_${from} does not contain P${id}`;
}
