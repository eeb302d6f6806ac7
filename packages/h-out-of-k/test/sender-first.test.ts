/**
 * The sender is checked before the clock (README, "Errors"; `SenderRoles.refusal` in `src/roles.ts`): a
 * message that no honest process sends this one — a `request` from outside the reporters for its h
 * or a second one while the first is in `Que`, a `release`/`cancelled` from a process none of whose
 * quorums contains the arbiter, an `OK`/`cancel` of the current request from outside `Q` or of
 * another request from outside every quorum of the requester — is a `ProtocolError` with `{ from }`,
 * and leaves the receiver exactly as it was: the whole `inspect()`, the clock `c` included, even
 * with a forged `c`/`ts` = `CLOCK_MAX`; nothing is sent, and the next request carries a small `c`.
 * A stale message from a legitimate sender still counts for the clock (Sec. 4.1). Controlled mode;
 * uniform (h,k)-arbiter n = 4, k = 2: quorums (every h) P0 {0, 1, 2}, P1 {1, 2, 3}, P2 {0, 2, 3},
 * P3 {0, 1, 3} — P1 never asks P0, P0 is in none of P1's quorums.
 */
import { hOutOfKSpec, type ProcessId, ProtocolError } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { createCluster, type SimCluster } from '@critsec/harness';
import { deliver, deliverAll, queuedList } from '@critsec/testing';
import { CLOCK_MAX } from '@critsec/transport';
import { describe, expect, it } from 'vitest';
import { type HOutOfKMessage, hOutOfK } from '../src/index.js';
import { cycle, fixedCluster, inspectH } from './helpers.js';

const n = 4;
const k = 2;

function uniformCluster(): SimCluster<number> {
  return createCluster({
    factory: hOutOfK({ k, arbiter: uniformHKArbiter(n, k) }),
    spec: hOutOfKSpec(k, n),
    mode: 'controlled',
  });
}

/** Delivers `msg` forged by P`from` to P`to`; it is reported with `message` and changes nothing at P`to`. */
async function expectRefused(
  c: SimCluster<number>,
  from: ProcessId,
  to: ProcessId,
  msg: HOutOfKMessage,
  message: string,
): Promise<void> {
  const before = inspectH(c, to);
  const queued = queuedList(c.net);
  const errors = c.errors.length;
  c.net.endpoint(from).send(to, msg);
  await deliver(c.net, from, to, msg.type);
  expect(inspectH(c, to)).toEqual(before); // c, requester and arbiter
  expect(queuedList(c.net)).toEqual(queued); // nothing sent in answer
  expect(
    c.errors
      .slice(errors)
      .map(({ process, error }) => [process, error instanceof ProtocolError, error.message]),
  ).toEqual([[to, true, message]]);
  expect((c.errors.at(-1)!.error as ProtocolError).from).toBe(from);
}

/** The `c` of the request P`from` has queued to P`to`. */
function queuedRequestClock(c: SimCluster<number>, from: ProcessId, to: ProcessId): number {
  const e = c.net
    .pending()
    .find((p) => p.kind === 'message' && p.from === from && p.to === to && p.msg.type === 'request');
  if (e === undefined || e.kind !== 'message') throw new Error(`no request ${from}→${to} pending`);
  return (e.msg as Extract<HOutOfKMessage, { type: 'request' }>).c;
}

