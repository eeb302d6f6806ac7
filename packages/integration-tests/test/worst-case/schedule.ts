/**
 * One worst-case schedule, replayed exactly (issue 14, "worst-case schedules"): a per-process list
 * of invocation offsets and a per-link delay matrix fully determine a timed simulator run (every
 * delay a constant, no random draw anywhere), so a schedule is data that can be searched, pinned
 * and replayed.
 *
 * The two time measures, named as in the papers:
 * - **invocation-to-completion** — the global-CS paper's "waiting time" (Kamei & Kakugawa 2019,
 *   Sec. 3.3): from the invocation of Exit() (Entry()) to the process actually exiting (entering),
 *   each message taking (at most) one time unit. Lemma 4 bounds it by 7 for MUTIN(l), Theorem 4
 *   by 9 for (l,k)-GCS; both proofs count the message chain of one call that waits for nobody, so
 *   the bounds speak of the uncontended call.
 * - **synchronization delay** — Singhal's measure (the paper's footnote 1, reference [22]: "the
 *   time required after a site leaves the CS and before the next site enters"; for Maekawa 2 at
 *   least): for a call in flight when another process changed state, the time from the last such
 *   state change before the call's own to the call's own state change — for mutual exclusion
 *   exactly "from one process's exit to the next waiting process's entry"; for MUTIN's blocking
 *   Exit(), from the last entry or exit of another process to the waiting leaver's exit. Calls
 *   during which nobody else changed state have none.
 *
 * Messages per pair are causal (`attribution: true`): every message is charged to the invocation
 * whose message chain caused it, the k-th entry of a process paired with its k-th exit.
 */
import type { CSFactory, CSObject, ProblemSpec, ProcessId } from '@critsec/core';
import { globalSpec, mutexSpec } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { gcs, kMutex } from '@critsec/gcs';
import { maekawa } from '@critsec/mutex';
import { mutin } from '@critsec/mutin';
import type { Rng } from '@critsec/core';
import {
  callObject,
  createCluster,
  type InvocationRecord,
  objectProcess,
  perPairMessages,
  simulatedClock,
  WorkloadEngine,
} from '@critsec/harness';
import { constantDelay } from '@critsec/transport-sim';

/** An algorithm under search at small n, with the paper's bounds for it. */
interface WorstCaseCase {
  readonly name: string;
  readonly n: number;
  readonly factory: () => CSFactory;
  readonly spec: ProblemSpec;
  /** Largest quorum |Q| of the coterie. */
  readonly q: number;
  /**
   * The lemmas' worst case of messages per exit+entry pair: Maekawa's worst per CS (6|Q|:
   * REQUEST, LOCKED, RELEASE, INQUIRE, FAILED, RELINQUISH to each member, group-mutex paper
   * Sec. 4.1) plus, per MUTIN layer, Lemma 3's 6|Q| (Query, Response1, Acquire, Ack, Release,
   * Response2).
   */
  readonly messageBound: number;
  /** The paper's bound on the invocation-to-completion time of an uncontended call, per op. */
  readonly waitingBound: { readonly entry: number; readonly exit: number };
}

const maj3 = majority(3);

/** The searched algorithms: MUTIN(1), 2-mutex (= Co-MUTIN(1)), (1,2)-GCS, and Maekawa as mx. */
export const CASES: Readonly<Record<string, WorstCaseCase>> = {
  maekawa: {
    name: 'Maekawa over majority(3)',
    n: 3,
    factory: () => maekawa({ coterie: maj3 }),
    spec: mutexSpec(3),
    q: 2,
    messageBound: 6 * 2,
    waitingBound: { entry: 2, exit: 1 },
  },
  mutin: {
    name: 'MUTIN(1) over majority(3)',
    n: 3,
    factory: () => mutin({ l: 1, coterie: maj3 }),
    spec: globalSpec(1, 3, 3),
    q: 2,
    messageBound: 6 * 2 + 6 * 2,
    waitingBound: { entry: 2, exit: 7 },
  },
  kmutex: {
    name: '2-mutex (Co-MUTIN(1)) over majority(3)',
    n: 3,
    factory: () => kMutex({ k: 2, coterie: maj3 }),
    spec: globalSpec(0, 2, 3),
    q: 2,
    messageBound: 6 * 2 + 6 * 2,
    waitingBound: { entry: 7, exit: 2 },
  },
  gcs: {
    name: '(1,2)-GCS over majority(3)',
    n: 3,
    factory: () => gcs({ l: 1, k: 2, coterie: maj3 }),
    spec: globalSpec(1, 2, 3),
    q: 2,
    messageBound: 2 * (6 * 2 + 6 * 2),
    waitingBound: { entry: 9, exit: 9 },
  },
};

