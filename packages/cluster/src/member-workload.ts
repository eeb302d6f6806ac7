/*
 * The workload of a `critsec` cluster member (`critsec node`, and the members `critsec cluster`
 * spawns), as a workload of @critsec/transport-tcp's `runClusterNode`: every call goes through
 * `ctx.entry` / `ctx.exit`, which append the shared-log records of the launcher's safety check.
 *
 * `concurrent` (the default): the concurrent workload of `critsec simulate` in wall-clock time —
 * `rounds` counted rounds of entry and exit (from the member's initial state) with think (OutCS)
 * and hold (InCS) times drawn uniformly from [0, 2·mean] ms, seeded. A member that has finished
 * its rounds keeps cycling, uncounted, until every member has (`ctx.allFinished`), so that it
 * never blocks the others by staying InCS (mutual exclusion) or OutCS (mutual inclusion); then it
 * withdraws its uncounted call in flight through the abort signal.
 *
 * `sequential`: member 0 coordinates over `ctx.control`: one call in flight in the whole cluster,
 * each chosen among the moves the problem allows from the current state (and requests), the network quiescent before the
 * next (see `coordinate`) — the papers' uncontended setting, over TCP. It needs the message
 * counts of `instrument`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ConfigurationError,
  type CSFactory,
  type CSState,
  checkConfiguration,
  isAbortError,
  type ProblemSpec,
  type ProcessId,
} from '@critsec/core';
import { createRng, type Rng } from '@critsec/transport-sim';
import { countingEndpoint, messageStats } from './counting-endpoint.js';
import type { ClusterWorkload } from './workload.js';

/** What `critsec` adds to a member's report (`ClusterNodeReport` of @critsec/transport-tcp). */
export interface NodeMeasurements {
  /** Counted entries / exits completed. */
  readonly entries: number;
  readonly exits: number;
  /** Wall-clock waiting times of counted calls, ms. */
  readonly entryWaitsMs: readonly number[];
  readonly exitWaitsMs: readonly number[];
  /** Messages this member's CS object sent (self-messages included) and received. */
  readonly sent: number;
  readonly delivered: number;
  /** Sent per `channel TYPE`. */
  readonly byType: Readonly<Record<string, number>>;
  /** Sent per invocation key `"<process>:<round>:<entry|exit>"` (counted calls of any member). */
  readonly byInvocation: Readonly<Record<string, number>>;
  /** Uncounted calls made after this member's rounds, and whether the last was withdrawn. */
  readonly extraCalls: number;
  readonly withdrawn: boolean;
}

/** Settings of {@link memberWorkload}. */
export interface MemberWorkloadOptions {
  /** Seed of the think and hold times and of the sequential coordinator's choices (default 1). */
  readonly seed?: number;
  /** `concurrent` (default) or `sequential` (member 0 coordinates one call at a time). */
  readonly workload?: 'concurrent' | 'sequential';
  /** The problem the sequential coordinator keeps to (default: any move). */
  readonly spec?: ProblemSpec;
  /**
   * Draws each entry's request (h units, a group) from the member's seeded generator, for
   * objects that take one (default: the configuration's fixed `workload.request`). The
   * sequential coordinator draws them for every member and sends them with its `INVOKE`.
   */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => unknown;
}

