/**
 * Exhaustive schedule exploration with dynamic partial-order reduction (Flanagan & Godefroid,
 * POPL 2005, with sleep sets), for clusters in the simulator's controlled mode.
 *
 * Why not `exploreSchedules` of @critsec/testing: it enumerates interleavings (with state
 * deduplication), and the number of distinct global states of even MUTIN(1) over 3 processes is
 * in the millions (318,691 states visited in 282 s for its first 200 schedules). Deliveries to
 * different processes commute, so most of those interleavings are equivalent; DPOR explores one
 * schedule per equivalence class (Mazurkiewicz trace) instead.
 *
 * Model. A transition delivers the head of one FIFO link (from, to, channel) or fires the
 * invocation timer of one process (the workload below calls entry/exit from a zero-delay timer,
 * like `exploreSchedules`). A transition only touches its receiver's state (the handler and the
 * promise continuations it releases run in the receiver), appends to the receiver's outgoing
 * links and may flip the receiver's CS state. Transitions of different receivers are
 * independent. Two transitions of the same receiver are dependent iff their footprints meet: a
 * footprint is the set of the receiver's components (see `components`: e.g. lmin, lmin's mx,
 * kmex, kmex's mx and the composite itself) the transition is addressed to (by its channel) or
 * changed (by comparing `inspect()` snapshots before and after), plus the links it appended to.
 * This is sound when a transition reads no component it neither is addressed to nor changes —
 * true of the stacks explored here: handlers read their own object, and a call into another
 * object (compose, complement, mx) always changes that object's state or `pending`. Happens-before
 * (HB) is the transitive closure of: link FIFO order, send → delivery, timer set → timer fired,
 * and dependence in trace order.
 *
 * Safety is a property of configurations, which differ between linearizations of one trace: the
 * configurations that some linearization passes through are exactly the consistent cuts of the
 * trace's flip events (down-closed under HB). Each explored trace is therefore checked on all
 * its cuts (`checkCuts`: with each process's flips totally ordered, a cut is one prefix length
 * per process, (2·rounds + 1)^n candidates), not only on the configurations of the linearization
 * that was run.
 *
 * Soundness: DPOR (source sets and sleep sets) explores at least one linearization of every
 * Mazurkiewicz trace of the finite, acyclic state space (every process does a bounded number of
 * rounds); hence every reachable terminal state (deadlocks) and, with the cut check, every
 * reachable configuration (safety). `naive: true` turns the reduction off (every enabled
 * transition at every node), which the tests use to cross-check the terminal states found.
 */
import type { CSObject, Message, ProcessId } from '@critsec/core';
import { type ClusterOptions, createCluster, type SimCluster } from '@critsec/harness';

/** Options of {@link exploreDpor}. */
export interface DporOptions {
  readonly cluster: Omit<ClusterOptions<void>, 'mode' | 'delay' | 'linkDelay' | 'trace'>;
  /** Rounds (entry + exit) per process (default 1). */
  readonly rounds?: number;
  /** Stop after this many complete executions (default 1,000,000). */
  readonly maxExecutions?: number;
  /**
   * Cross-checking baselines without reduction: `true` explores every interleaving;
   * `'stateful'` every reachable state (depth first, skipping states already visited — the
   * fingerprint holds every component, the monitor, the workload and every queued message).
   */
  readonly naive?: boolean | 'stateful';
  /**
   * Splits one process's object into components by name (JSON-serializable snapshots). Default:
   * one component `'G'` holding `inspect()` (or state and pending) — every transition of a
   * process then depends on every other.
   */
  readonly components?: (o: CSObject) => Record<string, unknown>;
  /** The component a message is addressed to (default `'G'`). Timers address `'G'`. */
  readonly messageComponent?: (channel: string, msg: Message) => string;
  /** Stop after this much wall-clock time, in milliseconds (a budget; the result says `exhaustive: false`). */
  readonly maxMillis?: number;
  /** Called every `every` executions (default 100,000) with the running counts. */
  readonly onProgress?: (executions: number, transitions: number) => void;
}

/** A schedule that broke something. */
interface DporFailure {
  readonly kind: 'violation' | 'deadlock';
  readonly schedule: readonly string[];
  readonly message: string;
}

