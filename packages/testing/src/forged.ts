/**
 * The extreme-value property check (issue 15, "one forged message deadlocks the cluster"): **no
 * message a validator accepts may put the receiver in a state whose own outgoing messages fail
 * validation.** {@link extremeValueCheck} runs a seeded cluster over the simulator, takes a REAL
 * message of every type the run sends, replaces one numeric field at a time by an extreme value
 * its protocol's schema still accepts, delivers that variant instead of the original (from the
 * real sender, on the real channel, at the real instant) and then watches the rest of the run.
 *
 * ## What is checked
 *
 * (a) **Validity, every field:** every message any process sends after the forged one passes the
 *     validator of its channel, and no process reports a dropped invalid message.
 * (b) **Finishing**, by the field's {@link ForgedFieldClass}:
 *     - `'clock'` — a Lamport clock, ordering information only (e.g. Maekawa's `ts`): the
 *       workload must complete exactly as an honest one — every process finishes its rounds,
 *       safety holds, within the event budget, no handler throws.
 *     - `'tag'` — anything that names or counts protocol events (request tags, sequence numbers,
 *       priorities echoed back in replies, group ids, unit counts, process ids in a list). A
 *       forged value there is a forged grant, a forged release or a lost request: it may
 *       legitimately break progress or safety (the real message was replaced). Required: no
 *       **message storm** — the run ends (the network goes quiet, the workload completes or
 *       safety stops it) within the event budget, or, if the budget is spent (processes that
 *       finished keep cycling while one is stuck), some process still changed state in the last
 *       half of it — and no handler throws.
 *
 * The event budget is `budgetFactor` × the events of the honest run with the same seed.
 * @packageDocumentation
 */
import type { CSFactory, CSState, Endpoint, Message, ProblemSpec, ProcessId, Rng } from '@critsec/core';
import { CLOCK_MAX } from '@critsec/transport';
import { createCluster } from '@critsec/harness';
import { runWorkload } from '@critsec/harness';

/** How strictly a forged field is judged (see the module TSDoc): `'clock'` or `'tag'`. */
export type ForgedFieldClass = 'clock' | 'tag';

/** One forgeable numeric field: a message type on a channel and a path into the message. */
export interface ForgedSite {
  /** Channel path (`''` root, `'mx'`, `'lmin/mx'`, …). */
  readonly channel: string;
  /** The message's `type`. */
  readonly type: string;
  /** Dotted path of the numeric field (`'ts'`, `'procsInCS.0'`). */
  readonly field: string;
}

/** What the check needs of a protocol: its validator (every `Protocol` of `@critsec/transport` is one). */
export interface MessageValidator {
  /** True when `msg` is a valid message of the protocol (the receiver's own check). */
  is(msg: unknown): boolean;
}

/** Options of {@link extremeValueCheck}. */
export interface ExtremeValueOptions<Req = void> {
  /** Names the protocol in failures. */
  readonly label: string;
  /** The algorithm under test. */
  readonly factory: CSFactory<Req>;
  /** Its problem (cluster size `spec.n`). */
  readonly spec: ProblemSpec;
  /** Initial configuration (default: the cluster's default). */
  readonly initial?: readonly CSState[];
  /** Requests held initially by processes InCS. */
  readonly initialRequests?: readonly unknown[];
  /** Request draw of the workload (h-out-of-k units, groups). */
  readonly request?: (rng: Rng, id: ProcessId, round: number) => Req;
  /** The validator of every channel the algorithm uses, by channel path. */
  readonly protocols: Readonly<Record<string, MessageValidator>>;
  /** Classifies a field (default: every field is a `'tag'`). */
  readonly classify?: (site: ForgedSite) => ForgedFieldClass;
  /** Seeds of the network and workload. */
  readonly seeds: readonly number[];
  /** Rounds per process of the concurrent workload (default 3). */
  readonly rounds?: number;
  /** Event budget as a multiple of the honest run's events (default 20). */
  readonly budgetFactor?: number;
}

