/**
 * The seeded run of the time-bounded (1,3)-GCS the ttl tests share (issue 28): four processes over
 * majorities of {0, 1, 2} (P3 is in no quorum, of the MUTINs' coterie nor of their Maekawas'), P0
 * InCS at the start, ttl 12 time units on both inner Maekawas. Each seed has
 * - a **crash-stop** of P3 at a seeded time in [0, 20] — InCS, OutCS, or in the middle of an exit
 *   or entry holding `lmin/mx` or `kmex/mx` (what the ttl is for);
 * - callers **paused past the ttl** during their call (probability 0.3, 13–24 time units, 0–4 after
 *   the call: in the middle of the inner MUTIN's Query or Acquire), and one seeded pause of anyone
 *   (5–20, in [0, 20]);
 * - one **partition** cutting a random minority for 13–20 time units, starting in [0, 20].
 * Every live process calls (an exit when InCS, an entry when OutCS; a call undone for an expired
 * grant, `TenureExpiredError`, is made again) until every live one has made `calls` calls.
 * Counted: the safety monitor's violations of `1 ≤ #InCS ≤ 3` on states (checked at every change:
 * the exclusion of the code; the simulator's clocks do not drift), and the live processes that had
 * not made their calls at the horizon — every live one can: the dead one is in no quorum, and with
 * it holding one of the k = 3 places the two left hold l + 1 = 2 (README, "Crash-stop, pauses and
 * partitions").
 */
import { type CSState, globalSpec, type ProcessId, TenureExpiredError } from '@critsec/core';
import { fromQuorums } from '@critsec/coteries';
import { createCluster } from '@critsec/harness';
import { gcs } from '../src/index.js';

/** P0 {0, 1}, P1 {0, 2}, P2 {1, 2}, P3 {0, 1}: P3 arbitrates nothing. */
const ttlCoterie = fromQuorums(4, [
  [0, 1],
  [0, 2],
  [1, 2],
  [0, 1],
]);

const N = 4;
const L = 1;
const K = 3;
const INITIAL: readonly CSState[] = ['InCS', 'OutCS', 'OutCS', 'OutCS'];

/** What one seed did. */
export interface TtlRunResult {
  /** Calls completed (exits and entries). */
  calls: number;
  /** Calls undone because the caller's grant of an inner mx expired (made again). */
  undone: number;
  /** Safety violations of the (1,3)-GCS seen by the monitor. */
  violations: number;
  /** Live processes that had not finished at the horizon. */
  stuck: ProcessId[];
  /** The process crash-stopped and its state then. */
  crashed: { p: ProcessId; state: CSState; busy: boolean } | null;
  /** Errors the objects reported. */
  errors: number;
}

/** One seed; `ttl: null` runs the paper's GCS under the same faults. */
export async function ttlRun(seed: number, calls: number, ttl: number | null = 12): Promise<TtlRunResult> {
  const cluster = createCluster({
    factory: gcs({ l: L, k: K, coterie: ttlCoterie, ...(ttl === null ? {} : { ttl }) }),
    spec: globalSpec(L, K, N),
    initial: INITIAL,
    seed,
    pauses: { count: 1, duration: [5, 20], window: 20 },
  });
  const { net, clocks } = cluster;
  const rng = net.rng('gcs-ttl-run');
  const r: TtlRunResult = { calls: 0, undone: 0, violations: 0, stuck: [], crashed: null, errors: 0 };
  const down = new Array<boolean>(N).fill(false);
  const victim = 3;
  net.schedule(
    rng.next() * 20,
    () => {
      const cs = cluster.objects[victim]!;
      r.crashed = { p: victim, state: cs.state, busy: cs.pending !== null };
      down[victim] = true;
      net.crash(victim);
      clocks.crashed(victim);
    },
    `P${victim} crash-stop`,
  );
  net.schedule(
    rng.next() * 20,
    () => net.partitions.random({ count: 1, gap: 1e-3, duration: 13 + rng.next() * 7 }),
    'partition',
  );
  const made = new Array<number>(N).fill(0);
  const finished = () => made.every((m, p) => m >= calls || down[p]);
  // every live process keeps calling until all have made `calls` (the paper's model: the next call
  // always comes), so a last exit never waits for entries that nobody would make
  const loop = async (id: ProcessId): Promise<void> => {
    const clock = clocks.clock(id);
    const sleep = (d: number) => new Promise<void>((resolve) => clock.setTimer(d, resolve));
    const cs = cluster.objects[id]!;
    while (!finished()) {
      await sleep(rng.next() * 4);
      const call = cs.state === 'InCS' ? cs.exit() : cs.entry();
      if (rng.next() < 0.3) clock.setTimer(rng.next() * 4, () => clocks.pause(id, 13 + rng.next() * 11));
      try {
        await call;
        made[id]!++;
        r.calls++;
      } catch (err) {
        if (!(err instanceof TenureExpiredError)) throw err;
        r.undone++;
      }
    }
  };
  const failures: unknown[] = [];
  for (let id = 0; id < N; id++) loop(id).catch((e: unknown) => (down[id] ? undefined : failures.push(e)));
  await net.run({ until: 20_000, stopWhen: () => finished() || failures.length > 0 });
  if (failures.length > 0) throw failures[0];
  r.violations = cluster.monitor.violations.length;
  r.stuck = made.flatMap((m, p) => (m >= calls || down[p] ? [] : [p]));
  r.errors = cluster.errors.length;
  await cluster.close();
  return r;
}

/** Sums of a batch of seeds. */
export interface TtlTotals {
  seeds: number;
  calls: number;
  undone: number;
  violations: number;
  stuck: number;
  errors: number;
  /** Crash-stops that hit a process InCS / in the middle of a call. */
  crashedInCS: number;
  crashedBusy: number;
  /** The first seeds with a violation, a stuck process or an error. */
  bad: number[];
}

/** Runs seeds `from..to` (inclusive) and sums them. */
export async function ttlBatch(from: number, to: number, calls: number): Promise<TtlTotals> {
  const t: TtlTotals = {
    ...{ seeds: 0, calls: 0, undone: 0, violations: 0, stuck: 0, errors: 0 },
    ...{ crashedInCS: 0, crashedBusy: 0, bad: [] as number[] },
  };
  for (let seed = from; seed <= to; seed++) {
    const r = await ttlRun(seed, calls);
    t.seeds++;
    t.calls += r.calls;
    t.undone += r.undone;
    t.violations += r.violations;
    t.stuck += r.stuck.length;
    t.errors += r.errors;
    if (r.crashed?.state === 'InCS') t.crashedInCS++;
    if (r.crashed?.busy === true) t.crashedBusy++;
    if ((r.violations || r.stuck.length || r.errors) && t.bad.length < 5) t.bad.push(seed);
  }
  return t;
}
