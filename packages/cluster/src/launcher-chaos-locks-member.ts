/*
 * The member side of a chaos run of named locks (`critsec chaos locks`, launcher-chaos-locks.ts):
 * a module the default member main loads as both the configuration's `algorithm` and its
 * `workload.module`.
 *
 * - `createFactory`: the member runtime's own CS object, which this workload never calls —
 *   Maekawa over majority(n) on channel `cs` (no message is sent on it); the locks live on the
 *   root endpoint's `locks/…` channels.
 * - `runWorkload(ctx)`: a `createLockManager` of `@critsec/locks` over the member's root endpoint
 *   (`ctx.root`), then — until the runner's stop file appears, and uncounted until every member
 *   has finished — request a name (`name-<x>`, x drawn from the member's seeded generator, skewed
 *   toward the first names so that members meet: x = ⌊names · u²⌋), in `shared` mode half the time
 *   on a shared name (the first `sharedNames` names, listed in the manager's `shared`), and in its
 *   callback: `lock-held`, then the work — an exclusive holder read-modify-writes the name's
 *   counter (slot x; the fencing-aware one under the grant's token when the run has tokens), a
 *   shared holder reads it —, then `lock-release` (chaos-locks-check.ts reads them). Each grant is
 *   reported to the runner as an `entry-done` progress event (`ctx.progress`), each release as
 *   `exit-done`. A member holds one lock at a time.
 *
 * The fencing token a holder works under is `epoch · 2³² + lock.token`: the epoch (the runner's
 * epoch file, the kills before this launch) grows with every whole-cluster restart, whose fresh
 * members' tokens start again from 1 — as a generation number in front of a token does.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigurationError, type CSFactory, createRng, isAbortError } from '@critsec/core';
import { createLockManager, type Lock, type LockManager } from '@critsec/locks';
import * as v from 'valibot';
import { resolveCluster } from './algorithm-resolve.js';
import type { LockLogRecord } from './chaos-locks-check.js';
import { EPOCH_FILE, STOP_FILE } from './launcher-chaos-member.js';
import { appendChaosRecord, readModifyWrite, sharedRead } from './launcher-chaos-rmw.js';
import type { ClusterWorkloadContext } from './member-workload-contract.js';

/** What puts the epoch above a grant's token (2³²: far more grants than a run makes). */
const EPOCH_SCALE = 2 ** 32;

const settingsSchema = v.strictObject({
  /** The chaos directory (counters, the stop and epoch files), absolute. */
  dir: v.string(),
  /** The shared log, absolute. */
  log: v.string(),
  seed: v.pipe(v.number(), v.safeInteger()),
  thinkMs: v.pipe(v.number(), v.minValue(0)),
  holdMs: v.pipe(v.number(), v.minValue(0)),
  /** Names `name-0 …`; the first `sharedNames` are shared names (h-out-of-k, k units). */
  names: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  sharedNames: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  /** The manager's options every member shares. */
  k: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  fencing: v.optional(v.boolean()),
  ttl: v.optional(v.pipe(v.number(), v.minValue(0))),
  driftMargin: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** The manager's quorum reselection (issue 28 §4). */
  reselect: v.optional(v.boolean()),
  /** With tokens, work through the fencing-aware counter (default true; false: the plain one). */
  fencedStore: v.optional(v.boolean()),
});

type Settings = v.InferOutput<typeof settingsSchema>;

/**
 * The member runtime's own CS object (never called; see the module comment).
 * @throws ConfigurationError when `n` is not a member count Maekawa takes.
 */
export function createFactory(_params: unknown, cluster: { readonly n: number }): CSFactory<unknown> {
  return resolveCluster({ algorithm: 'mutex', n: cluster.n }).factory;
}

/** The name of index `x`. */
const lockName = (x: number): string => `name-${x}`;

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/** One member's run: its manager, its generator, its log. */
interface Run {
  readonly ctx: ClusterWorkloadContext;
  readonly s: Settings;
  readonly epoch: number;
  readonly draw: (mean: number) => number;
  readonly append: (r: LockLogRecord) => void;
  writes: number;
}

