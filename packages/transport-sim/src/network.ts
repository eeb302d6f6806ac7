/**
 * The deterministic simulated network (DESIGN.md 3.2) — critsec's embedded default transport
 * and its test bed.
 *
 * - Deterministic: all randomness comes from one seeded generator; the same seed and the same
 *   code give the same execution, byte for byte (compare {@link SimNetwork.trace}).
 * - Timed: a virtual clock in **time units**; each message takes a delay drawn from a
 *   {@link DelayModel} (per link if overridden). Local computation takes zero time: after the
 *   events of one instant are delivered, the network lets every pending promise continuation
 *   run (it drains the microtask queue) *before* the clock moves, so code after an awaited
 *   "wait until" runs at the same virtual time — a unit-delay request/response round trip
 *   measures exactly 2 time units.
 * - FIFO per (sender, receiver, channel), also under random delays: a message never arrives
 *   before one sent earlier on the same link (unless `fifo: false`, for negative tests only).
 * - Controlled: in `mode: 'controlled'` nothing happens on its own; the caller lists the
 *   deliverable events ({@link SimNetwork.pending}: the head of each non-empty link, and every
 *   pending timer) and picks which goes next, so tests can enumerate schedules.
 * - Observable: counts messages by channel and type, and can record a JSON-lines trace.
 * - Fast: no timers of the host; one loop over a binary heap of events.
 */
import {
  ConfigurationError,
  type Endpoint,
  isValidN,
  type Message,
  type ProcessId,
  TransportError,
} from '@critsec/core';
import {
  createEndpoint,
  type Link,
  ReliableLink,
  type RootEndpoint,
  type SessionFrame,
} from '@critsec/transport';
import { type DelayModel, isConstantDelay, sampleDelay, unitDelay } from './delay.js';
import { EventQueue, type SimEvent } from './event-queue.js';
import { createRng, type Rng } from './rng.js';

/**
 * Carries a caller-defined context (e.g. an `AsyncLocalStorage` store) from the code that sends
 * a message or sets a timer to the code that handles it, so a harness can attribute messages to
 * the invocation that caused them. Costs nothing when absent.
 */
export interface CausalContext {
  /** Called at send/schedule time; the value travels with the event. */
  capture(): unknown;
  /** Runs the delivery of an event inside the captured context. */
  run(ctx: unknown, fn: () => void): void;
}

/**
 * Faults injected *below* the reliable-FIFO session layer (timed mode only). With faults on,
 * every (from, to) pair talks through a {@link ReliableLink} of `@critsec/transport`, as a real
 * network transport does: raw frames are dropped, duplicated and reordered underneath, and the
 * session layer restores reliable, FIFO, exactly-once delivery above — what the algorithms see
 * is unchanged, only slower.
 */
export interface FaultOptions {
  /** Probability that a raw frame is lost (0 ≤ p < 1). */
  readonly drop?: number;
  /** Probability that a raw frame is delivered twice (0 ≤ p ≤ 1). */
  readonly duplicate?: number;
  /** Let raw frames overtake each other (default true). */
  readonly reorder?: boolean;
  /** Retransmission period of unacknowledged frames, in time units (default 4). */
  readonly retransmitEvery?: number;
}

/** Counters of the raw frame layer under {@link FaultOptions}. */
export interface FaultCounters {
  readonly framesSent: number;
  readonly framesDropped: number;
  readonly framesDuplicated: number;
  readonly retransmitted: number;
  readonly duplicatesDiscarded: number;
}

/** Options of {@link SimNetwork}. */
export interface SimNetworkOptions {
  /** Number of processes (ids `0..n-1`). */
  readonly n: number;
  /** Seed of every random choice (delays, faults). Default 1. */
  readonly seed?: number;
  /** Delay model of every link (default {@link unitDelay}). */
  readonly delay?: DelayModel;
  /** Per-link override: return a model for the link `from → to`, or `undefined` for the default. */
  readonly linkDelay?: (from: ProcessId, to: ProcessId) => DelayModel | undefined;
  /** `'timed'` (default): {@link SimNetwork.run} drives the clock. `'controlled'`: the caller picks each event. */
  readonly mode?: 'timed' | 'controlled';
  /**
   * Keep FIFO per (from, to, channel). Default `true`. `false` lets a later message overtake an
   * earlier one under random delays — **for negative tests only** (algorithms assume FIFO).
   */
  readonly fifo?: boolean;
  /**
   * Record a JSON-lines trace: `true` keeps it in {@link SimNetwork.trace}; a function receives
   * each line as it is produced.
   */
  readonly trace?: boolean | ((line: string) => void);
  /** Attribution hook, see {@link CausalContext}. */
  readonly context?: CausalContext;
  /**
   * Pass every message through `JSON.stringify`/`JSON.parse`, as a real transport would:
   * catches algorithms that send non-JSON values or mutate a message after sending. Default false.
   */
  readonly serialize?: boolean;
  /** Inject faults below a reliable session layer (see {@link FaultOptions}); timed mode only. */
  readonly faults?: FaultOptions;
}

