/**
 * Whom a Maekawa_M process takes each message from — the sender check that runs before anything
 * else, the clock included (`maekawa-m.ts`'s dispatch; README "Validation"). Under quorum
 * reselection the plan passed is the widened one (S4 of `reselect.ts`).
 */
import type { ProcessId } from '@critsec/core';
import type { QuorumPlan } from './plan.js';
import type { MaekawaMMessage } from './protocol-m.js';

/**
 * Why `from` may not send `msg` to process `me` at all, or `undefined` if it may. An honest
 * process never sends such a message; stale messages of a legitimate sender pass (they are
 * judged by their handlers, and count for the clock). The rule per type:
 * - REQUEST(g) (E.1): g is a group and `me` is in the quorum `from` uses for g;
 * - UNLOCK (F.1): `me` is in some quorum `from` uses (its current Q, an earlier request's
 *   Q of any group, or a lock it hands back);
 * - LOCKED, INQUIRE, PROBE (C.1, B.1, issue 27 §3): for the current request `req`, `from` is in
 *   its quorum `Q`; for any other, `from` is in some quorum `me` uses — a stale LOCKED or INQUIRE
 *   of an earlier request, of another group, must still reach C.1/B.1 (handed back or ignored:
 *   liveness needs it);
 * - FENCE_LOCKED, CONFIRMED, EXPIRED as LOCKED, CONFIRM as UNLOCK — and none of the four while
 *   fencing is off (`fenced` false).
 */
export function outOfRole(
  me: ProcessId,
  plan: QuorumPlan,
  fenced: boolean,
  req: number,
  Q: readonly ProcessId[],
  from: ProcessId,
  msg: MaekawaMMessage,
): string | undefined {
  const t = msg.type;
  if (!fenced && (t === 'FENCE_LOCKED' || t === 'CONFIRM' || t === 'CONFIRMED' || t === 'EXPIRED'))
    return `${t} from P${from}, but fencing is off`;
  switch (msg.type) {
    case 'REQUEST':
      return msg.g < plan.m && plan.contains(me, from, msg.g)
        ? undefined
        : `REQUEST(group ${msg.g}) from P${from}, but P${me} is not in the quorum P${from} uses for that group`;
    case 'UNLOCK':
    case 'CONFIRM':
      return plan.inSomeQuorum(me, from)
        ? undefined
        : `${msg.type} from P${from}, but P${me} is in none of the quorums P${from} uses`;
    default:
      if (msg.req === req) {
        return Q.includes(from) ? undefined : `${msg.type} from P${from}, which is not in its quorum`;
      }
      return plan.inSomeQuorum(from, me)
        ? undefined
        : `${msg.type} from P${from}, which is in none of its quorums`;
  }
}