/** What {@link exploreDpor} covered. */
export interface DporResult {
  /** Distinct non-terminal states visited (`naive: 'stateful'` only). */
  readonly states: number;
  /** Complete executions explored (one per explored Mazurkiewicz trace, plus sleep-blocked ones). */
  readonly executions: number;
  /** Executions that ended with every process done. */
  readonly completed: number;
  /**
   * Executions that ended with unfinished processes none of which may move: each pending call
   * would break l ≤ #InCS ≤ k in the current configuration, and the processes that could make
   * room have finished their rounds and stopped (the papers' liveness assumes they keep cycling).
   */
  readonly frozen: number;
  /** Executions cut by sleep sets (redundant: an equivalent one is explored elsewhere). */
  readonly sleepBlocked: number;
  /** Transitions executed, replays included. */
  readonly transitions: number;
  /** Longest execution, in transitions. */
  readonly maxDepth: number;
  /** Distinct terminal states (fingerprints) reached. */
  readonly terminalStates: ReadonlySet<string>;
  readonly exhaustive: boolean;
  readonly failures: readonly DporFailure[];
}

interface Live {
  readonly cluster: SimCluster<void>;
  readonly done: number[];
  readonly expected: number;
  /** Event index (position in the trace) during which each queued message was sent, per link. */
  readonly sentAt: Map<string, number[]>;
  /** Event index during which each process's pending invocation timer was set. */
  readonly timerSetAt: Map<ProcessId, number>;
  current: number;
}

function linkKey(from: ProcessId, to: ProcessId, channel: string): string {
  return `m:${from}>${to}@${channel}`;
}

function build(options: DporOptions): Live {
  const cluster = createCluster<void>({ ...options.cluster, mode: 'controlled' });
  const rounds = options.rounds ?? 1;
  const live: Live = {
    cluster,
    done: new Array<number>(cluster.n).fill(0),
    expected: 2 * rounds,
    sentAt: new Map(),
    timerSetAt: new Map(),
    current: -1,
  };
  const net = cluster.net;
  net.onSend((m) => {
    const k = linkKey(m.from, m.to, m.channel);
    let q = live.sentAt.get(k);
    if (q === undefined) {
      q = [];
      live.sentAt.set(k, q);
    }
    q.push(live.current);
  });
  const loop = async (i: ProcessId) => {
    const cs = cluster.objects[i] as CSObject;
    while (live.done[i]! < live.expected) {
      const op = cs.state === 'OutCS' ? 'entry' : 'exit';
      await new Promise<void>((resolve) => net.schedule(0, resolve, `P${i} ${op}`));
      if (op === 'entry') await cs.entry();
      else await cs.exit();
      live.done[i]!++;
    }
  };
  for (let i = 0; i < cluster.n; i++) void loop(i);
  return live;
}

interface Enabled {
  readonly key: string;
  readonly receiver: ProcessId;
  readonly index: number;
  /** Channel and message of a delivery, undefined for a timer. */
  readonly message: { readonly channel: string; readonly msg: Message } | undefined;
}

function enabled(live: Live): Enabled[] {
  return live.cluster.net.pending().map((p, index) =>
    p.kind === 'message'
      ? {
          key: linkKey(p.from, p.to, p.channel),
          receiver: p.to,
          index,
          message: { channel: p.channel, msg: p.msg },
        }
      : {
          key: `t:${p.label.split(' ')[0]}`,
          receiver: Number(p.label.slice(1, p.label.indexOf(' '))),
          index,
          message: undefined,
        },
  );
}

/** Records timers set during the current event (each process has at most one pending). */
function noteTimers(live: Live): void {
  for (const p of live.cluster.net.pending()) {
    if (p.kind !== 'timer') continue;
    const proc = Number(p.label.slice(1, p.label.indexOf(' ')));
    if (!live.timerSetAt.has(proc)) live.timerSetAt.set(proc, live.current);
  }
}

/** One executed transition of the current trace. */
interface Event {
  readonly key: string;
  readonly receiver: ProcessId;
  /** Event that sent the message / set the timer (−1: before the first event). */
  readonly enabler: number;
  /** Previous event of the same link or timer thread (−1: none). */
  readonly prevSameThread: number;
  /** Changes of the receiver's monitored InCS count (+1 entered, −1 left), in order. */
  readonly flips: readonly (1 | -1)[];
  /** Components of the receiver it is addressed to or changed, and links it appended to. */
  readonly footprint: ReadonlySet<string>;
  /** Bitset of the events that happen before this one. */
  readonly hb: bigint;
}

