/**
 * The drivers of the crash-recovery tests (issue 27; `durable.test.ts`, `durable.long.test.ts`):
 *
 * - {@link roundTripFactory}: wraps a factory so that, after every message an object handles, its
 *   `durableState()` is checked to survive JSON and to be rebuilt exactly by the factory (given as
 *   `recovered`, on a throw-away endpoint);
 * - {@link swapRestoreRun}: a seeded run in which processes are, at random instants between events,
 *   replaced by an object built from their `durableState()` on the same endpoint — a crash and
 *   restart with nothing lost (the simulator delivers nothing between events) — while every
 *   process does its rounds; the safety monitor watches every state change.
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
  mutexSpec,
  type ProcessContext,
} from '@critsec/core';
import { SafetyMonitor } from '@critsec/harness';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import { fakeEndpoint } from './helpers.js';

/** The object as a durable one (fails loudly when the factory's objects are not). */
export function durable(cs: CSObject): DurableCSObject {
  if (!isDurableCSObject(cs)) throw new Error(`P${cs.id}'s object does not implement DurableCSObject`);
  return cs;
}

/**
 * Rebuilds `cs` from its durable state (through JSON) on a throw-away endpoint; the reason the copy
 * differs — in `durableState()`, in `inspect()` (every protocol variable, when the object has it)
 * or in `state` — or null.
 */
function roundTripMismatch(factory: CSFactory, ctx: ProcessContext, cs: CSObject): string | null {
  const saved = durable(cs).durableState();
  const json = JSON.parse(JSON.stringify(saved)) as typeof saved;
  if (!isDeepStrictEqual(json, saved)) return `P${cs.id}: durableState() does not survive JSON`;
  const { endpoint } = fakeEndpoint(ctx.id, ctx.endpoint.peers, () => '');
  const copy = durable(factory({ ...ctx, endpoint, recovered: json }));
  if (!isDeepStrictEqual(copy.durableState(), saved)) {
    return `P${cs.id}: the copy's state differs: ${JSON.stringify(copy.durableState())} vs ${JSON.stringify(saved)}`;
  }
  // and by the object's own account of every protocol variable, independent of the durable format
  const inspect = (o: CSObject) => (o as unknown as { inspect?: () => unknown }).inspect?.();
  if (!isDeepStrictEqual(inspect(copy), inspect(cs))) {
    return `P${cs.id}: inspect() of the copy differs: ${JSON.stringify(inspect(copy))} vs ${JSON.stringify(inspect(cs))}`;
  }
  return copy.state === cs.state ? null : `P${cs.id}: the copy is ${copy.state}, the original ${cs.state}`;
}

/**
 * `factory`, with every object checked by {@link roundTripMismatch} after each message it handles;
 * mismatches go to `found` (checks counts the checks made).
 */
export function roundTripFactory(factory: CSFactory, found: string[], checks: { count: number }): CSFactory {
  return (ctx) => {
    let cs: CSObject | undefined;
    const ep = ctx.endpoint;
    const endpoint: Endpoint = {
      self: ep.self,
      peers: ep.peers,
      path: ep.path,
      send: (to, msg) => ep.send(to, msg),
      channel: (name) => ep.channel(name),
      onMessage: (fn) =>
        ep.onMessage((from, msg) => {
          fn(from, msg);
          if (cs === undefined) return;
          checks.count++;
          const bad = roundTripMismatch(factory, ctx, cs);
          if (bad !== null) found.push(bad);
        }),
    };
    cs = factory({ ...ctx, endpoint });
    return cs;
  };
}

/** A Maekawa arbiter's lock still held once every process is done, or null. */
function maekawaLeftover(cs: CSObject): string | null {
  const a = (cs as unknown as { inspect(): { arbiter: { grantedTo: number } } }).inspect().arbiter;
  return a.grantedTo === -1 ? null : `P${cs.id}'s lock still held by P${a.grantedTo}`;
}

/** What {@link swapRestoreRun} saw. */
export interface SwapRestoreResult {
  /** Safety violations the monitor saw. */
  readonly violations: number;
  /** Processes that did not complete their rounds. */
  readonly stuck: number[];
  /** Swaps made. */
  readonly swaps: number;
  /** Swaps that cut a call in flight (an entry waiting, or a CS held). */
  readonly cut: number;
  /** Errors the objects reported, and arbiters still locked at the end. */
  readonly problems: string[];
}