/** One forged delivery that broke the rule, with everything needed to replay it. */
export interface ForgedFailure extends ForgedSite {
  /** The run's seed. */
  readonly seed: number;
  /** Index of the replaced message among all sends of the run (0-based). */
  readonly sendIndex: number;
  /** Sender of the forged message. */
  readonly from: ProcessId;
  /** Its receiver. */
  readonly to: ProcessId;
  /** The extreme value put in the field. */
  readonly value: number;
  /** How strictly the field was judged: `'clock'` or `'tag'`. */
  readonly fieldClass: ForgedFieldClass;
  /** What went wrong. */
  readonly why: string;
}

/** What {@link extremeValueCheck} did. */
export interface ExtremeValueReport {
  /** Forged runs (seeds × messages × fields × accepted values). */
  readonly runs: number;
  /** Variants the protocol's own validator rejected (not delivered). */
  readonly rejected: number;
  /** Forged runs per `channel TYPE.field` (`'clock'` sites marked with a `*`). */
  readonly perSite: Readonly<Record<string, number>>;
  /** The message types seen per channel (`'mx'` → `['LOCKED', …]`). */
  readonly types: Readonly<Record<string, readonly string[]>>;
  /** Every failure, as one line each (seed, channel, type, field, value, what went wrong). */
  readonly failures: readonly string[];
  /** The same, structured. */
  readonly details: readonly ForgedFailure[];
}

/** A message to replace: the `sendIndex`-th send of the run. */
interface Target {
  readonly sendIndex: number;
  readonly from: ProcessId;
  readonly to: ProcessId;
  readonly channel: string;
  readonly type: string;
  readonly msg: Message;
}

/** The numeric leaves of a message (top level, and one level into arrays/objects), as paths. */
function numericFields(msg: Message, prefix = '', depth = 0): string[] {
  const out: string[] = [];
  for (const [k, val] of Object.entries(msg)) {
    const path = prefix === '' ? k : `${prefix}.${k}`;
    if (typeof val === 'number') out.push(path);
    else if (depth < 2 && val !== null && typeof val === 'object') {
      out.push(...numericFields(val as Message, path, depth + 1));
    }
  }
  return out;
}

/** A deep copy of `msg` with the number at `path` replaced by `value`. */
function withField(msg: Message, path: string, value: number): Message {
  const copy = structuredClone(msg) as Record<string, unknown>;
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
  node[keys[keys.length - 1]!] = value;
  return copy as Message;
}

function fieldOf(msg: Message, path: string): number {
  let node: unknown = msg;
  for (const k of path.split('.')) node = (node as Record<string, unknown>)[k];
  return node as number;
}