/** One member's workload and its measurements. */
export interface MemberWorkload {
  /** The workload to hand to `runClusterNode` (runs once). */
  readonly run: ClusterWorkload;
  /**
   * Wraps the CS object's factory so its messages are counted and attributed to the invocation
   * that caused them (`countingEndpoint`); every member of the cluster must do the same.
   */
  instrument<Req>(factory: CSFactory<Req>): CSFactory<Req>;
  /** The measurements so far (final once `run` and the member have finished). */
  measurements(): NodeMeasurements;
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * The workload of one `critsec` member (see the module comment).
 * @throws ConfigurationError (from `run`) for the sequential workload without `instrument`.
 */
export function memberWorkload(options: MemberWorkloadOptions = {}): MemberWorkload {
  const seed = options.seed ?? 1;
  const mode = options.workload ?? 'concurrent';
  const als = new AsyncLocalStorage<string | null>();
  const stats = messageStats();
  let instrumented = false;
  const entryWaits: number[] = [];
  const exitWaits: number[] = [];
  let extra = 0;
  let withdrawn = false;

  const run: ClusterWorkload = async (ctx) => {
    if (mode === 'sequential' && !instrumented) {
      throw new ConfigurationError(
        'the sequential workload needs the message counts of the critsec member (critsec node / critsec cluster)',
      );
    }
    const { id, n, control } = ctx;
    const { rounds, thinkMs = 2, holdMs = 1 } = ctx.workload;
    const rng = createRng(seed * 1_000_003 + id);
    const draw = (mean: number) => (mean <= 0 ? 0 : rng.next() * 2 * mean);
    // requests come from generators of their own, so think and hold times stay as they were
    const requestRng = (p: ProcessId) => createRng(seed * 1_000_003 + p + 0x5eed);
    const ownRequests = requestRng(id);
    const drawRequest = options.request;
    const expected = 2 * rounds;
    let done = 0;
    let allFinished = false;
    let stopping: AbortController | undefined;
    const stopExtra = ctx.allFinished.then(() => {
      allFinished = true;
      stopping?.abort('every member finished its rounds');
    });
    if (expected === 0) void ctx.finish();

    /**
     * One logged call. Counted calls carry the attribution key of their round; an uncounted call
     * can be withdrawn through `stopping` (returns false then).
     */
    const call = async (op: 'entry' | 'exit', counted: boolean, request?: unknown): Promise<boolean> => {
      const round = Math.floor(done / 2) + 1;
      const key = counted ? `${id}:${round}:${op}` : null;
      const ac = counted ? undefined : new AbortController();
      stopping = ac;
      const req =
        op !== 'entry' ? undefined : request !== undefined ? request : drawRequest?.(ownRequests, id, round);
      let waited: number;
      try {
        const opts = {
          ...(ac ? { signal: ac.signal, counted: false } : {}),
          ...(req === undefined ? {} : { request: req }),
        };
        waited = await als.run(key, () => (op === 'entry' ? ctx.entry(round, opts) : ctx.exit(round, opts)));
      } catch (err) {
        if (ac?.signal.aborted && isAbortError(err)) {
          // an uncounted call withdrawn: the state is unchanged (CS object contract)
          withdrawn = true;
          return false;
        }
        throw err;
      } finally {
        stopping = undefined;
      }
      if (counted) {
        (op === 'entry' ? entryWaits : exitWaits).push(waited);
        done++;
        if (done === expected) void ctx.finish();
      } else extra++;
      return true;
    };

    // The control messages of the sequential workload; `until` re-checks on each.
    let finished = false;
    let wake: () => void = () => {};
    const invocations: { op: 'entry' | 'exit'; counted: boolean; request: unknown }[] = [];
    const invoked: number[] = [];
    const counts = new Map<number, { sent: number; delivered: number }[]>();
    const until = (cond: () => boolean) =>
      new Promise<void>((resolve) => {
        if (cond()) return resolve();
        const prev = wake;
        wake = () => {
          prev();
          if (cond()) resolve();
        };
      });

    /**
     * The sequential workload's coordinator (member 0): one call in flight in the whole cluster,
     * chosen at random (seeded) among the moves the global (l,k) state allows — counted moves
     * first, a finished member's uncounted move only when no counted one is allowed — and the
     * network quiescent before the next: two consecutive waves of (sent, delivered) counts that
     * agree and balance (Mattern's four-counter method).
     */
    async function coordinate(): Promise<void> {
      const states: CSState[] = [...ctx.initial];
      const requests: unknown[] = new Array(n).fill(undefined);
      const requestRngs = Array.from({ length: n }, (_, i) => requestRng(i));
      const allowed = (i: ProcessId, op: 'entry' | 'exit', req: unknown) => {
        if (options.spec === undefined) return true;
        const next = [...states];
        next[i] = op === 'entry' ? 'InCS' : 'OutCS';
        const nextRequests = [...requests];
        nextRequests[i] = req;
        return checkConfiguration(options.spec, next, nextRequests) === null;
      };
      const calls = new Array<number>(n).fill(0);
      const pick = createRng(seed);
      let seq = 0;
      let extraRun = 0;
      const quiescent = async () => {
        let previous: string | undefined;
        for (;;) {
          seq++;
          const mine = seq;
          for (const p of control.peers) control.send(p, { type: 'COUNT', seq: mine });
          await until(() => (counts.get(mine)?.length ?? 0) === n);
          const list = counts.get(mine)!;
          counts.delete(mine);
          const sent = list.reduce((a, c) => a + c.sent, 0);
          const delivered = list.reduce((a, c) => a + c.delivered, 0);
          const wave = `${sent}/${delivered}`;
          if (sent === delivered && wave === previous) return;
          previous = wave;
        }
      };
      await quiescent();
      while (calls.some((c) => c < expected)) {
        let chosen: { i: ProcessId; op: 'entry' | 'exit'; counted: boolean; request: unknown } | undefined;
        for (const counted of [true, false]) {
          const candidates: ProcessId[] = [];
          for (let i = 0; i < n; i++) if (calls[i]! < expected === counted) candidates.push(i);
          while (candidates.length > 0 && chosen === undefined) {
            const t = pick.int(candidates.length);
            const i = candidates[t]!;
            const op = states[i] === 'OutCS' ? 'entry' : 'exit';
            const round = Math.floor(calls[i]! / 2) + 1;
            const request = op === 'entry' ? drawRequest?.(requestRngs[i]!, i, round) : undefined;
            if (allowed(i, op, request)) chosen = { i, op, counted, request };
            else {
              candidates[t] = candidates[candidates.length - 1]!;
              candidates.pop();
            }
          }
          if (chosen !== undefined) break;
        }
        extraRun = chosen !== undefined && !chosen.counted ? extraRun + 1 : 0;
        if (chosen === undefined || extraRun > 4 * n) {
          throw new Error(
            'sequential workload: no remaining move is allowed by the problem from this configuration',
          );
        }
        const before = invoked.length;
        control.send(chosen.i, {
          type: 'INVOKE',
          op: chosen.op,
          counted: chosen.counted,
          ...(chosen.request === undefined ? {} : { req: chosen.request }),
        });
        await until(() => invoked.length > before);
        states[chosen.i] = chosen.op === 'entry' ? 'InCS' : 'OutCS';
        requests[chosen.i] = chosen.request;
        if (chosen.counted) calls[chosen.i]!++;
        await quiescent();
      }
      for (const p of control.peers) control.send(p, { type: 'FINISH' });
    }

    if (mode === 'sequential') {
      control.onMessage((from, msg) => {
        switch (msg.type) {
          case 'FINISH':
            finished = true;
            break;
          case 'INVOKE':
            invocations.push({
              op: msg.op === 'exit' ? 'exit' : 'entry',
              counted: msg.counted === true,
              request: msg.req,
            });
            break;
          case 'INVOKED':
            invoked.push(from);
            break;
          case 'COUNT':
            control.send(from, {
              type: 'COUNTS',
              seq: msg.seq,
              sent: stats.sent,
              delivered: stats.delivered,
            });
            break;
          case 'COUNTS': {
            const seq = Number(msg.seq);
            const list = counts.get(seq) ?? [];
            list.push({ sent: Number(msg.sent), delivered: Number(msg.delivered) });
            counts.set(seq, list);
            break;
          }
        }
        wake();
      });
      // Member 0 coordinates (see `coordinate`); every member makes the calls it is asked for.
      const coordinating = id === 0 ? coordinate() : Promise.resolve();
      for (;;) {
        await until(() => invocations.length > 0 || finished);
        const next = invocations.shift();
        if (next === undefined) break;
        const expectedOp = ctx.cs.state === 'OutCS' ? 'entry' : 'exit';
        if (next.op !== expectedOp)
          throw new Error(`P${id} was asked for ${next.op}() while ${ctx.cs.state}`);
        await call(next.op, next.counted, next.request);
        control.send(0, { type: 'INVOKED' });
      }
      await coordinating;
    } else {
      while (!allFinished) {
        const op = ctx.cs.state === 'OutCS' ? 'entry' : 'exit';
        await sleep(draw(op === 'entry' ? thinkMs : holdMs));
        if (allFinished) break;
        if (!(await call(op, done < expected))) break;
      }
    }
    await stopExtra;
    return rounds;
  };

  return {
    run,
    instrument(factory) {
      instrumented = true;
      return (ctx) => factory({ ...ctx, endpoint: countingEndpoint(ctx.endpoint, als, stats) });
    },
    measurements: () => ({
      entries: entryWaits.length,
      exits: exitWaits.length,
      entryWaitsMs: entryWaits,
      exitWaitsMs: exitWaits,
      sent: stats.sent,
      delivered: stats.delivered,
      byType: Object.fromEntries(stats.byType),
      byInvocation: Object.fromEntries(stats.byInvocation),
      extraCalls: extra,
      withdrawn,
    }),
  };
}