/** A message in flight. */
export interface SimMessage {
  readonly from: ProcessId;
  readonly to: ProcessId;
  readonly channel: string;
  readonly msg: Message;
}

interface MsgEvent extends SimEvent, SimMessage {
  readonly kind: 'message';
  readonly ctx: unknown;
}

interface TimerEvent extends SimEvent {
  readonly kind: 'timer';
  readonly label: string;
  readonly fn: () => void;
  readonly ctx: unknown;
  cancelled: boolean;
}

interface FrameEvent extends SimEvent {
  readonly kind: 'frame';
  readonly from: ProcessId;
  readonly to: ProcessId;
  readonly frame: SessionFrame<Payload>;
}

/** What travels inside a session frame in fault mode. */
interface Payload {
  readonly c: string;
  readonly m: Message;
  readonly ctx: unknown;
}

interface Session {
  readonly link: ReliableLink<Payload>;
  armed: boolean;
}

type AnyEvent = MsgEvent | TimerEvent | FrameEvent;

/** One deliverable event in controlled mode. */
export type PendingEvent =
  | ({ readonly kind: 'message' } & SimMessage)
  | { readonly kind: 'timer'; readonly label: string };

/** Message counters of a network. */
export interface SimCounters {
  /** Messages sent. */
  readonly sent: number;
  /** Messages delivered. */
  readonly delivered: number;
  /** Messages sent per channel path (`''` is the root channel). */
  readonly byChannel: Readonly<Record<string, number>>;
  /** Messages sent per `channel` + `' '` + `type` (e.g. `'lmin/mx REQUEST'`). */
  readonly byType: Readonly<Record<string, number>>;
}

/** How a {@link SimNetwork.run} call ended. */
export interface RunResult {
  /** Events (messages and timers) processed by this call. */
  readonly events: number;
  /** Virtual time at the end. */
  readonly now: number;
  /** Why it stopped. */
  readonly reason: 'idle' | 'until' | 'maxEvents' | 'stopped' | 'closed';
}

interface LinkQueue {
  readonly from: ProcessId;
  readonly to: ProcessId;
  readonly channel: string;
  readonly items: MsgEvent[];
  head: number;
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The simulated network of one cluster. See the module comment for its guarantees. */
export class SimNetwork {
  /** Number of processes. */
  readonly n: number;
  /** The seed this network was created with. */
  readonly seed: number;
  /** The recorded trace (JSON lines), when `trace: true`. */
  readonly trace: string[] = [];

  readonly #mode: 'timed' | 'controlled';
  readonly #rng: Rng;
  readonly #delay: DelayModel;
  readonly #linkDelay: ((from: ProcessId, to: ProcessId) => DelayModel | undefined) | undefined;
  readonly #constant: boolean;
  readonly #fifo: boolean;
  readonly #traceSink: ((line: string) => void) | undefined;
  readonly #context: CausalContext | undefined;
  readonly #serialize: boolean;
  readonly #queue = new EventQueue<AnyEvent>();
  readonly #receivers: ((from: ProcessId, channel: string, msg: Message) => void)[];
  readonly #endpoints: RootEndpoint[];
  readonly #peers: readonly ProcessId[];
  readonly #channelIds = new Map<string, number>();
  readonly #lastArrival = new Map<number, number>();
  readonly #linkQueues = new Map<number, LinkQueue>();
  readonly #timers: TimerEvent[] = [];
  readonly #sendListeners: ((m: SimMessage) => void)[] = [];
  readonly #byChannel = new Map<string, number>();
  readonly #byType = new Map<string, Map<string, number>>();
  readonly #handlerErrors: unknown[] = [];
  readonly #faults: FaultOptions | undefined;
  readonly #sessions = new Map<number, Session>();
  #framesSent = 0;
  #framesDropped = 0;
  #framesDuplicated = 0;
  #now = 0;
  #seq = 0;
  #sent = 0;
  #delivered = 0;
  #closed = false;
  #running = false;
  #stopRequested = false;

