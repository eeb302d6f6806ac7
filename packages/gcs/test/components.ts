/**
 * How the explorer (dpor.ts) splits one process of each stack into components, and which
 * component each message is addressed to. A MUTIN object is two roles with disjoint variables:
 * the leaver (`req`: state, pending, phase, reqCnt, currentInCS, ackFrom — read and written by
 * Exit()/Entry() and the Response1, Response2 and Ack handlers) and the quorum member (`resp`:
 * procsInCS, responseAgainTo, respAgainReqCnt — the Query, Acquire and Release handlers); its
 * mx is a third component. No handler reads the other role's variables.
 */
import type { CSObject, Message } from '@critsec/core';

type MutinSnapshot = Record<string, unknown> & {
  state: unknown;
  pending: unknown;
  phase: unknown;
  reqCnt: unknown;
  currentInCS: unknown;
  ackFrom: unknown;
  procsInCS: unknown;
  responseAgainTo: unknown;
  respAgainReqCnt: unknown;
  mx: unknown;
};

function roles(prefix: string, s: MutinSnapshot): Record<string, unknown> {
  return {
    [`${prefix}req`]: [s.state, s.pending, s.phase, s.reqCnt, s.currentInCS, s.ackFrom],
    [`${prefix}resp`]: [s.procsInCS, s.responseAgainTo, s.respAgainReqCnt],
    [`${prefix}mx`]: s.mx,
  };
}

const LEAVER = new Set(['Response1', 'Response2', 'Ack']);

function mutinRole(prefix: string, msg: Message): string {
  return `${prefix}${LEAVER.has(msg.type) ? 'req' : 'resp'}`;
}

/** (l,k)-GCS: the composite G; lmin (a.*) and kmex (b.*, the MUTIN inside the complement). */
export function gcsComponents(o: CSObject): Record<string, unknown> {
  const s = (
    o as unknown as {
      inspect(): {
        state: unknown;
        pending: unknown;
        phase: unknown;
        a: MutinSnapshot;
        b: { inner: MutinSnapshot };
      };
    }
  ).inspect();
  return { G: [s.state, s.pending, s.phase], ...roles('a.', s.a), ...roles('b.', s.b.inner) };
}

/** Messages of the (l,k)-GCS stack. */
export function gcsMessage(channel: string, msg: Message): string {
  switch (channel) {
    case 'lmin':
      return mutinRole('a.', msg);
    case 'kmex':
      return mutinRole('b.', msg);
    case 'lmin/mx':
      return 'a.mx';
    case 'kmex/mx':
      return 'b.mx';
    default:
      return 'G';
  }
}

/** MUTIN alone: its two roles and its mx. */
export function mutinComponents(o: CSObject): Record<string, unknown> {
  return roles('', (o as unknown as { inspect(): MutinSnapshot }).inspect());
}

/** Messages of MUTIN alone: '' (its own) and 'mx'. */
export function mutinMessage(channel: string, msg: Message): string {
  return channel === 'mx' ? 'mx' : mutinRole('', msg);
}