/** A replayable schedule: invocation offsets and link delays, in time units. */
export interface Schedule {
  /** Key of {@link CASES}. */
  readonly case: string;
  /**
   * `at[i][c]`: the time process i invokes its c-th call — or, if its previous call completes
   * later, at that completion. Its calls alternate from its initial state; after the last one it
   * makes no more.
   */
  readonly at: readonly (readonly number[])[];
  /** `delays[from][to]`: the constant delay of the link from → to, self-links included. */
  readonly delays: readonly (readonly number[])[];
}

/** What one schedule produced (counted calls only). */
export interface Figures {
  /**
   * No violation, and every call completed except those the workload stranded: a call still
   * pending when the network went quiet whose move the problem forbids in the final
   * configuration (e.g. the last InCS process of MUTIN(1) exiting after the others finished).
   * A pending call whose move is allowed is a protocol failure.
   */
  readonly ok: boolean;
  readonly failure: string | null;
  /** Calls stranded by the workload (see `ok`). */
  readonly stranded: number;
  /** Messages per exit+entry pair (causal attribution). */
  readonly perPair: { readonly count: number; readonly mean: number; readonly max: number };
  /** Synchronization delay (see the module comment): max, and how many calls had one. */
  readonly sync: { readonly max: number; readonly count: number };
  /** Invocation-to-completion, max per op. */
  readonly waiting: { readonly entry: number; readonly exit: number };
  /** Simulator events of the run (the search's state measure). */
  readonly events: number;
}

/**
 * An `Rng` whose draws are the sleeps to the scripted invocation times (the engine sleeps
 * `next()·2·0.5` time units before each call).
 */
function scriptedRng(at: readonly number[], now: () => number): Rng {
  let c = 0;
  const refuse = (): never => {
    throw new Error('scripted schedule: only next() is drawn');
  };
  return {
    next: () => Math.max(0, (at[c++] ?? NEVER) - now()),
    int: refuse,
    pick: refuse,
    chance: refuse,
    fork: refuse,
  };
}

/** The time of the call after the last one: never, the run ends first. */
const NEVER = 1e9;

interface Flip {
  readonly p: ProcessId;
  readonly s: 'InCS' | 'OutCS';
  readonly t: number;
}

/**
 * Synchronization delays of the counted calls, from the timeline of calls and state changes (in
 * the order they happened): for each call that was in flight when another process last changed
 * state before the call's own state change, the time between the two.
 */
function syncDelays(
  timeline: readonly ({ kind: 'call'; rec: InvocationRecord } | ({ kind: 'flip' } & Flip))[],
): number[] {
  const open = new Map<ProcessId, { rec: InvocationRecord; lastOther: number | undefined }>();
  const out: number[] = [];
  for (const ev of timeline) {
    if (ev.kind === 'call') {
      open.set(ev.rec.process, { rec: ev.rec, lastOther: undefined });
      continue;
    }
    const mine = open.get(ev.p);
    if (mine !== undefined) {
      open.delete(ev.p);
      if (mine.lastOther !== undefined && !mine.rec.extra) out.push(ev.t - mine.lastOther);
    }
    for (const [i, c] of open) if (i !== ev.p) c.lastOther = ev.t;
  }
  return out;
}

