/*
 * The sequential workload of `critsec` cluster members: one call in flight in the whole cluster.
 * Member 0 coordinates over the workload's control channel (`ctx.control`): it chooses each move
 * with `chooseMove` of @critsec/testing — at random (seeded) among the moves the problem allows
 * from the current configuration, counted moves first, a finished member's uncounted move only
 * when no counted one is allowed — sends it as `INVOKE`, waits for `INVOKED`, and waits until the
 * network is quiescent before the next: two consecutive waves of (sent, delivered) counts
 * (`COUNT` / `COUNTS`) that agree and balance (Mattern's four-counter method). `FINISH` ends it.
 */
import {
  type CSState,
  checkConfiguration,
  type Message,
  type ProblemSpec,
  type ProcessId,
} from '@critsec/core';
import { chooseMove, type MessageAttribution, type WorkloadEngine } from '@critsec/harness';
import { createRng, type Rng } from '@critsec/transport-sim';
import type { RequestDraw } from '@critsec/core';
import type { ClusterWorkloadContext } from './member-workload-contract.js';

/** What a member of the sequential workload needs. */
export interface SequentialMember {
  readonly ctx: ClusterWorkloadContext;
  /** The member's engine (its calls, counted or not, and their records). */
  readonly engine: WorkloadEngine;
  /** Its message counts (the coordinator's quiescence waves read them). */
  readonly attribution: MessageAttribution;
  readonly seed: number;
  /** The problem the coordinator keeps to (default: any move). */
  readonly spec?: ProblemSpec;
  /** Draws the requests the coordinator sends (default: none, the configuration's). */
  readonly request?: RequestDraw;
}

/**
 * The generator of member `p`'s think and hold times — with `requests`, of its requests (a
 * generator of their own, so think and hold times do not depend on them).
 */
export function memberRng(seed: number, p: ProcessId, requests = false): Rng {
  return createRng(seed * 1_000_003 + p + (requests ? 0x5eed : 0));
}

interface Invocation {
  readonly op: 'entry' | 'exit';
  readonly counted: boolean;
  readonly request: unknown;
}

/** The control messages a member received; `until` re-checks its condition on each. */
class ControlInbox {
  finished = false;
  readonly invocations: Invocation[] = [];
  readonly invoked: ProcessId[] = [];
  readonly counts = new Map<number, { sent: number; delivered: number }[]>();
  #wake: () => void = () => {};

  /** Resolves once `cond()` holds (checked now and after every control message). */
  until(cond: () => boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      if (cond()) return resolve();
      const prev = this.#wake;
      this.#wake = () => {
        prev();
        if (cond()) resolve();
      };
    });
  }

  /** Handles one control message; `COUNT` is answered with this member's `counters`. */
  receive(m: SequentialMember, from: ProcessId, msg: Message): void {
    switch (msg.type) {
      case 'FINISH':
        this.finished = true;
        break;
      case 'INVOKE':
        this.invocations.push({
          op: msg.op === 'exit' ? 'exit' : 'entry',
          counted: msg.counted === true,
          request: msg.req,
        });
        break;
      case 'INVOKED':
        this.invoked.push(from);
        break;
      case 'COUNT':
        m.ctx.control.send(from, {
          type: 'COUNTS',
          seq: msg.seq,
          sent: m.attribution.sent,
          delivered: m.attribution.delivered,
        });
        break;
      case 'COUNTS': {
        const seq = Number(msg.seq);
        const list = this.counts.get(seq) ?? [];
        list.push({ sent: Number(msg.sent), delivered: Number(msg.delivered) });
        this.counts.set(seq, list);
        break;
      }
    }
    this.#wake();
  }
}

/** Waits until the network is quiescent: two consecutive waves of counts that agree and balance. */
function quiescence(m: SequentialMember, inbox: ControlInbox): () => Promise<void> {
  const { control, n } = m.ctx;
  let seq = 0;
  return async () => {
    let previous: string | undefined;
    for (;;) {
      seq++;
      const mine = seq;
      for (const p of control.peers) control.send(p, { type: 'COUNT', seq: mine });
      await inbox.until(() => (inbox.counts.get(mine)?.length ?? 0) === n);
      const list = inbox.counts.get(mine)!;
      inbox.counts.delete(mine);
      const sent = list.reduce((a, c) => a + c.sent, 0);
      const delivered = list.reduce((a, c) => a + c.delivered, 0);
      const wave = `${sent}/${delivered}`;
      if (sent === delivered && wave === previous) return;
      previous = wave;
    }
  };
}

