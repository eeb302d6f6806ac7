/**
 * The drivers of the crash-recovery tests of MUTIN and its composites (issue 27; also used by
 * `@critsec/complement`'s and `@critsec/gcs`'s tests):
 *
 * - {@link roundTripFactory}: wraps a factory so that, after every message an object (or an inner
 *   object, on any channel) handles, its `durableState()` is checked to survive JSON and to be
 *   rebuilt exactly by the factory (given as `recovered`, on a throw-away endpoint): the copy's
 *   `durableState()` and `inspect()` — every protocol variable, `pending` aside (a copy has no
 *   call in flight) — equal the original's;
 * - {@link swapRestoreRun}: a seeded run in which processes are, at random instants between
 *   events, replaced by an object built from their `durableState()` on the same endpoint and
 *   `recover()`ed — a crash and restart with nothing lost — while every process alternates
 *   entry and exit; the safety monitor watches every state change.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  type CSFactory,
  type CSObject,
  type CSState,
  type DurableCSObject,
  type Endpoint,
  isAbortError,
  isDurableCSObject,
  type ProblemSpec,
  type ProcessContext,
} from '@critsec/core';
import { SafetyMonitor } from '@critsec/harness';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';

/** The object as a durable one (fails loudly when the factory's objects are not). */
export function durable(cs: CSObject): DurableCSObject {
  if (!isDurableCSObject(cs)) throw new Error(`P${cs.id}'s object does not implement DurableCSObject`);
  return cs;
}

/** `x` without its `pending` fields, at any depth. */
function withoutPending(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(withoutPending);
  if (typeof x !== 'object' || x === null) return x;
  return Object.fromEntries(
    Object.entries(x)
      .filter(([k]) => k !== 'pending')
      .map(([k, v]) => [k, withoutPending(v)]),
  );
}

const inspect = (o: CSObject): unknown =>
  withoutPending((o as unknown as { inspect?: () => unknown }).inspect?.());

/** Rebuilds `cs` from its durable state (through JSON) on a throw-away endpoint; why the copy differs, or null. */
function roundTripMismatch(factory: CSFactory, ctx: ProcessContext, cs: CSObject): string | null {
  const saved = durable(cs).durableState();
  const json = JSON.parse(JSON.stringify(saved)) as typeof saved;
  if (!isDeepStrictEqual(json, saved)) return `P${cs.id}: durableState() does not survive JSON`;
  const scratch = new SimNetwork({ n: ctx.n, seed: 1 });
  const copy = durable(factory({ ...ctx, endpoint: scratch.endpoint(ctx.id), recovered: json }));
  try {
    if (!isDeepStrictEqual(copy.durableState(), saved)) {
      return `P${cs.id}: the copy's state differs: ${JSON.stringify(copy.durableState())} vs ${JSON.stringify(saved)}`;
    }
    if (!isDeepStrictEqual(inspect(copy), inspect(cs))) {
      return `P${cs.id}: inspect() of the copy differs: ${JSON.stringify(inspect(copy))} vs ${JSON.stringify(inspect(cs))}`;
    }
    return copy.state === cs.state ? null : `P${cs.id}: the copy is ${copy.state}, the original ${cs.state}`;
  } finally {
    void copy.close();
    scratch.close();
  }
}

/** `ep` with `after()` run after every message handled on it or on any of its channels. */
function watched(ep: Endpoint, after: () => void): Endpoint {
  return {
    self: ep.self,
    peers: ep.peers,
    path: ep.path,
    send: (to, msg) => ep.send(to, msg),
    channel: (name) => watched(ep.channel(name), after),
    onMessage: (fn) =>
      ep.onMessage((from, msg) => {
        fn(from, msg);
        after();
      }),
  };
}

/**
 * `factory`, with every object checked by a round trip after each message it (or an inner
 * object) handles; mismatches go to `found`, `checks.count` counts the checks.
 */
export function roundTripFactory(factory: CSFactory, found: string[], checks: { count: number }): CSFactory {
  return (ctx) => {
    let cs: CSObject | undefined;
    const endpoint = watched(ctx.endpoint, () => {
      if (cs === undefined || found.length > 0) return;
      checks.count++;
      const bad = roundTripMismatch(factory, ctx, cs);
      if (bad !== null) found.push(bad);
    });
    cs = factory({ ...ctx, endpoint });
    return cs;
  };
}