/** Largest (or smallest) accepted value on the side of `from` (acceptance assumed an interval). */
function schemaBound(ok: (x: number) => boolean, from: number, up: boolean): number {
  let good = from;
  let bad = up ? CLOCK_MAX + 1 : -1;
  if (up && ok(CLOCK_MAX)) return CLOCK_MAX;
  if (!up && ok(0)) return 0;
  while (Math.abs(bad - good) > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (ok(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/**
 * The extreme values tried for one field: 0, 1, the boundary ids `n − 1` and `n`, `CLOCK_MAX − 1`,
 * `CLOCK_MAX`, the schema's own bounds around the real value, and the real value ± 1 — keeping
 * those the protocol's validator accepts in the message and that differ from the real value.
 */
function extremeValues(
  msg: Message,
  field: string,
  n: number,
  protocol: MessageValidator,
): { accepted: number[]; rejected: number } {
  const orig = fieldOf(msg, field);
  const ok = (x: number) => protocol.is(withField(msg, field, x));
  const candidates = new Set([0, 1, n - 1, n, CLOCK_MAX - 1, CLOCK_MAX, orig - 1, orig + 1]);
  if (Number.isSafeInteger(orig) && ok(orig)) {
    candidates.add(schemaBound(ok, orig, true));
    candidates.add(schemaBound(ok, orig, false));
  }
  candidates.delete(orig);
  const accepted: number[] = [];
  let rejected = 0;
  for (const x of [...candidates].sort((a, b) => a - b)) {
    if (x >= 0 && ok(x)) accepted.push(x);
    else rejected++;
  }
  return { accepted, rejected };
}

/** Wraps an endpoint so that `substitute` may replace a message on its way to a handler. */
class ForgingEndpoint implements Endpoint {
  readonly #inner: Endpoint;
  readonly #substitute: (channel: string, from: ProcessId, msg: Message) => Message;
  readonly #children = new Map<string, ForgingEndpoint>();

  constructor(inner: Endpoint, substitute: (channel: string, from: ProcessId, msg: Message) => Message) {
    this.#inner = inner;
    this.#substitute = substitute;
  }

  get self(): ProcessId {
    return this.#inner.self;
  }

  get peers(): readonly ProcessId[] {
    return this.#inner.peers;
  }

  get path(): string {
    return this.#inner.path;
  }

  send(to: ProcessId, msg: Message): void {
    this.#inner.send(to, msg);
  }

  onMessage(fn: (from: ProcessId, msg: Message) => void): () => void {
    const path = this.#inner.path;
    return this.#inner.onMessage((from, msg) => fn(from, this.#substitute(path, from, msg)));
  }

  channel(name: string): Endpoint {
    let c = this.#children.get(name);
    if (c === undefined) {
      c = new ForgingEndpoint(this.#inner.channel(name), this.#substitute);
      this.#children.set(name, c);
    }
    return c;
  }
}

/** One run: honest when `forge` is undefined. Returns the sends (honest) or the failure (forged). */
async function runOnce<Req>(
  o: ExtremeValueOptions<Req>,
  seed: number,
  forge:
    | { target: Target; field: string; value: number; fieldClass: ForgedFieldClass; budget: number }
    | undefined,
): Promise<{ sends: Target[]; events: number; why: string | null }> {
  const sends: Target[] = [];
  let replaced: { from: ProcessId; to: ProcessId; msg: Message; forged: Message } | undefined;
  const problems: string[] = [];
  const factory: CSFactory<Req> = (ctx) =>
    o.factory({
      ...ctx,
      endpoint: new ForgingEndpoint(ctx.endpoint, (channel, from, msg) =>
        replaced !== undefined &&
        msg === replaced.msg &&
        from === replaced.from &&
        ctx.id === replaced.to &&
        channel === forge?.target.channel
          ? replaced.forged
          : msg,
      ),
    });
  const cluster = createCluster({
    factory,
    spec: o.spec,
    initial: o.initial,
    initialRequests: o.initialRequests,
    seed,
  });
  // deliveries at the last state change: a budget spent with no state change in its second half
  // is a message storm; one spent while processes keep entering is the workload cycling
  let lastChange = 0;
  for (const obj of cluster.objects)
    obj.on('statechange', () => (lastChange = cluster.net.counters().delivered));
  let index = 0;
  cluster.net.onSend((m) => {
    const i = index++;
    const type = String((m.msg as { type?: unknown }).type);
    if (forge === undefined)
      sends.push({ sendIndex: i, from: m.from, to: m.to, channel: m.channel, type, msg: m.msg });
    else if (i === forge.target.sendIndex) {
      const forged = withField(m.msg, forge.field, forge.value);
      replaced = { from: m.from, to: m.to, msg: m.msg, forged };
    } else if (i > forge.target.sendIndex) {
      const p = o.protocols[m.channel];
      if (p === undefined) problems.push(`P${m.from} sent on unmapped channel '${m.channel}'`);
      else if (!p.is(m.msg)) problems.push(`P${m.from} → P${m.to} sent invalid ${JSON.stringify(m.msg)}`);
    }
  });
  let why: string | null = null;
  let events = 0;
  try {
    const r = await runWorkload(cluster, {
      rounds: o.rounds ?? 3,
      request: o.request,
      maxEvents: forge?.budget,
    });
    events = r.events;
    const dropped = cluster.errors.filter((e) => /invalid message|unknown process/.test(e.error.message));
    if (dropped.length > 0) problems.push(`P${dropped[0]!.process} dropped: ${dropped[0]!.error.message}`);
    if (forge !== undefined && forge.fieldClass === 'clock' && !r.ok)
      problems.push(r.failure ?? 'safety violated');
    const storm = r.failure?.startsWith('budget') && r.messages.delivered - lastChange > r.events / 2;
    if (forge !== undefined && forge.fieldClass === 'tag' && storm) {
      problems.push(`message storm: ${r.messages.delivered - lastChange} deliveries without a state change`);
    }
    if (forge === undefined && !r.ok) problems.push(`honest run failed: ${r.failure ?? 'safety violated'}`);
  } catch (err) {
    problems.push(`a handler threw: ${(err as Error).message}`);
  } finally {
    await cluster.close();
  }
  if (problems.length > 0) why = problems.slice(0, 2).join('; ');
  return { sends, events, why };
}

/** The messages to forge in one seed's honest run: the first and the middle send of every (channel, type). */
function pickTargets(sends: readonly Target[]): Target[] {
  const byKind = new Map<string, Target[]>();
  for (const s of sends) {
    const key = `${s.channel}\u0000${s.type}`;
    const list = byKind.get(key) ?? [];
    list.push(s);
    byKind.set(key, list);
  }
  const out: Target[] = [];
  for (const list of byKind.values()) {
    out.push(list[0]!);
    const mid = list[Math.floor(list.length / 2)]!;
    if (mid !== list[0]) out.push(mid);
  }
  return out.sort((a, b) => a.sendIndex - b.sendIndex);
}

/**
 * Runs the extreme-value property check (see the module TSDoc for what it requires): for every
 * seed, an honest run records every send; then for the first and the middle message of every
 * (channel, type), every numeric field and every extreme value the channel's validator accepts,
 * a fresh run with the same seed delivers the variant in place of the real message.
 *
 * @returns the report; `failures` is empty when the rule holds. Each failure names the seed, the
 *   send index, sender and receiver, channel, type, field, value and what went wrong.
 * @throws Error if the honest run of a seed fails, or a message's channel has no validator in
 *   `protocols` (the check would be incomplete).
 */
export async function extremeValueCheck<Req = void>(
  o: ExtremeValueOptions<Req>,
): Promise<ExtremeValueReport> {
  const classify = o.classify ?? (() => 'tag' as const);
  const perSite: Record<string, number> = {};
  const types: Record<string, Set<string>> = {};
  const details: ForgedFailure[] = [];
  let runs = 0;
  let rejected = 0;
  for (const seed of o.seeds) {
    const honest = await runOnce(o, seed, undefined);
    if (honest.why !== null) throw new Error(`${o.label}: seed ${seed}: ${honest.why}`);
    const budget = Math.max(10_000, (o.budgetFactor ?? 20) * honest.events);
    for (const target of pickTargets(honest.sends)) {
      const protocol = o.protocols[target.channel];
      if (protocol === undefined) {
        throw new Error(
          `${o.label}: no validator for channel '${target.channel}' (a ${target.type} was sent on it)`,
        );
      }
      const seen = types[target.channel] ?? new Set<string>();
      seen.add(target.type);
      types[target.channel] = seen;
      for (const field of numericFields(target.msg)) {
        const site: ForgedSite = { channel: target.channel, type: target.type, field };
        const fieldClass = classify(site);
        const values = extremeValues(target.msg, field, o.spec.n, protocol);
        rejected += values.rejected;
        for (const value of values.accepted) {
          runs++;
          const key = `${target.channel === '' ? '' : `${target.channel} `}${target.type}.${field}${fieldClass === 'clock' ? '*' : ''}`;
          perSite[key] = (perSite[key] ?? 0) + 1;
          const r = await runOnce(o, seed, { target, field, value, fieldClass, budget });
          if (r.why === null) continue;
          const { sendIndex, from, to } = target;
          details.push({ ...site, seed, sendIndex, from, to, value, fieldClass, why: r.why });
        }
      }
    }
  }
  const failures = details.map(
    (d) =>
      `${o.label}: seed ${d.seed}, send #${d.sendIndex} P${d.from} → P${d.to} on '${d.channel}': ${d.type}.${d.field} = ${d.value} (${d.fieldClass}): ${d.why}`,
  );
  return {
    runs,
    rejected,
    perSite,
    types: Object.fromEntries(Object.entries(types).map(([k, s]) => [k, [...s].sort()])),
    failures,
    details,
  };
}
