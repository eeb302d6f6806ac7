/**
 * Messages per pair over delivery orders (issue 14, "in controlled mode"): the simulator in
 * controlled mode delivers nothing on its own, so a seeded random walk — at every step one of the
 * deliverable events (the head of each FIFO link, each process's next invocation) drawn
 * uniformly — is one delivery order, realizable by some assignment of finite delays, including
 * orders the timed spaces of `search.ts` (delays in [0.5, 1]) never produce. Controlled mode has
 * no time (its clock counts events), so only messages are measured here: causal, per exit+entry
 * pair, against the lemmas' worst case. The budget is in walks and states (events), never
 * wall-clock time.
 */
import type { CSObject, ProcessId } from '@critsec/core';
import { createRng } from '@critsec/core';
import { callObject, createCluster, type InvocationRecord, perPairMessages } from '@critsec/harness';
import { CASES } from './schedule.js';

/** One walk's outcome. */
export interface WalkFigures {
  readonly ok: boolean;
  readonly failure: string | null;
  /** Events delivered (the walk's states). */
  readonly states: number;
  readonly perPair: { readonly count: number; readonly mean: number; readonly max: number };
}

/**
 * One random delivery order of `rounds` rounds per process (every call invoked as soon as the
 * previous completed and the walk picks it); walk `walk` is drawn from `seed` and `walk` alone.
 * A call left pending whose move the problem forbids at the end is stranded by the workload, not
 * a failure; one whose move is allowed is.
 */
export async function randomWalk(
  caseName: string,
  seed: number,
  walk: number,
  rounds = 1,
): Promise<WalkFigures> {
  const c = CASES[caseName]!;
  const cluster = createCluster({
    factory: c.factory(),
    spec: c.spec,
    mode: 'controlled',
    attribution: true,
  });
  const net = cluster.net;
  const attribution = cluster.attribution!;
  const records: InvocationRecord[] = [];
  const off = attribution.onCharge((index) => records[index]!.messages++);
  const loop = async (i: ProcessId) => {
    const cs = cluster.objects[i] as CSObject<unknown>;
    for (let call = 0; call < 2 * rounds; call++) {
      const op = cs.state === 'OutCS' ? 'entry' : 'exit';
      await new Promise<void>((resolve) => net.schedule(0, resolve, `P${i} ${op}`));
      const rec: InvocationRecord = {
        process: i,
        op,
        round: Math.floor(call / 2),
        request: undefined,
        start: net.now,
        end: Number.NaN,
        messages: 0,
        aborted: false,
        extra: false,
      };
      const index = records.push(rec) - 1;
      await attribution.run(index, () => callObject(cs, rec, undefined));
      rec.end = net.now;
    }
  };
  let closing = false;
  const errors: string[] = [];
  for (let i = 0; i < c.n; i++)
    loop(i).catch((err: unknown) => {
      if (!closing) errors.push(`P${i}: ${String(err)}`);
    });
  await net.settle();
  const rng = createRng(seed).fork(walk);
  let states = 0;
  for (let pending = net.pending(); pending.length > 0 && states < 100_000; pending = net.pending()) {
    await net.deliver(rng.int(pending.length));
    states++;
    if (cluster.firstViolation !== null) break;
  }
  off();
  const spec = c.spec;
  const [l, k] = spec.kind === 'global' ? [spec.l, spec.k] : [0, 1];
  const inCS = cluster.monitor.states.filter((s) => s === 'InCS').length;
  const stuck = cluster.objects.filter((o) => {
    if (o.pending === null) return false;
    const others = inCS - (o.state === 'InCS' ? 1 : 0);
    return o.pending === 'entry' ? others + 1 <= k : others >= l;
  });
  const failure =
    cluster.firstViolation?.message ??
    errors[0] ??
    (stuck.length > 0
      ? `stuck with the move allowed: ${stuck.map((o) => `P${o.id} ${o.pending}`).join(', ')}`
      : null);
  const pp = perPairMessages(records, c.n);
  closing = true;
  await cluster.close();
  return { ok: failure === null, failure, states, perPair: { count: pp.count, mean: pp.mean, max: pp.max } };
}

/** Replays walks 0 … walks − 1 and keeps the first reaching the largest messages per pair. */
export async function searchWalks(caseName: string, seed: number, walks: number): Promise<PinnedWalksResult> {
  let states = 0;
  let pairs = 0;
  let sum = 0;
  let worst: PinnedWalksResult['worst'] | undefined;
  const failures: string[] = [];
  for (let walk = 0; walk < walks; walk++) {
    const f = await randomWalk(caseName, seed, walk);
    states += f.states;
    if (!f.ok) {
      failures.push(`walk ${walk}: ${f.failure}`);
      continue;
    }
    pairs += f.perPair.count;
    sum += f.perPair.mean * f.perPair.count;
    if (worst === undefined || f.perPair.max > worst.value)
      worst = { walk, value: f.perPair.max, figures: f };
  }
  if (worst === undefined) throw new Error(`${caseName}: no walk completed`);
  return { seed, walks, states, perPairMean: sum / pairs, worst, failures };
}

/** What {@link searchWalks} found. */
interface PinnedWalksResult {
  readonly seed: number;
  readonly walks: number;
  readonly states: number;
  readonly perPairMean: number;
  readonly worst: { readonly walk: number; readonly value: number; readonly figures: WalkFigures };
  readonly failures: readonly string[];
}