/** A sleeping transition: its receiver and footprint (unchanged while it sleeps). */
interface Sleeper {
  readonly receiver: ProcessId;
  readonly footprint: ReadonlySet<string>;
}

function meets(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

function dependent(a: Sleeper, b: Sleeper): boolean {
  return a.receiver === b.receiver && meets(a.footprint, b.footprint);
}

interface Node {
  readonly enabled: readonly Enabled[];
  readonly backtrack: Set<string>;
  readonly done: Set<string>;
  /** Receiver and footprint of each explored child transition. */
  readonly footprints: Map<string, Sleeper>;
  readonly sleep: ReadonlyMap<string, Sleeper>;
}

function fingerprint(live: Live): string {
  const objects = live.cluster.objects.map((o) => {
    const f = (o as { inspect?: () => unknown }).inspect;
    return typeof f === 'function' ? f.call(o) : { state: o.state, pending: o.pending };
  });
  return JSON.stringify([objects, live.cluster.monitor.states, live.done]);
}

/** Explores every Mazurkiewicz trace of the cluster's workload (see the module comment). */
export async function exploreDpor(options: DporOptions): Promise<DporResult> {
  const maxExecutions = options.maxExecutions ?? 1_000_000;
  const components =
    options.components ??
    ((o: CSObject) => ({
      G: (o as { inspect?: () => unknown }).inspect?.() ?? { state: o.state, pending: o.pending },
    }));
  const messageComponent = options.messageComponent ?? (() => 'G');
  const snapshot = (o: CSObject): Map<string, string> =>
    new Map(Object.entries(components(o)).map(([k, v]) => [k, JSON.stringify(v)]));
  const naive = options.naive ?? false;
  const visited = new Set<string>();
  const deadline =
    options.maxMillis === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.maxMillis;
  const failures: DporFailure[] = [];
  const terminalStates = new Set<string>();
  const trace: Event[] = [];
  const stack: Node[] = [];
  let executions = 0;
  let completed = 0;
  let frozen = 0;
  let sleepBlocked = 0;
  let transitions = 0;
  let maxDepth = 0;
  let capped = false;

  const execute = async (live: Live, key: string): Promise<Event> => {
    const depth = trace.length;
    const e = enabled(live).find((x) => x.key === key);
    if (e === undefined) throw new Error(`replay diverged: ${key} is not enabled at depth ${depth}`);
    let enabler: number;
    if (key.startsWith('m:')) {
      enabler = live.sentAt.get(key)!.shift()!;
    } else {
      enabler = live.timerSetAt.get(e.receiver)!;
      live.timerSetAt.delete(e.receiver);
    }
    const footprint = new Set<string>([
      e.message === undefined ? 'G' : messageComponent(e.message.channel, e.message.msg),
    ]);
    const before = snapshot(live.cluster.objects[e.receiver]!);
    const offSend = live.cluster.net.onSend((m) => footprint.add(linkKey(m.from, m.to, m.channel)));
    const timersBefore = live.timerSetAt.has(e.receiver);
    const flips: (1 | -1)[] = [];
    const strangers: number[] = [];
    const offs = live.cluster.objects.map((o, p) =>
      o.on('statechange', (st) => {
        if (p !== e.receiver) strangers.push(p);
        flips.push(st === 'InCS' ? 1 : -1);
      }),
    );
    live.current = depth;
    await live.cluster.net.deliver(e.index);
    for (const off of offs) off();
    offSend();
    if (strangers.length > 0)
      throw new Error(`P${strangers[0]} flipped during a transition of P${e.receiver}`);
    noteTimers(live);
    transitions++;
    for (const [k, v] of snapshot(live.cluster.objects[e.receiver]!))
      if (before.get(k) !== v) footprint.add(k);
    if (live.timerSetAt.has(e.receiver) !== timersBefore || flips.length > 0) footprint.add('G');
    let prevSameThread = -1;
    for (let i = depth - 1; i >= 0; i--) {
      if (trace[i]!.key === key) {
        prevSameThread = i;
        break;
      }
    }
    let hb = 0n;
    const addPred = (d: number) => {
      if (d >= 0) hb |= trace[d]!.hb | (1n << BigInt(d));
    };
    addPred(enabler);
    addPred(prevSameThread);
    const me: Sleeper = { receiver: e.receiver, footprint };
    for (let i = 0; i < depth; i++) if (dependent(trace[i]!, me)) addPred(i);
    return { key, receiver: e.receiver, enabler, prevSameThread, flips, footprint, hb };
  };

  /**
   * Race detection for the newest event e_j (Source-DPOR, Abdulla et al., POPL 2014): for every
   * earlier event e_i in a race with it — dependent, not ordered before e_j by happens-before
   * except through their own conflict, and not happening before another such event — make sure
   * the node before e_i will also explore an initial of notdep(e_i).e_j, the events after e_i
   * that do not depend on it followed by e_j: one of them can be moved in front of e_i.
   */
  const detectRaces = (ev: Event): void => {
    const j = trace.length - 1;
    const bit = (set: bigint, i: number) => ((set >> BigInt(i)) & 1n) === 1n;
    let pre = 0n;
    for (const d of [ev.enabler, ev.prevSameThread]) if (d >= 0) pre |= trace[d]!.hb | (1n << BigInt(d));
    const candidates: number[] = [];
    for (let i = 0; i < j; i++) {
      const t = trace[i]!;
      if (dependent(t, ev) && !bit(pre, i)) candidates.push(i);
    }
    for (const i of candidates) {
      if (candidates.some((k) => k > i && bit(trace[k]!.hb, i))) continue; // not an immediate race
      const node = stack[i]!;
      const u: number[] = [];
      for (let k = i + 1; k < j; k++) if (!bit(trace[k]!.hb, i)) u.push(k);
      u.push(j);
      const initials = u
        .filter((k) => !u.some((k2) => k2 !== k && bit(trace[k]!.hb, k2)))
        .map((k) => trace[k]!.key);
      for (const key of initials) {
        if (!node.enabled.some((x) => x.key === key)) {
          throw new Error(`DPOR bookkeeping: initial ${key} is not enabled before event ${i}`);
        }
      }
      if (initials.some((key) => node.backtrack.has(key))) continue;
      const pick = initials.find((key) => !node.sleep.has(key));
      if (pick !== undefined) node.backtrack.add(pick);
    }
  };

  const replay = async (): Promise<Live> => {
    const live = build(options);
    await live.cluster.net.settle();
    noteTimers(live);
    for (let i = 0; i < trace.length; i++) {
      const ev = trace[i]!;
      const e = enabled(live).find((x) => x.key === ev.key);
      if (e === undefined) throw new Error(`replay diverged at depth ${i}: ${ev.key}`);
      if (ev.key.startsWith('m:')) live.sentAt.get(ev.key)!.shift();
      else live.timerSetAt.delete(e.receiver);
      live.current = i;
      await live.cluster.net.deliver(e.index);
      noteTimers(live);
      transitions++;
    }
    return live;
  };

  /**
   * Every configuration some linearization of the current trace passes through: one prefix of
   * each process's flips, down-closed under HB. Returns a violation message or null.
   */
  const checkCuts = (live: Live): string | null => {
    const spec = live.cluster.spec;
    if (spec.kind !== 'global') return null;
    const n = live.cluster.n;
    const byProc: { index: number; delta: 1 | -1 }[][] = Array.from({ length: n }, () => []);
    trace.forEach((t, index) => {
      for (const delta of t.flips) byProc[t.receiver]!.push({ index, delta });
    });
    const base = live.cluster.initial.filter((st) => st === 'InCS').length;
    // need[p][c][q]: how many of q's flips happen before p's c-th flip (c ≥ 1)
    const need = byProc.map((mine) =>
      mine.map(({ index }) =>
        byProc.map(
          (theirs) =>
            theirs.filter((f) => f.index !== index && ((trace[index]!.hb >> BigInt(f.index)) & 1n) === 1n)
              .length,
        ),
      ),
    );
    const c = new Array<number>(n).fill(0);
    const visitCut = (p: number): string | null => {
      if (p === n) {
        for (let a = 0; a < n; a++) {
          if (c[a] === 0) continue;
          const req = need[a]![c[a]! - 1]!;
          for (let b = 0; b < n; b++) if (req[b]! > c[b]!) return null;
        }
        let count = base;
        for (let a = 0; a < n; a++) for (let t = 0; t < c[a]!; t++) count += byProc[a]![t]!.delta;
        if (count < spec.l || count > spec.k) {
          return `a linearization of this trace reaches ${count} InCS (bounds ${spec.l}..${spec.k}) after flips ${c.map((x, a) => `P${a}:${x}`).join(' ')}`;
        }
        return null;
      }
      for (let x = 0; x <= byProc[p]!.length; x++) {
        c[p] = x;
        const v = visitCut(p + 1);
        if (v !== null) return v;
      }
      c[p] = 0;
      return null;
    };
    return visitCut(0);
  };

  const terminal = (live: Live): void => {
    if (options.onProgress !== undefined && (executions + 1) % 100_000 === 0)
      options.onProgress(executions + 1, transitions);
    const cut = checkCuts(live);
    if (cut !== null) failures.push({ kind: 'violation', schedule: trace.map((t) => t.key), message: cut });
    executions++;
    maxDepth = Math.max(maxDepth, trace.length);
    terminalStates.add(fingerprint(live));
    if (executions >= maxExecutions) capped = true;
    const { done, expected, cluster } = live;
    if (done.every((d) => d >= expected)) {
      completed++;
      return;
    }
    const spec = cluster.spec;
    const inCS = cluster.monitor.inCS;
    const stuck = cluster.objects.flatMap((o, i) => (done[i]! < expected ? [o] : []));
    const allowed = stuck.some((o) =>
      spec.kind !== 'global' ? true : o.pending === 'entry' ? inCS + 1 <= spec.k : inCS - 1 >= spec.l,
    );
    if (!allowed && stuck.every((o) => o.pending !== null)) {
      frozen++;
      return;
    }
    failures.push({
      kind: 'deadlock',
      schedule: trace.map((t) => t.key),
      message: `no event pending, not done: ${stuck.map((o) => `P${o.id} (${o.state}, ${o.pending ?? 'idle'})`).join(', ')}`,
    });
  };

  const visit = async (first: Live, sleep: Node['sleep']): Promise<void> => {
    const v = first.cluster.firstViolation;
    if (v !== null) {
      executions++;
      failures.push({ kind: 'violation', schedule: trace.map((t) => t.key), message: v.message });
      return;
    }
    const en = enabled(first);
    if (en.length === 0) {
      terminal(first);
      return;
    }
    if (naive === 'stateful') {
      const net = first.cluster.net.snapshot();
      const links = [...net.links]
        .map((l) => `${l.from}>${l.to}@${l.channel}:${JSON.stringify(l.queued)}`)
        .sort()
        .join('|');
      const fp = JSON.stringify([
        first.cluster.objects.map((o) => components(o)),
        first.cluster.monitor.states,
        first.done,
        [...net.timers].sort(),
        links,
      ]);
      if (visited.has(fp)) return;
      visited.add(fp);
      if (Date.now() > deadline) capped = true;
    }
    const node: Node = { enabled: en, backtrack: new Set(), done: new Set(), footprints: new Map(), sleep };
    stack.push(node);
    if (naive !== false) for (const x of en) node.backtrack.add(x.key);
    else {
      const start = en.find((x) => !sleep.has(x.key));
      if (start === undefined) {
        const cut = checkCuts(first);
        if (cut !== null)
          failures.push({ kind: 'violation', schedule: trace.map((t) => t.key), message: cut });
        sleepBlocked++;
        executions++;
        stack.pop();
        return;
      }
      node.backtrack.add(start.key);
    }
    let live: Live | undefined = first;
    if (Date.now() > deadline) capped = true;
    for (;;) {
      if (capped) break;
      const next = [...node.backtrack].find((k) => !node.done.has(k) && !sleep.has(k));
      if (next === undefined) break;
      node.done.add(next);
      const inst: Live = live ?? (await replay());
      live = undefined;
      const ev = await execute(inst, next);
      trace.push(ev);
      if (naive === false) detectRaces(ev);
      node.footprints.set(next, ev);
      const childSleep = new Map<string, Sleeper>();
      if (naive === false) {
        const candidates: [string, Sleeper][] = [...sleep];
        for (const k of node.done) if (k !== next) candidates.push([k, node.footprints.get(k)!]);
        for (const [k, u] of candidates) if (!dependent(u, ev)) childSleep.set(k, u);
      }
      await visit(inst, childSleep);
      trace.pop();
    }
    stack.pop();
  };

  const root = build(options);
  await root.cluster.net.settle();
  noteTimers(root);
  await visit(root, new Map());
  return {
    states: visited.size,
    executions,
    completed,
    frozen,
    sleepBlocked,
    transitions,
    maxDepth,
    terminalStates,
    exhaustive: !capped,
    failures,
  };
}