/** The pending calls at the end, split into stranded (move forbidden) and stuck (allowed). */
function strandedCalls(
  objects: readonly CSObject<unknown>[],
  states: readonly string[],
  l: number,
  k: number,
): { stranded: number; stuck: string[] } {
  const count = states.filter((st) => st === 'InCS').length;
  let stranded = 0;
  const stuck: string[] = [];
  for (const o of objects) {
    if (o.pending === null) continue;
    const others = count - (states[o.id] === 'InCS' ? 1 : 0);
    const allowed = o.pending === 'entry' ? others + 1 <= k : others >= l;
    if (allowed) stuck.push(`P${o.id} ${o.pending}`);
    else stranded++;
  }
  return { stranded, stuck };
}

/**
 * Replays a schedule: a timed simulator run with constant per-link delays, the workload engine
 * driving the scripted offsets, causal message attribution on.
 * @throws Error for a schedule whose shape does not fit its case.
 */
export async function runSchedule(s: Schedule): Promise<Figures> {
  const c = CASES[s.case];
  if (c === undefined) throw new Error(`unknown case '${s.case}'`);
  if (s.at.length !== c.n || s.delays.length !== c.n || s.delays.some((r) => r.length !== c.n))
    throw new Error(`schedule for ${s.case}: need ${c.n} invocation lists and a ${c.n}×${c.n} delay matrix`);
  const spec = c.spec;
  const [l, k] = spec.kind === 'global' ? [spec.l, spec.k] : [0, 1];
  const cluster = createCluster({
    factory: c.factory(),
    spec: c.spec,
    attribution: true,
    linkDelay: (from, to) => constantDelay(s.delays[from]![to]!),
  });
  const net = cluster.net;
  const attribution = cluster.attribution!;
  const timeline: ({ kind: 'call'; rec: InvocationRecord } | ({ kind: 'flip' } & Flip))[] = [];
  for (const o of cluster.objects)
    o.on('statechange', (st) => {
      timeline.push({ kind: 'flip', p: o.id, s: st, t: net.now });
    });
  const calls = s.at.map((o) => o.length);
  const rounds = Math.max(...calls) / 2;
  if (!Number.isInteger(rounds) || calls.some((k) => k !== 2 * rounds))
    throw new Error(`schedule for ${s.case}: every process needs the same even number of calls`);
  const engine = new WorkloadEngine(
    cluster.objects.map((o, i) =>
      objectProcess(
        o,
        scriptedRng(s.at[i]!, () => net.now),
      ),
    ),
    {
      clock: simulatedClock(net),
      rounds,
      think: 0.5,
      hold: 0.5,
      invoke: (rec, signal, index) => {
        timeline.push({ kind: 'call', rec });
        return attribution.run(index, () => callObject(cluster.objects[rec.process]!, rec, signal));
      },
      onAllFinished: () => net.stop(),
      onFailure: () => net.stop(),
      halted: () => cluster.firstViolation !== null,
    },
  );
  const off = attribution.onCharge((index) => engine.records[index]!.messages++);
  void engine.runConcurrent();
  const run = await net.run({ maxEvents: 200_000, until: NEVER / 2 });
  off();
  const { stranded, stuck } = strandedCalls(cluster.objects, cluster.monitor.states, l, k);
  const counted = engine.records.filter((r) => !r.extra && !r.aborted && !Number.isNaN(r.end));
  const wait = (op: 'entry' | 'exit') =>
    Math.max(0, ...counted.filter((r) => r.op === op).map((r) => r.end - r.start));
  const sync = syncDelays(timeline);
  const pp = perPairMessages(engine.records, c.n);
  const failure =
    cluster.firstViolation?.message ??
    engine.failure ??
    (run.reason !== 'until' && run.reason !== 'stopped' ? `run ended: ${run.reason}` : null) ??
    (stuck.length > 0 ? `stuck with the move allowed: ${stuck.join(', ')}` : null);
  await cluster.close();
  return {
    ok: failure === null,
    failure,
    stranded,
    perPair: { count: pp.count, mean: pp.mean, max: pp.max },
    sync: { max: Math.max(0, ...sync), count: sync.length },
    waiting: { entry: wait('entry'), exit: wait('exit') },
    events: run.events,
  };
}