  /** @throws ConfigurationError for a bad `n` or options. */
  constructor(options: SimNetworkOptions) {
    if (!isValidN(options.n)) {
      throw new ConfigurationError(`SimNetwork: n must be a positive integer, got ${String(options.n)}`);
    }
    const seed = options.seed ?? 1;
    if (!Number.isSafeInteger(seed))
      throw new ConfigurationError(`SimNetwork: seed must be a safe integer, got ${seed}`);
    this.n = options.n;
    this.seed = seed;
    this.#mode = options.mode ?? 'timed';
    this.#rng = createRng(seed);
    this.#delay = options.delay ?? unitDelay;
    this.#linkDelay = options.linkDelay;
    this.#constant = options.linkDelay === undefined && isConstantDelay(this.#delay);
    this.#fifo = options.fifo ?? true;
    this.#context = options.context;
    this.#serialize = options.serialize ?? false;
    this.#faults = options.faults;
    if (this.#faults !== undefined) {
      const { drop = 0, duplicate = 0, retransmitEvery = 4 } = this.#faults;
      if (this.#mode !== 'timed') throw new ConfigurationError('SimNetwork: faults need timed mode');
      if (!(drop >= 0 && drop < 1) || !(duplicate >= 0 && duplicate <= 1) || !(retransmitEvery > 0)) {
        throw new ConfigurationError(
          `SimNetwork: faults need 0 ≤ drop < 1, 0 ≤ duplicate ≤ 1 and retransmitEvery > 0, got ${JSON.stringify(this.#faults)}`,
        );
      }
    }
    const trace = options.trace;
    this.#traceSink =
      trace === true ? (line) => this.trace.push(line) : typeof trace === 'function' ? trace : undefined;
    this.#peers = Object.freeze(Array.from({ length: this.n }, (_, i) => i));
    this.#receivers = new Array(this.n);
    this.#endpoints = this.#peers.map((i) => createEndpoint(this.#link(i)));
  }

  /** Current virtual time (time units; in controlled mode, the number of events delivered). */
  get now(): number {
    return this.#now;
  }

  /** `'timed'` or `'controlled'`. */
  get mode(): 'timed' | 'controlled' {
    return this.#mode;
  }

  /** The root endpoint of process `id` (always the same object). */
  endpoint(id: ProcessId): RootEndpoint {
    const ep = this.#endpoints[id];
    if (ep === undefined) throw new TransportError(`SimNetwork: no process ${id}; ids are 0..${this.n - 1}`);
    return ep;
  }

  /** Every root endpoint, by process id. */
  endpoints(): readonly Endpoint[] {
    return this.#endpoints;
  }

  /** The network's random generator, forked by label (stable for a seed): for workloads. */
  rng(label: string): Rng {
    return this.#rng.fork(label);
  }

  /** Message counters so far. */
  counters(): SimCounters {
    const byType: Record<string, number> = {};
    for (const [ch, m] of this.#byType) for (const [type, c] of m) byType[`${ch} ${type}`] = c;
    return {
      sent: this.#sent,
      delivered: this.#delivered,
      byChannel: Object.fromEntries(this.#byChannel),
      byType,
    };
  }

  /** Raw frame counters (all zero without faults). */
  faultCounters(): FaultCounters {
    let retransmitted = 0;
    let duplicatesDiscarded = 0;
    for (const { link } of this.#sessions.values()) {
      retransmitted += link.stats.retransmitted;
      duplicatesDiscarded += link.stats.duplicates;
    }
    return {
      framesSent: this.#framesSent,
      framesDropped: this.#framesDropped,
      framesDuplicated: this.#framesDuplicated,
      retransmitted,
      duplicatesDiscarded,
    };
  }

  /** Messages sent but not yet delivered. */
  get inFlight(): number {
    return this.#sent - this.#delivered;
  }

  /** Subscribes to every send (after counting); returns the unsubscribe. */
  onSend(fn: (m: SimMessage) => void): () => void {
    this.#sendListeners.push(fn);
    return () => {
      const i = this.#sendListeners.indexOf(fn);
      if (i >= 0) this.#sendListeners.splice(i, 1);
    };
  }

  /** Appends a caller record to the trace (e.g. a state change), stamped with the current time. */
  note(record: Record<string, unknown>): void {
    if (this.#traceSink !== undefined)
      this.#traceSink(JSON.stringify({ t: this.#now, e: 'note', ...record }));
  }

  /**
   * Runs `fn` after `delay` time units (in controlled mode: when the caller picks it). Returns a
   * cancel function. `label` names the timer in {@link pending} and in the trace.
   * @throws ConfigurationError for a negative or non-finite delay.
   */
  schedule(delay: number, fn: () => void, label = 'timer'): () => void {
    if (!(Number.isFinite(delay) && delay >= 0)) {
      throw new ConfigurationError(`SimNetwork.schedule: delay must be a finite number ≥ 0, got ${delay}`);
    }
    const ev: TimerEvent = {
      kind: 'timer',
      time: this.#now + delay,
      seq: this.#seq++,
      label,
      fn,
      ctx: this.#context?.capture(),
      cancelled: false,
    };
    if (this.#mode === 'controlled') this.#timers.push(ev);
    else this.#queue.push(ev);
    return () => {
      ev.cancelled = true;
    };
  }

  /** Resolves after `delay` time units; rejects with the signal's reason if aborted first. */
  sleep(delay: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        cancel();
        reject(signal?.reason);
      };
      const cancel = this.schedule(
        delay,
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        'sleep',
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Timed mode: delivers events in time order until nothing is left, `until` (time units) is
   * passed, `maxEvents` were processed, `stopWhen()` returns true (checked after each instant),
   * or {@link stop} / {@link close} is called. Promise continuations run at the instant of the
   * event that released them.
   * @throws Error (rejects) with the first exception a message handler or timer threw, naming the seed.
   */
  async run(
    options: { until?: number; maxEvents?: number; stopWhen?: () => boolean } = {},
  ): Promise<RunResult> {
    if (this.#mode !== 'timed')
      throw new TransportError(
        'SimNetwork.run() is for timed mode; use pending()/deliver() in controlled mode',
      );
    if (this.#running) throw new TransportError('SimNetwork.run() is already running');
    const until = options.until ?? Number.POSITIVE_INFINITY;
    const maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
    this.#running = true;
    this.#stopRequested = false;
    let events = 0;
    let reason: RunResult['reason'] = 'idle';
    try {
      await settle();
      this.#throwHandlerErrors();
      outer: for (;;) {
        if (this.#closed) {
          reason = 'closed';
          break;
        }
        if (this.#stopRequested || options.stopWhen?.()) {
          reason = 'stopped';
          break;
        }
        const first = this.#queue.peek();
        if (first === undefined) break;
        const t = first.time;
        if (t > until) {
          this.#now = Math.max(this.#now, until);
          reason = 'until';
          break;
        }
        this.#now = t;
        for (let ev = this.#queue.peek(); ev !== undefined && ev.time === t; ev = this.#queue.peek()) {
          if (events >= maxEvents) {
            reason = 'maxEvents';
            break outer;
          }
          this.#queue.pop();
          events++;
          this.#dispatch(ev);
        }
        await settle();
        this.#throwHandlerErrors();
      }
    } finally {
      this.#running = false;
    }
    return { events, now: this.#now, reason };
  }

  /** Asks a running {@link run} to return after the current instant. */
  stop(): void {
    this.#stopRequested = true;
  }

  /** Lets every pending promise continuation run (drains the microtask queue). */
  async settle(): Promise<void> {
    await settle();
    this.#throwHandlerErrors();
  }

  /**
   * Controlled mode: the events that may happen next — the head of every non-empty
   * (from, to, channel) link, in the order the links were first used, then every pending timer
   * in the order it was set.
   */
  pending(): PendingEvent[] {
    const out: PendingEvent[] = [];
    for (const q of this.#linkQueues.values()) {
      const head = q.items[q.head];
      if (head !== undefined)
        out.push({ kind: 'message', from: head.from, to: head.to, channel: head.channel, msg: head.msg });
    }
    for (const t of this.#timers) if (!t.cancelled) out.push({ kind: 'timer', label: t.label });
    return out;
  }

  /**
   * Controlled mode: everything queued — every message of every link in FIFO order (links in the
   * order they were first used) and the labels of pending timers. A state fingerprint for
   * schedule exploration.
   */
  snapshot(): {
    readonly links: readonly (SimMessage & { readonly queued: readonly Message[] })[];
    readonly timers: readonly string[];
  } {
    const links: (SimMessage & { queued: Message[] })[] = [];
    for (const q of this.#linkQueues.values()) {
      if (q.head >= q.items.length) continue;
      const queued = q.items.slice(q.head).map((e) => e.msg);
      links.push({ from: q.from, to: q.to, channel: q.channel, msg: queued[0]!, queued });
    }
    return { links, timers: this.#timers.filter((t) => !t.cancelled).map((t) => t.label) };
  }

  /**
   * Controlled mode: delivers the `index`-th event of {@link pending}, then lets continuations run.
   * @throws TransportError for a bad index or in timed mode.
   */
  async deliver(index: number): Promise<void> {
    if (this.#mode !== 'controlled') throw new TransportError('SimNetwork.deliver() is for controlled mode');
    let i = 0;
    let chosen: AnyEvent | undefined;
    for (const q of this.#linkQueues.values()) {
      if (q.head >= q.items.length) continue;
      if (i === index) {
        chosen = q.items[q.head]!;
        q.head++;
        if (q.head === q.items.length) {
          q.items.length = 0;
          q.head = 0;
        }
        break;
      }
      i++;
    }
    if (chosen === undefined) {
      this.#compactTimers();
      const t = this.#timers[index - i];
      if (t === undefined)
        throw new TransportError(
          `SimNetwork.deliver(${index}): only ${i + this.#timers.length} events are pending`,
        );
      this.#timers.splice(index - i, 1);
      chosen = t;
    }
    this.#now++;
    this.#dispatch(chosen);
    await this.settle();
  }

  /** Stops the network: pending events are discarded, later sends throw `TransportError`. */
  close(): void {
    this.#closed = true;
    this.#queue.removeWhere(() => true);
    this.#linkQueues.clear();
    this.#timers.length = 0;
    for (const ep of this.#endpoints) ep.close();
  }

  #compactTimers(): void {
    for (let i = this.#timers.length - 1; i >= 0; i--)
      if (this.#timers[i]!.cancelled) this.#timers.splice(i, 1);
  }

  #throwHandlerErrors(): void {
    if (this.#handlerErrors.length === 0) return;
    const first = this.#handlerErrors[0];
    this.#handlerErrors.length = 0;
    const err = new Error(
      `a message handler or timer threw at virtual time ${this.#now} (seed ${this.seed}): ${first instanceof Error ? first.message : String(first)}`,
      { cause: first },
    );
    throw err;
  }

  #link(self: ProcessId): Link {
    return {
      self,
      peers: this.#peers,
      send: (to, channel, msg) => this.#send(self, to, channel, msg),
      setReceiver: (fn) => {
        this.#receivers[self] = fn;
      },
    };
  }

  #channelId(channel: string): number {
    let id = this.#channelIds.get(channel);
    if (id === undefined) {
      id = this.#channelIds.size;
      this.#channelIds.set(channel, id);
    }
    return id;
  }

  #send(from: ProcessId, to: ProcessId, channel: string, msg: Message): void {
    if (this.#closed) throw new TransportError(`SimNetwork is closed (P${from} sending to P${to})`);
    if (!(to >= 0 && to < this.n && Number.isInteger(to))) {
      throw new TransportError(`P${from} sent to unknown process ${String(to)}; ids are 0..${this.n - 1}`);
    }
    // a forged or malformed message (no object, no string type) still travels, as bytes on a real
    // wire would: the receiver's protocol validation must drop it; it is counted under '(malformed)'
    const type =
      typeof msg === 'object' && msg !== null && typeof msg.type === 'string' ? msg.type : '(malformed)';
    if (this.#serialize && msg !== undefined) msg = JSON.parse(JSON.stringify(msg)) as Message;
    this.#sent++;
    this.#byChannel.set(channel, (this.#byChannel.get(channel) ?? 0) + 1);
    let types = this.#byType.get(channel);
    if (types === undefined) {
      types = new Map();
      this.#byType.set(channel, types);
    }
    types.set(type, (types.get(type) ?? 0) + 1);
    if (this.#traceSink !== undefined) {
      this.#traceSink(JSON.stringify({ t: this.#now, e: 'send', from, to, ch: channel, m: msg }));
    }
    const ev: MsgEvent = {
      kind: 'message',
      time: this.#now,
      seq: this.#seq++,
      from,
      to,
      channel,
      msg,
      ctx: this.#context?.capture(),
    };
    if (this.#faults !== undefined) {
      const session = this.#session(from, to);
      session.link.send({ c: channel, m: msg, ctx: ev.ctx });
      this.#armRetransmit(session);
    } else if (this.#mode === 'controlled') {
      const key = (this.#channelId(channel) * this.n + from) * this.n + to;
      let q = this.#linkQueues.get(key);
      if (q === undefined) {
        q = { from, to, channel, items: [], head: 0 };
        this.#linkQueues.set(key, q);
      }
      q.items.push(ev);
    } else {
      if (this.#constant) {
        ev.time += sampleDelay(this.#delay, this.#rng);
      } else {
        const model = this.#linkDelay?.(from, to) ?? this.#delay;
        let time = this.#now + sampleDelay(model, this.#rng);
        if (this.#fifo) {
          const key = (this.#channelId(channel) * this.n + from) * this.n + to;
          const last = this.#lastArrival.get(key);
          if (last !== undefined && last > time) time = last;
          this.#lastArrival.set(key, time);
        }
        ev.time = time;
      }
      this.#queue.push(ev);
    }
    for (const l of this.#sendListeners) l(ev);
  }

  #session(self: ProcessId, peer: ProcessId): Session {
    const key = self * this.n + peer;
    let s = this.#sessions.get(key);
    if (s === undefined) {
      const link = new ReliableLink<Payload>({
        session: `sim-${self}`,
        transmit: (frame) => this.#transmit(self, peer, frame),
        deliver: (p) => this.#deliverPayload(peer, self, p),
      });
      s = { link, armed: false };
      this.#sessions.set(key, s);
    }
    return s;
  }

  #armRetransmit(session: Session): void {
    if (session.armed) return;
    session.armed = true;
    this.schedule(
      this.#faults?.retransmitEvery ?? 4,
      () => {
        session.armed = false;
        if (session.link.unacked > 0) {
          session.link.retransmit();
          this.#armRetransmit(session);
        }
      },
      'retransmit',
    );
  }

  #transmit(from: ProcessId, to: ProcessId, frame: SessionFrame<Payload>): void {
    const faults = this.#faults!;
    this.#framesSent++;
    if (faults.drop !== undefined && this.#rng.chance(faults.drop)) {
      this.#framesDropped++;
      return;
    }
    const copies = faults.duplicate !== undefined && this.#rng.chance(faults.duplicate) ? 2 : 1;
    if (copies === 2) this.#framesDuplicated++;
    const model = this.#linkDelay?.(from, to) ?? this.#delay;
    for (let k = 0; k < copies; k++) {
      let time = this.#now + sampleDelay(model, this.#rng);
      if (faults.reorder === false) {
        const key = from * this.n + to;
        const last = this.#lastArrival.get(key);
        if (last !== undefined && last > time) time = last;
        this.#lastArrival.set(key, time);
      }
      this.#queue.push({ kind: 'frame', time, seq: this.#seq++, from, to, frame });
    }
  }

  #deliverPayload(from: ProcessId, to: ProcessId, p: Payload): void {
    this.#delivered++;
    if (this.#traceSink !== undefined) {
      this.#traceSink(
        JSON.stringify({
          t: this.#now,
          e: 'deliver',
          from,
          to,
          ch: p.c,
          type: (p.m as Message | null)?.type,
        }),
      );
    }
    const receive = this.#receivers[to];
    if (receive === undefined) return;
    this.#invoke(p.ctx, () => receive(from, p.c, p.m));
  }

  #dispatch(ev: AnyEvent): void {
    if (ev.kind === 'frame') {
      this.#session(ev.to, ev.from).link.receive(ev.frame);
      return;
    }
    if (ev.kind === 'timer') {
      if (ev.cancelled) return;
      if (this.#traceSink !== undefined)
        this.#traceSink(JSON.stringify({ t: this.#now, e: 'timer', label: ev.label }));
      this.#invoke(ev.ctx, ev.fn);
      return;
    }
    this.#delivered++;
    if (this.#traceSink !== undefined) {
      this.#traceSink(
        JSON.stringify({
          t: this.#now,
          e: 'deliver',
          from: ev.from,
          to: ev.to,
          ch: ev.channel,
          type: (ev.msg as Message | null)?.type,
        }),
      );
    }
    const receive = this.#receivers[ev.to];
    if (receive === undefined) return;
    this.#invoke(ev.ctx, () => receive(ev.from, ev.channel, ev.msg));
  }

  #invoke(ctx: unknown, fn: () => void): void {
    try {
      if (this.#context !== undefined) this.#context.run(ctx, fn);
      else fn();
    } catch (err) {
      this.#handlerErrors.push(err);
    }
  }
}