/** Member 0's part: chooses, sends and awaits every move, then tells every member `FINISH`. */
async function coordinate(m: SequentialMember, inbox: ControlInbox): Promise<void> {
  const { ctx, engine, spec, request } = m;
  const { n, control } = ctx;
  const states: CSState[] = [...ctx.initial];
  const requests: unknown[] = new Array(n).fill(undefined);
  const requestRngs = Array.from({ length: n }, (_, i) => memberRng(m.seed, i, true));
  const calls = new Array<number>(n).fill(0);
  const allowed = (i: ProcessId, op: 'entry' | 'exit', req: unknown) => {
    if (spec === undefined) return true;
    const next = [...states];
    next[i] = op === 'entry' ? 'InCS' : 'OutCS';
    const nextRequests = [...requests];
    nextRequests[i] = req;
    return checkConfiguration(spec, next, nextRequests) === null;
  };
  const source = {
    ids: Array.from({ length: n }, (_, i) => i),
    counted: (i: ProcessId) => calls[i]! < engine.expected,
    rng: createRng(m.seed),
    nextOp: (i: ProcessId) => (states[i] === 'OutCS' ? ('entry' as const) : ('exit' as const)),
    drawRequest: (i: ProcessId) => request?.(requestRngs[i]!, i, Math.floor(calls[i]! / 2) + 1),
    allowed,
  };
  const quiescent = quiescence(m, inbox);
  let extraRun = 0;
  await quiescent();
  while (calls.some((c) => c < engine.expected)) {
    const chosen = chooseMove(source);
    extraRun = chosen !== undefined && !chosen.counted ? extraRun + 1 : 0;
    if (chosen === undefined || extraRun > 4 * n) {
      throw new Error(
        'sequential workload: no remaining move is allowed by the problem from this configuration',
      );
    }
    const before = inbox.invoked.length;
    control.send(chosen.process, {
      type: 'INVOKE',
      op: chosen.op,
      counted: chosen.counted,
      ...(chosen.request === undefined ? {} : { req: chosen.request }),
    });
    await inbox.until(() => inbox.invoked.length > before);
    states[chosen.process] = chosen.op === 'entry' ? 'InCS' : 'OutCS';
    requests[chosen.process] = chosen.request;
    if (chosen.counted) calls[chosen.process]!++;
    await quiescent();
  }
  for (const p of control.peers) control.send(p, { type: 'FINISH' });
}

/**
 * Runs one member of the sequential workload: member 0 also coordinates; every member makes
 * the calls it is asked for, through its engine, and answers `INVOKED`, until `FINISH`.
 * @throws Error when the coordinator finds no allowed move, a member is asked for a call its
 *   state does not allow, or a call rejects (its error).
 */
export async function runSequentialMember(m: SequentialMember): Promise<void> {
  const { ctx, engine } = m;
  const inbox = new ControlInbox();
  ctx.control.onMessage((from, msg) => inbox.receive(m, from, msg));
  if (engine.expected === 0) void ctx.finish();
  const coordinating = ctx.id === 0 ? coordinate(m, inbox) : Promise.resolve();
  const self = engine.processes[0]!;
  for (;;) {
    await inbox.until(() => inbox.invocations.length > 0 || inbox.finished);
    const next = inbox.invocations.shift();
    if (next === undefined) break;
    const expectedOp = ctx.cs.state === 'OutCS' ? 'entry' : 'exit';
    if (next.op !== expectedOp)
      throw new Error(`P${ctx.id} was asked for ${next.op}() while ${ctx.cs.state}`);
    const { rec, call } = engine.begin(self, next.op, next.request, undefined);
    await call;
    engine.complete(rec);
    ctx.control.send(0, { type: 'INVOKED' });
  }
  await coordinating;
}
