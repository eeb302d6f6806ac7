/*
 * The member side of a chaos run (`runChaos`, launcher-chaos.ts): a module the default member
 * main loads as both the configuration's `algorithm` and its `workload.module`.
 *
 * - `createFactory(params, { n, initial })`: `params` is `{ algorithm, params }` — a critsec
 *   algorithm by descriptor name and its parameters — resolved by `resolveCluster` with the
 *   configuration's initial states.
 * - `runWorkload(ctx)`: entry, one read-modify-write of a shared counter (launcher-chaos-rmw.ts:
 *   read, hold, write), exit, think — again and again, until the runner's stop file appears; then the member
 *   finishes (`ctx.finish()`) and keeps cycling, uncounted, until every member has (so a finished
 *   member never blocks an (l,k)-CS with l ≥ 1), and withdraws its call in flight.
 *   Think and hold times are drawn uniformly from [0, 2·mean] ms with the member's seeded
 *   generator. When the CS object gives a tenure (`hasTenure`, issue 28), each entry logs it
 *   (`tenure`: its fencing token; `tenure-late` when it had expired by then), the read and the
 *   write carry its token, and a holder whose tenure expired before its exit logs
 *   `tenure-expired` — what chaos-fencing.ts counts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigurationError,
  type CSFactory,
  type CSState,
  createRng,
  hasTenure,
  isAbortError,
  type Tenure,
} from '@critsec/core';
import * as v from 'valibot';
import { resolveCluster } from './algorithm-resolve.js';
import { appendChaosRecord, readModifyWrite } from './launcher-chaos-rmw.js';
import type { ClusterWorkloadContext } from './member-workload-contract.js';

const paramsSchema = v.strictObject({
  algorithm: v.string(),
  params: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean()]))),
});

const settingsSchema = v.strictObject({
  /** The chaos directory (counters, claims, the stop file), absolute. */
  dir: v.string(),
  /** The shared log, absolute. */
  log: v.string(),
  /** Counters (slots): the algorithm's k. */
  slots: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  seed: v.pipe(v.number(), v.safeInteger()),
  thinkMs: v.pipe(v.number(), v.minValue(0)),
  holdMs: v.pipe(v.number(), v.minValue(0)),
  /** A CS with a tenure writes through the fencing-aware counter (default true; false: the plain one). */
  fencedStore: v.optional(v.boolean()),
});

/** The file whose appearance ends the members' work. */
export const STOP_FILE = 'stop';

/**
 * The file holding the launch's epoch — the kills before it, written by the runner at each launch,
 * so it grows with every whole-cluster restart: what `critsec chaos locks` puts above its fresh
 * members' fencing tokens.
 */
export const EPOCH_FILE = 'epoch';

function parse<T extends v.GenericSchema>(schema: T, value: unknown, what: string): v.InferOutput<T> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    const path = issue.path?.map((x) => String(x.key)).join('.') ?? '';
    throw new ConfigurationError(`chaos member: ${what}${path ? `.${path}` : ''}: ${issue.message}`);
  }
  return parsed.output;
}

/**
 * The CS factory of a chaos member: the critsec algorithm `params.algorithm` with
 * `params.params`, from the configuration's initial states.
 * @throws ConfigurationError for params that are not `{ algorithm, params? }` or that the
 *   algorithm's descriptor refuses.
 */
export function createFactory(
  params: unknown,
  cluster: { readonly n: number; readonly initial: readonly CSState[] },
): CSFactory<unknown> {
  const p = parse(paramsSchema, params, 'params');
  const inCS = cluster.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
  return resolveCluster({
    algorithm: p.algorithm,
    n: cluster.n,
    params: { ...p.params, init: inCS.length === 0 ? 'none' : inCS.join(',') },
  }).factory;
}

/**
 * Logs an entry's tenure (`tenure`: its fencing token and the time left), then checks it is still
 * valid once the record is written: when not (the holder was paused past its deadline, before or
 * while it wrote), `tenure-late` says the record is no evidence of the order of tokens.
 */
function logTenure(log: string, p: number, r: number, tenure: Tenure): void {
  const left = tenure.remaining();
  const remainingMs = Number.isFinite(left) ? Math.round(left) : null;
  appendChaosRecord(log, { p, e: 'tenure', t: Date.now(), f: tenure.token, r, remainingMs });
  if (tenure.remaining() <= 0)
    appendChaosRecord(log, { p, e: 'tenure-late', t: Date.now(), f: tenure.token, r });
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/**
 * The chaos workload (see the module comment); resolves to the number of rounds this
 * incarnation began once every member has finished.
 * @throws ConfigurationError for `workload.settings` that are not the runner's.
 */
export async function runWorkload(ctx: ClusterWorkloadContext): Promise<number> {
  const s = parse(settingsSchema, ctx.workload.settings, 'workload.settings');
  const rng = createRng(s.seed * 1_000_003 + ctx.id * 7919 + process.pid);
  const draw = (mean: number) => rng.next() * 2 * mean;
  const withdraw = new AbortController();
  let everyoneFinished = false;
  void ctx.allFinished.then(() => {
    everyoneFinished = true;
    withdraw.abort();
  });
  let finishing = false;
  let round = 0;
  let writes = 0;
  const signal = withdraw.signal;
  while (!everyoneFinished) {
    if (!finishing && existsSync(join(s.dir, STOP_FILE))) {
      finishing = true;
      void ctx.finish();
    }
    round++;
    try {
      if (ctx.cs.state === 'OutCS') {
        await ctx.entry(round, { signal, counted: !finishing });
        const tenure = hasTenure(ctx.cs) ? ctx.cs.tenure() : undefined;
        if (tenure !== undefined) logTenure(s.log, ctx.id, round, tenure);
        const token = `P${ctx.id}/${process.pid}/${++writes}`;
        await readModifyWrite({
          dir: s.dir,
          logPath: s.log,
          p: ctx.id,
          k: s.slots,
          token,
          hold: () => sleep(draw(s.holdMs)),
          ...(tenure === undefined ? {} : { fence: { token: tenure.token, checked: s.fencedStore ?? true } }),
        });
        if (tenure !== undefined && tenure.remaining() <= 0) {
          appendChaosRecord(s.log, {
            p: ctx.id,
            e: 'tenure-expired',
            t: Date.now(),
            f: tenure.token,
            r: round,
          });
        }
      }
      await ctx.exit(round, { signal, counted: !finishing });
      await sleep(draw(s.thinkMs));
    } catch (err) {
      if (everyoneFinished && isAbortError(err)) break;
      throw err;
    }
  }
  return round;
}