/**
 * One seeded run: `n` processes, `rounds` CS entries each (think uniform in [0, 4] time units,
 * hold in [0, 2]; message delays uniform in [0.5, 1.5]); `swaps` times, at an instant drawn uniformly in
 * [0, 4·rounds·n] time units, a random process's object is closed and replaced by one the factory
 * builds from its `durableState()` (through JSON) on the same endpoint, then `recover()`ed. A
 * call cut by a swap counts as done when it was the exit (the recovered object leaves the CS), and
 * is made again on the new object when it was an entry. At the end, `leftover` checks each object
 * (default: every Maekawa arbiter unlocked). Budgeted by events (`maxEvents`, default 100,000: an honest run takes a few thousand).
 */
export async function swapRestoreRun(
  factory: CSFactory,
  n: number,
  seed: number,
  opts: {
    rounds?: number;
    swaps?: number;
    maxEvents?: number;
    /** What an object still holds once every process is done (default: Maekawa's lock), or null. */
    leftover?: (cs: CSObject) => string | null;
  } = {},
): Promise<SwapRestoreResult> {
  const rounds = opts.rounds ?? 3;
  const net = new SimNetwork({ n, seed, delay: uniformDelay(0.5, 1.5) });
  const initial: CSState[] = Array(n).fill('OutCS');
  const monitor = new SafetyMonitor(mutexSpec(n), initial);
  const problems: string[] = [];
  let violations = 0;
  const ctxOf = (id: number, recovered?: unknown): ProcessContext => ({
    id,
    n,
    endpoint: net.endpoint(id),
    initial,
    ...(recovered === undefined ? {} : { recovered: recovered as ProcessContext['recovered'] }),
  });
  const attach = (cs: CSObject): CSObject => {
    cs.on('statechange', (s) => {
      if (monitor.change(cs.id, s, net.now) !== null) violations++;
    });
    cs.on('error', (e) => problems.push(`P${cs.id}: ${e.message}`));
    return cs;
  };
  const objects = initial.map((_, id) => attach(factory(ctxOf(id))));
  const ready: Promise<void>[] = initial.map(() => Promise.resolve());
  const rng = net.rng('swap-restore');
  let swaps = 0;
  let cut = 0;
  const swap = (p: number): void => {
    const old = objects[p]!;
    const saved = JSON.parse(JSON.stringify(durable(old).durableState())) as unknown;
    if (old.state === 'InCS' || (old as { pending: string | null }).pending !== null) cut++;
    void old.close(); // stops handling messages at once (its listener is disposed synchronously)
    const cs = attach(factory(ctxOf(p, saved)));
    objects[p] = cs;
    swaps++;
    ready[p] = durable(cs).recover();
  };
  const horizon = 4 * rounds * n;
  for (let k = 0; k < (opts.swaps ?? 3); k++) {
    const p = rng.int(n);
    net.schedule(rng.next() * horizon, () => swap(p), 'swap');
  }
  const finished = initial.map(() => false);
  const drive = async (p: number): Promise<void> => {
    const r = net.rng(`workload/${p}`);
    for (let done = 0; done < rounds; ) {
      await net.sleep(r.next() * 4);
      await ready[p];
      const cs = objects[p]!;
      try {
        await cs.entry();
      } catch (err) {
        if (isAbortError(err) && objects[p] !== cs) continue; // cut by a swap: ask again, on the new object
        problems.push(`P${p}: entry() failed: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      done++;
      await net.sleep(r.next() * 2);
      if (objects[p] === cs) await cs.exit(); // else the recovered object left the CS
    }
    finished[p] = true;
  };
  const drivers = initial.map((_, p) => drive(p));
  await net.run({ maxEvents: opts.maxEvents ?? 100_000 });
  const stuck = finished.flatMap((f, p) => (f ? [] : [p]));
  const leftover = opts.leftover ?? maekawaLeftover;
  for (const cs of objects) {
    const left = stuck.length === 0 ? leftover(cs) : null;
    if (left !== null) problems.push(left);
  }
  for (const cs of objects) await cs.close();
  net.close();
  await Promise.allSettled(drivers);
  return { violations, stuck, swaps, cut, problems };
}