/** What {@link swapRestoreRun} saw. */
export interface SwapRestoreResult {
  /** Safety violations the monitor saw. */
  readonly violations: number;
  /** Processes that did not complete their rounds. */
  readonly stuck: number[];
  /** Swaps that cut a call in flight. */
  readonly cut: number;
  /** Errors the objects reported, and failed calls. */
  readonly problems: string[];
}

/**
 * One seeded run: `spec.n` processes from `initial`, each making `rounds` pairs of calls (the
 * next call is `exit` when InCS, `entry` when OutCS; think uniform in [0, 4] time units, hold in
 * [0, 2]; delays uniform in [0.5, 1.5]). `swaps` times, at an instant uniform in
 * [0, 4·rounds·n], a random process's object is closed and replaced by one the factory builds
 * from its `durableState()` (through JSON) on the same endpoint, then `recover()`ed; a call cut
 * by the swap counts as not made (the loop looks at the new object's state and goes on). A
 * process that made its calls goes on alternating until every process has (the engine's "a
 * finished process keeps cycling"). Budgeted
 * by events (`maxEvents`, default 200,000).
 */
export async function swapRestoreRun(
  factory: CSFactory,
  spec: ProblemSpec,
  initial: readonly CSState[],
  seed: number,
  opts: { rounds?: number; swaps?: number; maxEvents?: number } = {},
): Promise<SwapRestoreResult> {
  const n = spec.n;
  const rounds = opts.rounds ?? 3;
  const net = new SimNetwork({ n, seed, delay: uniformDelay(0.5, 1.5) });
  const monitor = new SafetyMonitor(spec, initial);
  const problems: string[] = [];
  let violations = 0;
  const ctxOf = (id: number, recovered?: unknown): ProcessContext => ({
    ...{ id, n, endpoint: net.endpoint(id), initial },
    ...(recovered === undefined ? {} : { recovered: recovered as ProcessContext['recovered'] }),
  });
  const attach = (cs: CSObject): CSObject => {
    cs.on('statechange', (s) => {
      if (objects[cs.id] === cs && monitor.change(cs.id, s, net.now) !== null) violations++;
    });
    cs.on('error', (e) => problems.push(`P${cs.id}: ${e.message}`));
    return cs;
  };
  const objects: CSObject[] = [];
  for (let id = 0; id < n; id++) objects.push(attach(factory(ctxOf(id))));
  const ready: Promise<void>[] = initial.map(() => Promise.resolve());
  const rng = net.rng('swap-restore');
  let cut = 0;
  let ended = false;
  const swap = (p: number): void => {
    const old = objects[p]!;
    const saved = JSON.parse(JSON.stringify(durable(old).durableState())) as unknown;
    if ((old as { pending: string | null }).pending !== null) cut++;
    void old.close(); // stops handling messages at once
    const cs = factory(ctxOf(p, saved));
    objects[p] = attach(cs);
    ready[p] = durable(cs)
      .recover()
      .catch((e: unknown) => {
        if (!ended) problems.push(`P${p}: recover() rejected: ${String(e)}`);
      });
  };
  const horizon = 4 * rounds * n;
  for (let k = 0; k < (opts.swaps ?? 3); k++) {
    const p = rng.int(n);
    net.schedule(rng.next() * horizon, () => swap(p), 'swap');
  }
  const finished = initial.map(() => false);
  // a process that has made its calls keeps alternating until every process has (an l-mutual
  // inclusion leaver needs others to enter)
  const drive = async (p: number): Promise<void> => {
    const r = net.rng(`workload/${p}`);
    for (let done = 0; !finished.every(Boolean); ) {
      if (done >= 2 * rounds) finished[p] = true;
      await net.sleep(r.next() * (objects[p]!.state === 'OutCS' ? 4 : 2));
      await ready[p];
      const cs = objects[p]!;
      try {
        await (cs.state === 'OutCS' ? cs.entry() : cs.exit());
        done++;
      } catch (err) {
        if (isAbortError(err) && objects[p] !== cs) continue; // cut by a swap
        if (!ended) problems.push(`P${p}: call failed: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
    }
  };
  const drivers = initial.map((_, p) => drive(p));
  await net.run({ maxEvents: opts.maxEvents ?? 200_000 });
  const stuck = finished.flatMap((f, p) => (f ? [] : [p]));
  ended = true;
  for (const cs of objects) await cs.close();
  net.close();
  await Promise.allSettled(drivers);
  return { violations, stuck, cut, problems };
}