/** The callback of a granted request: `lock-held`, the work, `lock-release` (see the module comment). */
async function hold(run: Run, lock: Lock, x: number, round: number, counted: boolean): Promise<void> {
  const { ctx, s } = run;
  const p = ctx.id;
  ctx.progress('entry-done', round, { counted });
  const f = lock.token === undefined ? undefined : run.epoch * EPOCH_SCALE + lock.token;
  const left = lock.remaining();
  const remainingMs = Number.isFinite(left) ? Math.round(left) : null;
  run.append({
    p,
    e: 'lock-held',
    t: Date.now(),
    x,
    m: lock.mode,
    r: round,
    ...(f === undefined ? {} : { f, remainingMs }),
  });
  if (f !== undefined && lock.remaining() <= 0)
    run.append({ p, e: 'lock-late', t: Date.now(), x, r: round, f });
  const fence =
    f === undefined ? undefined : { token: f, checked: s.fencedStore ?? true, readers: x < s.sharedNames };
  const holdFor = () => sleep(run.draw(s.holdMs));
  if (lock.mode === 'exclusive') {
    const token = `P${p}/${process.pid}/${++run.writes}`;
    await readModifyWrite({
      dir: s.dir,
      logPath: s.log,
      p,
      k: 1,
      slot: x,
      token,
      hold: holdFor,
      ...(fence === undefined ? {} : { fence }),
    });
  } else {
    const read = await sharedRead(s.dir, x, `P${p}/${process.pid}`, fence);
    if ('rejected' in read)
      appendChaosRecord(s.log, {
        p,
        e: 'rmw-fenced',
        t: Date.now(),
        s: x,
        op: 'read',
        f: f!,
        fence: read.rejected,
      });
    await holdFor();
  }
  const expired = f !== undefined && lock.remaining() <= 0;
  run.append({
    p,
    e: 'lock-release',
    t: Date.now(),
    x,
    r: round,
    ...(expired ? { expired: true as const } : {}),
  });
  ctx.progress('exit-done', round, { counted });
}

/** The member's lock manager over its root endpoint, with the options every member shares. */
function manager(ctx: ClusterWorkloadContext, s: Settings): LockManager {
  if (ctx.root === undefined) {
    throw new ConfigurationError(
      'chaos locks member: needs the root endpoint, which a durable member does not give',
    );
  }
  return createLockManager({
    endpoint: ctx.root,
    id: ctx.id,
    n: ctx.n,
    shared: Array.from({ length: s.sharedNames }, (_, x) => lockName(x)),
    ...(s.k === undefined ? {} : { k: s.k }),
    ...(s.fencing === undefined ? {} : { fencing: s.fencing }),
    ...(s.ttl === undefined ? {} : { ttl: s.ttl }),
    ...(s.driftMargin === undefined ? {} : { driftMargin: s.driftMargin }),
    ...(s.reselect === undefined ? {} : { reselect: s.reselect }),
    onError: (err) => console.error(`chaos locks member P${ctx.id}: ${err.message}`),
  });
}

/**
 * The chaos workload of named locks (see the module comment); resolves to the number of requests
 * this incarnation made once every member has finished.
 * @throws ConfigurationError for `workload.settings` that are not the runner's, or a durable member.
 */
export async function runWorkload(ctx: ClusterWorkloadContext): Promise<number> {
  const parsed = v.safeParse(settingsSchema, ctx.workload.settings);
  if (!parsed.success) {
    throw new ConfigurationError(`chaos locks member: workload.settings: ${parsed.issues[0]!.message}`);
  }
  const s = parsed.output;
  const rng = createRng(s.seed * 1_000_003 + ctx.id * 7919 + process.pid);
  const run: Run = {
    ctx,
    s,
    epoch: Number(readFileSync(join(s.dir, EPOCH_FILE), 'utf8')),
    draw: (mean) => rng.next() * 2 * mean,
    append: (r) => appendFileSync(s.log, `${JSON.stringify(r)}\n`), // one O_APPEND write
    writes: 0,
  };
  const locks = manager(ctx, s);
  const withdraw = new AbortController();
  let everyoneFinished = false;
  void ctx.allFinished.then(() => {
    everyoneFinished = true;
    withdraw.abort();
  });
  let finishing = false;
  let round = 0;
  try {
    while (!everyoneFinished) {
      if (!finishing && existsSync(join(s.dir, STOP_FILE))) {
        finishing = true;
        void ctx.finish();
      }
      round++;
      const x = Math.min(s.names - 1, Math.floor(s.names * rng.next() ** 2));
      const mode = x < s.sharedNames && rng.next() < 0.5 ? 'shared' : 'exclusive';
      const counted = !finishing;
      const r = round;
      try {
        await locks.request(lockName(x), { mode, signal: withdraw.signal }, (lock) =>
          hold(run, lock, x, r, counted),
        );
      } catch (err) {
        if (everyoneFinished && isAbortError(err)) break;
        throw err;
      }
      await sleep(run.draw(s.thinkMs));
    }
  } finally {
    await locks.close();
  }
  return round;
}
