/**
 * The drivers of the crash-recovery tests (issue 27; `durable.test.ts`), after
 * `packages/mutex/test/durable-run.ts`, for a group mutex:
 *
 * - {@link roundTripFactory}: wraps a factory so that, after every message an object handles, its
 *   `durableState()` is checked to survive JSON and to be rebuilt exactly by the factory (given as
 *   `recovered`, on a throw-away endpoint) — by the durable state and by `inspect()`;
 * - {@link swapRestoreRun}: a seeded run in which processes are, at random instants between events,
 *   replaced by an object built from their `durableState()` on the same endpoint — a crash and
 *   restart with nothing lost — while every process does its rounds, each entry for a random group;
 *   the group monitor watches every state change.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  type CSFactory,
  type CSObject,
  type CSState,
  type DurableCSObject,
  type Endpoint,
  groupSpec,
  isAbortError,
  isDurableCSObject,
  type ProcessContext,
} from '@critsec/core';
import { SafetyMonitor } from '@critsec/harness';
import { SimNetwork, uniformDelay } from '@critsec/transport-sim';

/** The object as a durable one (fails loudly when the factory's objects are not). */
export function durable<R>(cs: CSObject<R>): DurableCSObject<R> {
  if (!isDurableCSObject(cs)) throw new Error(`P${cs.id}'s object does not implement DurableCSObject`);
  return cs;
}

/** An endpoint that sends nowhere and never delivers. */
function nowhere(self: number, peers: readonly number[]): Endpoint {
  return {
    self,
    peers: [...peers],
    path: '',
    send: () => undefined,
    onMessage: () => () => undefined,
    channel: () => {
      throw new Error('no channels here');
    },
  };
}

const inspect = (o: CSObject<number>) => (o as unknown as { inspect(): unknown }).inspect();

/** The reason a copy rebuilt from `cs`'s durable state differs from `cs`, or null. */
function roundTripMismatch(
  factory: CSFactory<number>,
  ctx: ProcessContext,
  cs: CSObject<number>,
): string | null {
  const saved = durable(cs).durableState();
  const json = JSON.parse(JSON.stringify(saved)) as typeof saved;
  if (!isDeepStrictEqual(json, saved)) return `P${cs.id}: durableState() does not survive JSON`;
  const copy = durable(factory({ ...ctx, endpoint: nowhere(ctx.id, ctx.endpoint.peers), recovered: json }));
  if (!isDeepStrictEqual(copy.durableState(), saved)) return `P${cs.id}: the copy's durable state differs`;
  const [a, b] = [inspect(copy), inspect(cs)];
  if (!isDeepStrictEqual(a, b))
    return `P${cs.id}: inspect() of the copy differs: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  return copy.state === cs.state ? null : `P${cs.id}: the copy is ${copy.state}, the original ${cs.state}`;
}

/** `factory`, with every object checked by {@link roundTripMismatch} after each message it handles. */
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

/** A node's lock still held once every process is done (both variants' `inspect().node.lock_ps`), or null. */
function leftover(cs: CSObject<number>): string | null {
  const held = (inspect(cs) as { node: { lock_ps: unknown[] } }).node.lock_ps;
  return held.length === 0 ? null : `P${cs.id}'s node still locked: ${JSON.stringify(held)}`;
}

/** What {@link swapRestoreRun} saw. */
export interface SwapRestoreResult {
  readonly violations: number;
  readonly stuck: number[];
  readonly swaps: number;
  /** Swaps that cut a call in flight (an entry waiting, or a CS held). */
  readonly cut: number;
  /** Errors the objects reported, and nodes still locked at the end. */
  readonly problems: string[];
}

/**
 * One seeded run: `n` processes of `m` groups, `rounds` entries each for a random group (think
 * uniform in [0, 4] time units, hold in [0, 2]; delays uniform in [0.5, 1.5]); `swaps` times, at an
 * instant uniform in [0, 4·rounds·n], a random process's object is closed and replaced by one the
 * factory builds from its `durableState()` (through JSON), then `recover()`ed. A cut entry is made
 * again on the new object; a cut CS counts as done (the recovered object leaves it). Budgeted by
 * events (100,000).
 */
export async function swapRestoreRun(
  factory: CSFactory<number>,
  n: number,
  m: number,
  seed: number,
  swapCount = 3,
  rounds = 3,
): Promise<SwapRestoreResult> {
  const net = new SimNetwork({ n, seed, delay: uniformDelay(0.5, 1.5) });
  const initial: CSState[] = Array(n).fill('OutCS');
  const monitor = new SafetyMonitor(groupSpec(m, n), initial);
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
  const groups: number[] = Array(n).fill(0);
  const rng = net.rng('swap-restore');
  let [swaps, cut] = [0, 0];
  const swap = (p: number): void => {
    const old = objects[p]!;
    const saved = JSON.parse(JSON.stringify(durable(old).durableState())) as unknown;
    if (old.state === 'InCS' || old.pending !== null) cut++;
    void old.close();
    const cs = attach(factory(ctxOf(p, saved)));
    if (cs.state === 'InCS') monitor.setRequest(p, groups[p]!);
    objects[p] = cs;
    swaps++;
    ready[p] = durable(cs).recover();
  };
  for (let k = 0; k < swapCount; k++) {
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
      const g = r.int(m);
      groups[p] = g;
      monitor.setRequest(p, g);
      try {
        await cs.entry(g);
      } catch (err) {
        if (isAbortError(err) && objects[p] !== cs) continue; // cut by a swap: ask again
        problems.push(`P${p}: entry() failed: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      done++;
      await net.sleep(r.next() * 2);
      if (objects[p] === cs) await cs.exit();
    }
    finished[p] = true;
  };
  const drivers = initial.map((_, p) => drive(p));
  await net.run({ maxEvents: 100_000 });
  const stuck = finished.flatMap((f, p) => (f ? [] : [p]));
  if (stuck.length === 0)
    for (const cs of objects) problems.push(...[leftover(cs)].filter((x) => x !== null));
  for (const cs of objects) await cs.close();
  net.close();
  await Promise.allSettled(drivers);
  return { violations, stuck, swaps, cut, problems };
}
