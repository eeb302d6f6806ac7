/**
 * One seeded run of Maekawa with quorum reselection (issue 28 §4) in the simulator, shared by
 * `reselect.test.ts` and `reselect.long.test.ts`. Scenarios:
 *
 * - `crash`: one member crash-stops (never restarts) at a seeded instant when it holds and asks
 *   for nothing (idle OutCS: without time-bounded grants a member that dies holding a lock keeps
 *   it); the failure detector suspects it after `suspectAfter` time units and every live process
 *   must still complete its rounds.
 * - `partition`: one seeded member is cut off (both ways) while it holds and asks for nothing,
 *   for 8 time units, then healed — twice when the run lasts long enough; the majority side's entries during each cut are counted.
 * - `wrong`: no failure at all, but every process suspects seeded live processes for a while
 *   (its `ctx.suspicions` replaced by a flapping one): wrong suspicions must neither break
 *   safety nor stop anyone.
 */
import { type CSFactory, mutexSpec, type ProcessId, type Suspicions } from '@critsec/core';
import { createRng } from '@critsec/core';
import type { Coterie } from '@critsec/coteries';
import { createCluster, describeFailure, runWorkload, type SimCluster } from '@critsec/harness';
import { maekawa, type MaekawaSnapshot } from '../src/index.js';

/** What a run does besides the workload. */
export type ReselectScenario = 'crash' | 'partition' | 'wrong';

/** What one run showed. */
export interface ReselectOutcome {
  /** Entries completed (counted rounds). */
  readonly entries: number;
  /** Live processes that did not finish their rounds (must be 0). */
  readonly stuck: number;
  /** The failure's description when something broke (a violation, a stuck live process), else null. */
  readonly failure: string | null;
  /**
   * Per cut (partition scenario) while the majority side still had counted rounds to do after it:
   * the entries it completed while the cut lasted.
   */
  readonly duringCuts: readonly number[];
  /** The member crashed or cut off. */
  readonly victim: ProcessId;
  /**
   * The fault happened (always for `wrong`): the victim held and asked for nothing at some poll
   * before the run's virtual-time budget — rarely not, under heavy contention.
   */
  readonly faulted: boolean;
}

const SUSPECT_AFTER = 2;

/** A flapping `Suspicions`: seeded live processes suspected from time to time, all trusted after `until`. */
function flapping(
  cluster: () => SimCluster,
  id: ProcessId,
  n: number,
  seed: number,
  until: number,
): Suspicions {
  const rng = createRng(seed * 31 + id);
  let now: ReadonlySet<ProcessId> = new Set();
  const fns = new Set<() => void>();
  const change = (next: ReadonlySet<ProcessId>) => {
    now = next;
    for (const fn of fns) fn();
  };
  const step = () => {
    const t = cluster().net.now;
    if (t >= until) return change(new Set());
    const s = new Set<ProcessId>();
    for (let p = 0; p < n; p++) if (p !== id && rng.next() < 0.25) s.add(p);
    change(s);
    cluster().net.schedule(0.5 + rng.next() * 3, step, 'flap');
  };
  queueMicrotask(() => cluster().net.schedule(rng.next() * 2, step, 'flap'));
  const onChange = (fn: () => void) => {
    fns.add(fn);
    return () => void fns.delete(fn);
  };
  return { suspected: () => now, onChange };
}

/** Runs `scenario` on `coterie` for one seed; `rounds` per process. */
export async function runReselect(
  coterie: Coterie,
  scenario: ReselectScenario,
  seed: number,
  rounds: number,
): Promise<ReselectOutcome> {
  const n = coterie.n;
  const base = maekawa({ coterie, reselect: true });
  let cluster: SimCluster | undefined;
  const factory: CSFactory =
    scenario === 'wrong'
      ? (ctx) => base({ ...ctx, suspicions: flapping(() => cluster!, ctx.id, n, seed, 6 * rounds) })
      : base;
  cluster = createCluster({ factory, spec: mutexSpec(n), seed, suspectAfter: SUSPECT_AFTER });
  const c = cluster;
  const rng = createRng(seed ^ 0x5eed);
  const victim = rng.int(n);
  const snap = (p: ProcessId) => (c.objects[p] as unknown as { inspect(): MaekawaSnapshot }).inspect();
  /** The victim asks for nothing (crash: what it sent before still arrives)… */
  const asksNothing = () => snap(victim).requester.request === -1 && c.objects[victim]!.state === 'OutCS';
  /** …and, for a cut (which holds messages in flight too), no arbiter holds or queues anything of it. */
  const idle = () =>
    asksNothing() &&
    (scenario === 'crash' ||
      c.objects.every((_, p) => {
        const a = snap(p).arbiter;
        return a.grantedTo !== victim && a.queue.every(([q]) => q !== victim);
      }));
  /** Calls `fn` at the first instant ≥ `at` when the victim is idle (polled every 0.1 time units). */
  const whenIdle = (at: number, fn: () => void) => {
    const poll = () => {
      if (idle()) fn();
      else if (c.net.now < horizon) c.net.schedule(0.1, poll, 'poll');
    };
    c.net.schedule(at, poll, 'poll');
  };
  const cuts: { start: number; end: number }[] = [];
  const horizon = 25 * rounds; // virtual-time budget of the run (time units)
  let crashed = false;
  if (scenario === 'crash')
    whenIdle(rng.next() * 4 * rounds, () => {
      crashed = true;
      c.net.crash(victim);
    });
  if (scenario === 'partition') {
    const cutOnce = (at: number, left: number) =>
      whenIdle(at, () => {
        const cut = { start: c.net.now, end: Number.POSITIVE_INFINITY };
        cuts.push(cut);
        c.net.partitions.cut([[victim]]);
        c.net.schedule(8, () => {
          c.net.partitions.heal();
          cut.end = c.net.now;
          if (left > 1) cutOnce(2 + rng.next() * 4, left - 1);
        });
      });
    cutOnce(1 + rng.next() * 4, 2);
  }
  const r = await runWorkload(c, { rounds, think: 2, hold: 0.5, maxTime: horizon });
  await c.net.run(); // a heal still pending once the workload finished
  const stuck = r.stuck.filter((s) => !(crashed && s.process === victim));
  const faulted = scenario === 'wrong' || (scenario === 'crash' ? crashed : cuts.length > 0);
  const broken = r.violation !== null || stuck.length > 0 || c.errors.length > 0;
  const live = (x: (typeof r.records)[number]) => x.op === 'entry' && x.process !== victim;
  const entriesIn = (w: { start: number; end: number }) =>
    r.records.filter((x) => x.op === 'entry' && x.process !== victim && x.end >= w.start && x.end <= w.end)
      .length;
  const name = `maekawa reselect ${coterie.description} (${scenario}, P${victim})`;
  return {
    entries: r.entries,
    stuck: stuck.length,
    failure: broken
      ? `${describeFailure(name, r)}; errors: ${c.errors.map((e) => String(e.error)).join('; ')}`
      : null,
    // a cut counts while the majority side still had counted rounds to do after it
    duringCuts: cuts
      .filter((w) => r.records.some((x) => live(x) && !x.extra && x.end > w.end))
      .map(entriesIn),
    victim,
    faulted,
  };
}