describe('the sender is checked before the clock witnesses a message', () => {
  it('arbiter P0: request, release and cancelled from P1 (which never asks P0) at CLOCK_MAX leave it unchanged', async () => {
    const c = uniformCluster();
    await expectRefused(
      c,
      1,
      0,
      { type: 'request', h: 1, c: CLOCK_MAX, seq: 0 },
      'hOutOfK: P0 got request(h = 1) from P1, whose quorum for 1 units does not contain P0',
    );
    await expectRefused(
      c,
      1,
      0,
      { type: 'release', seq: 0, ts: CLOCK_MAX },
      'hOutOfK: P0 got release from P1, none of whose quorums (h = 1..2) contains P0',
    );
    await expectRefused(
      c,
      1,
      0,
      { type: 'cancelled', seq: 0, ts: CLOCK_MAX },
      'hOutOfK: P0 got cancelled from P1, none of whose quorums (h = 1..2) contains P0',
    );
    expect(inspectH(c, 0).c).toBe(0);
    c.monitor.setRequest(0, 1);
    const e = c.objects[0]!.entry(1);
    await c.net.settle();
    expect(queuedRequestClock(c, 0, 1)).toBe(1); // not CLOCK_MAX
    await deliverAll(c.net);
    await e;
    await c.objects[0]!.exit();
    await deliverAll(c.net);
    expect(c.firstViolation).toBeNull();
  });

  it('requester P1: OK and cancel from P0 (in none of its quorums), of its current request and of another, leave it unchanged', async () => {
    const c = uniformCluster();
    c.monitor.setRequest(1, 1);
    const e = c.objects[1]!.entry(1); // c = 1, seq 0, Q = {1, 2, 3}
    await c.net.settle();
    for (const type of ['OK', 'cancel'] as const) {
      await expectRefused(
        c,
        0,
        1,
        { type, seq: 0, ts: CLOCK_MAX },
        `hOutOfK: P1 got ${type} from P0, which is not in its quorum Q = {1, 2, 3}`,
      );
      await expectRefused(
        c,
        0,
        1,
        { type, seq: 7, ts: CLOCK_MAX },
        `hOutOfK: P1 got ${type} from P0, which is in none of its quorums (h = 1..2)`,
      );
    }
    expect(inspectH(c, 1).c).toBe(1);
    await deliverAll(c.net);
    await e;
    // InCS, an answer of the current request from outside Q is refused as well
    await expectRefused(
      c,
      0,
      1,
      { type: 'cancel', seq: 0, ts: CLOCK_MAX },
      'hOutOfK: P1 got cancel from P0, which is not in its quorum Q = {1, 2, 3}',
    );
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    const small = inspectH(c, 1).c;
    expect(small).toBeLessThan(10);
    c.monitor.setRequest(1, 2);
    const e2 = c.objects[1]!.entry(2);
    await c.net.settle();
    expect(queuedRequestClock(c, 1, 2)).toBe(small + 1); // not CLOCK_MAX
    await deliverAll(c.net);
    await e2;
    await c.objects[1]!.exit();
    await deliverAll(c.net);
    expect(c.firstViolation).toBeNull();
  });

  it('a second request at CLOCK_MAX while the first is in Que is set aside, then dropped at its release; its clock counts (issue 27 §3)', async () => {
    const c = fixedCluster(n, k, [0]);
    const p1 = cycle(c, 1, 1);
    await c.net.settle();
    await deliver(c.net, 1, 0, 'request');
    c.net.endpoint(1).send(0, { type: 'request', h: 1, c: CLOCK_MAX, seq: 5 });
    await deliver(c.net, 1, 0, 'request');
    expect(c.errors).toEqual([]); // a legitimate sender: no longer refused, so the clock witnesses it
    expect(inspectH(c, 0).c).toBe(CLOCK_MAX);
    expect(inspectH(c, 0).arbiter.aside).toEqual([[1, 5]]);
    await deliverAll(c.net); // P1 ignores probe(0) (its current request), then enters and releases
    await p1;
    expect(inspectH(c, 0).arbiter).toEqual({ x: k, Que: [] }); // seq 5 was dropped, not admitted
  });

  it('stale messages and requests from legitimate senders still count for the clock (Sec. 4.1)', async () => {
    const c = fixedCluster(n, k, [0]);
    c.net.endpoint(0).send(2, { type: 'OK', seq: 0, ts: 100 }); // P0 is P2's arbiter; seq 0: not yet made
    await deliver(c.net, 0, 2, 'OK');
    expect(inspectH(c, 2).c).toBe(101);
    await deliver(c.net, 2, 0, 'release'); // P2 gives back the OK of a request it never made
    c.net.endpoint(3).send(0, { type: 'release', seq: 4, ts: 200 }); // P3 asks P0; nothing in Que: stale
    await deliver(c.net, 3, 0, 'release');
    expect(inspectH(c, 0).c).toBe(201);
    c.net.endpoint(2).send(0, { type: 'request', h: 1, c: 300, seq: 0 }); // the request's c is witnessed
    await deliver(c.net, 2, 0, 'request');
    expect(inspectH(c, 0).c).toBe(301);
    expect(c.errors).toEqual([]);
  });
});
