/**
 * The drivers of the crash-recovery tests of h-out-of-k (issue 27; `durable.test.ts`):
 *
 * - {@link roundTripFactory}: wraps a factory so that, after every message an object handles, its
 *   `durableState()` is checked to survive JSON and to be rebuilt exactly by the factory (given as
 *   `recovered`, on a throw-away endpoint) — the same `durableState()`, `inspect()` and `state`;
 * - {@link swapRestoreRun}: a seeded run in which processes are, at random instants between events,
 *   replaced by an object built from their `durableState()` on the same endpoint — a crash and
 *   restart with nothing lost (the simulator delivers nothing between events) — while every
 *   process does its rounds, h drawn in 1..k per entry; the monitor checks Σ units held ≤ k at
 *   every state change, and at the end every arbiter must have all k units back.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  type CSFactory,
  type CSObject,
  type CSState,
  type DurableCSObject,
  type Endpoint,
  hOutOfKSpec,
  isAbortError,
  isDurableCSObject,
  type ProcessContext,
} from '@critsec/core';
import { SafetyMonitor } from '@critsec/harness';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';
import type { HOutOfKSnapshot } from '../src/index.js';

/** The object as a durable one (fails loudly when the factory's objects are not). */
export function durable(cs: CSObject<number>): DurableCSObject<number> {
  if (!isDurableCSObject(cs)) throw new Error(`P${cs.id}'s object does not implement DurableCSObject`);
  return cs;
}

/** `inspect()` of an h-out-of-k object. */
export const inspectOf = (cs: CSObject<number>): HOutOfKSnapshot =>
  (cs as unknown as { inspect(): HOutOfKSnapshot }).inspect();

/** An endpoint that sends nowhere and delivers nothing (a copy's, in the round-trip check). */
function silentEndpoint(ctx: ProcessContext): Endpoint {
  return {
    self: ctx.id,
    peers: ctx.endpoint.peers,
    path: '',
    send: () => {},
    onMessage: () => () => {},
    channel: () => {
      throw new Error('no channels here');
    },
  };
}

/** The reason the copy of `cs` rebuilt from its durable state (through JSON) differs, or null. */
function roundTripMismatch(
  factory: CSFactory<number>,
  ctx: ProcessContext,
  cs: CSObject<number>,
): string | null {
  const saved = durable(cs).durableState();
  const json = JSON.parse(JSON.stringify(saved)) as typeof saved;
  if (!isDeepStrictEqual(json, saved)) return `P${cs.id}: durableState() does not survive JSON`;
  const copy = durable(factory({ ...ctx, endpoint: silentEndpoint(ctx), recovered: json }));
  if (!isDeepStrictEqual(copy.durableState(), saved)) {
    return `P${cs.id}: the copy's state differs: ${JSON.stringify(copy.durableState())} vs ${JSON.stringify(saved)}`;
  }
  if (!isDeepStrictEqual(inspectOf(copy), inspectOf(cs))) {
    return `P${cs.id}: inspect() of the copy differs: ${JSON.stringify(inspectOf(copy))} vs ${JSON.stringify(inspectOf(cs))}`;
  }
  return copy.state === cs.state ? null : `P${cs.id}: the copy is ${copy.state}, the original ${cs.state}`;
}

/**
 * `factory`, with every object checked by {@link roundTripMismatch} after each message it handles;
 * mismatches go to `found` (`checks` counts the checks made).
 */
export function roundTripFactory(
  factory: CSFactory<number>,
  found: string[],
  checks: { count: number },
): CSFactory<number> {
  return (ctx) => {
    let cs: CSObject<number> | undefined;
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

/** What {@link swapRestoreRun} saw. */
export interface SwapRestoreResult {
  /** Safety violations the monitor saw (Σ units held > k). */
  readonly violations: number;
  /** Processes that did not complete their rounds. */
  readonly stuck: number[];
  /** Swaps that cut a call in flight (an entry waiting, or a CS held). */
  readonly cut: number;
  /** Errors the objects reported, and arbiters without all k units at the end. */
  readonly problems: string[];
}

/**
 * One seeded run: n processes, 3 rounds each (think uniform in [0, 4] time units, hold in
 * [0, 2]; delays uniform in [0.5, 1.5]; h uniform in 1..k per entry); `swaps` times, at an instant
 * uniform in [0, 4·3·n] time units, a random process's object is closed and replaced by one the
 * factory builds from its `durableState()` (through JSON) on the same endpoint, then
 * `recover()`ed. A call cut by a swap counts as done when it was the exit (the recovered object
 * leaves the CS) and is made again on the new object when it was an entry. Budgeted by events
 * (100,000; an honest run takes a few thousand).
 */
export async function swapRestoreRun(
  factory: CSFactory<number>,
  n: number,
  k: number,
  seed: number,
  swaps: number,
): Promise<SwapRestoreResult> {
  const rounds = 3;
  const net = new SimNetwork({ n, seed, delay: uniformDelay(0.5, 1.5) });
  const initial: CSState[] = Array(n).fill('OutCS');
  const monitor = new SafetyMonitor(hOutOfKSpec(k, n), initial);
  const problems: string[] = [];
  let violations = 0;
  const ctxOf = (id: number, recovered?: unknown): ProcessContext => ({
    id,
    n,
    endpoint: net.endpoint(id),
    initial,
    ...(recovered === undefined ? {} : { recovered: recovered as ProcessContext['recovered'] }),
  });
  const attach = (cs: CSObject<number>): CSObject<number> => {
    cs.on('statechange', (s) => {
      if (monitor.change(cs.id, s, net.now) !== null) violations++;
    });
    cs.on('error', (e) => problems.push(`P${cs.id}: ${e.message}`));
    return cs;
  };
  const objects = initial.map((_, id) => attach(factory(ctxOf(id))));
  const ready: Promise<void>[] = initial.map(() => Promise.resolve());
  const rng = net.rng('swap-restore');
  let cut = 0;
  const swap = (p: number): void => {
    const old = objects[p]!;
    const saved = JSON.parse(JSON.stringify(durable(old).durableState())) as unknown;
    if (old.state === 'InCS' || (old as { pending: string | null }).pending !== null) cut++;
    void old.close(); // stops handling messages at once (its listener is disposed synchronously)
    const cs = attach(factory(ctxOf(p, saved)));
    objects[p] = cs;
    ready[p] = durable(cs).recover();
  };
  for (let s = 0; s < swaps; s++) {
    const p = rng.int(n);
    net.schedule(rng.next() * 4 * rounds * n, () => swap(p), 'swap');
  }
  const finished = initial.map(() => false);
  const drive = async (p: number): Promise<void> => {
    const r = net.rng(`workload/${p}`);
    for (let done = 0; done < rounds; ) {
      await net.sleep(r.next() * 4);
      await ready[p];
      const cs = objects[p]!;
      const h = 1 + r.int(k);
      monitor.setRequest(p, h);
      try {
        await cs.entry(h);
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
  await net.run({ maxEvents: 100_000 });
  const stuck = finished.flatMap((f, p) => (f ? [] : [p]));
  for (const cs of objects) {
    const { x, Que } = inspectOf(cs).arbiter;
    if (stuck.length === 0 && (x !== k || Que.length > 0))
      problems.push(`P${cs.id}: x = ${x}, Que ${Que.length}`);
  }
  for (const cs of objects) await cs.close();
  net.close();
  await Promise.allSettled(drivers);
  return { violations, stuck, cut, problems };
}
