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
 * - Fast: no timers of the host; one loop over a binary heap of events, beside an in-order lane
 *   (`message-lane.ts`) where messages under a constant delay wait in O(1), as columns.
 *
 * `SimNetwork` is a facade over layers, each in its own file: the scheduler (`scheduler.ts`:
 * virtual clock, event queue), the delivery policy (`policy.ts`: timed or controlled), the link
 * stack (`links.ts`: direct links, or the session layer of `@critsec/transport` over a faulty
 * raw link), the process-facing ends (`ports.ts`: send, and the one deliver path), counters
 * (`counters.ts`) and the trace (`tracer.ts`).
 */
import {
  ConfigurationError,
  createRng,
  type Endpoint,
  type ProcessId,
  type Rng,
  TransportError,
} from '@critsec/core';
import { isValidN } from '@critsec/core/kit';
import { createEndpoint, type RootEndpoint } from '@critsec/transport';
import { type FaultCounters, FrameCounters, MessageCounters, type SimCounters } from './counters.js';
import { type CrashCounters, CrashGate } from './crash.js';
import { type DelayModel, unitDelay } from './delay.js';
import type { SimMessage } from './events.js';
import { checkFaults, type FaultOptions } from './faulty-link.js';
import { createLinkStack, type LinkStack } from './links.js';
import { detectorFor, type SimDetector } from './detector.js';
import { partitionsFor, type SimPartitions } from './partition.js';
import {
  ControlledPolicy,
  type DeliveryPolicy,
  type PendingEvent,
  type RunOptions,
  type RunResult,
  type SimSnapshot,
  TimedPolicy,
} from './policy.js';
import { type CausalContext, Inbox, Outbox, processLink } from './ports.js';
import { Scheduler } from './scheduler.js';
import { checkSimSize } from './size-limit.js';
import { Tracer } from './tracer.js';

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
  /**
   * The failure detector (issue 28 §4; `detector.ts`), in time units > 0 (default: off, no timer
   * added): `endpoint(i).suspicions` holds `j` once `j` has been crashed, or cut off from `i` by
   * a partition ({@link SimNetwork.partitions}), this long; trusted again at its restart or heal.
   */
  readonly suspectAfter?: number;
}

/** The simulated network of one cluster. See the module comment for its guarantees. */
export class SimNetwork {
  /** Number of processes. */
  readonly n: number;
  /** The seed this network was created with. */
  readonly seed: number;
  /** The recorded trace (JSON lines), when `trace: true`. */
  readonly trace: string[];
  /** Network partitions (issue 28 §4; `partition.ts`): `cut(groups)`, `heal()`, seeded `random(…)`. */
  readonly partitions: SimPartitions;

  readonly #rng: Rng;
  readonly #context: CausalContext | undefined;
  readonly #scheduler = new Scheduler();
  readonly #counters = new MessageCounters();
  readonly #frames = new FrameCounters();
  readonly #tracer: Tracer;
  readonly #inbox: Inbox;
  readonly #policy: DeliveryPolicy;
  readonly #stack: LinkStack;
  readonly #outbox: Outbox;
  readonly #endpoints: RootEndpoint[];
  readonly #gate: CrashGate;
  readonly #peers: readonly ProcessId[];
  readonly #detector: SimDetector | undefined;

  /**
   * @throws ConfigurationError for a bad `n` (not a positive integer, or more than
   *   `MAX_SIM_PROCESSES` = 2^20), seed or fault options.
   */
  constructor(options: SimNetworkOptions) {
    if (!isValidN(options.n)) {
      throw new ConfigurationError(`SimNetwork: n must be a positive integer, got ${String(options.n)}`);
    }
    checkSimSize(options.n);
    const seed = options.seed ?? 1;
    if (!Number.isSafeInteger(seed))
      throw new ConfigurationError(`SimNetwork: seed must be a safe integer, got ${seed}`);
    const mode = options.mode ?? 'timed';
    if (options.faults !== undefined) checkFaults(options.faults, mode);
    this.n = options.n;
    this.seed = seed;
    this.#rng = createRng(seed);
    this.#context = options.context;
    this.#tracer = new Tracer(options.trace, this.#scheduler);
    this.trace = this.#tracer.lines;
    const n = this.n;
    const common = { n, scheduler: this.#scheduler, counters: this.#counters, tracer: this.#tracer };
    this.#gate = new CrashGate(n, this.#counters, this.#tracer);
    this.#inbox = new Inbox({ ...common, seed, context: this.#context, gate: this.#gate });
    this.#policy =
      mode === 'timed'
        ? new TimedPolicy(this.#scheduler, this.#inbox)
        : new ControlledPolicy(this.#scheduler, this.#inbox, n);
    this.#stack = createLinkStack({
      n,
      mode,
      scheduler: this.#scheduler,
      rng: this.#rng,
      delay: options.delay ?? unitDelay,
      linkDelay: options.linkDelay,
      fifo: options.fifo ?? true,
      faults: options.faults,
      sink: this.#policy,
      up: this.#inbox,
      frameCounters: this.#frames,
      setTimer: (delay, fn, label) => this.schedule(delay, fn, label),
    });
    this.#policy.connect(this.#stack.bottom);
    this.#outbox = new Outbox({
      ...common,
      context: this.#context,
      serialize: options.serialize ?? false,
      stack: this.#stack.top,
    });
    const peers = Object.freeze(Array.from({ length: n }, (_, i) => i));
    this.#peers = peers;
    const host = { n, now: () => this.#scheduler.now, schedule: this.schedule.bind(this) };
    this.#detector = detectorFor(options.suspectAfter, host, this.#gate, () => this.partitions);
    this.partitions = partitionsFor(host, this.#gate, this.#inbox, this.#tracer, this.#rng, this.#detector);
    this.#endpoints = peers.map((i) => this.#newEndpoint(i));
  }

  #newEndpoint(i: ProcessId): RootEndpoint {
    return createEndpoint(processLink(i, this.#peers, this.#outbox, this.#inbox, this.#gate, this.#detector));
  }

  /** Current virtual time (time units; in controlled mode, the number of events delivered). */
  get now(): number {
    return this.#scheduler.now;
  }

  /** `'timed'` or `'controlled'`. */
  get mode(): 'timed' | 'controlled' {
    return this.#policy.mode;
  }

  /**
   * The root endpoint of process `id`'s current incarnation (the same object until a
   * {@link restart} makes a fresh one).
   * @throws TransportError for an unknown id.
   */
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
    return this.#counters.snapshot();
  }

  /** Raw frame counters (all zero without faults). */
  faultCounters(): FaultCounters {
    return this.#frames.snapshot(this.#stack.sessions());
  }

  /** Messages sent but not yet delivered. */
  get inFlight(): number {
    return this.#counters.sent - this.#counters.delivered;
  }

  /** Subscribes to every send (after counting); returns the unsubscribe. */
  onSend(fn: (m: SimMessage) => void): () => void {
    return this.#outbox.onSend(fn);
  }

  /** Appends a caller record to the trace (e.g. a state change), stamped with the current time. */
  note(record: Record<string, unknown>): void {
    this.#tracer.note(record);
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
    const ev = this.#scheduler.timer(delay, fn, label, this.#context?.capture());
    this.#policy.enqueue(ev);
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
   * @throws TransportError (rejects) in controlled mode or when already running; Error (rejects)
   * with the first exception a message handler or timer threw, naming the seed.
   */
  run(options: RunOptions = {}): Promise<RunResult> {
    return this.#policy.run(options);
  }

  /** Asks a running {@link run} to return after the current instant. */
  stop(): void {
    this.#policy.stop();
  }

  /**
   * Lets every pending promise continuation run (drains the microtask queue).
   * @throws Error (rejects) with the first exception a message handler or timer threw.
   */
  settle(): Promise<void> {
    return this.#inbox.settle();
  }

  /**
   * Controlled mode: the events that may happen next — the head of every non-empty
   * (from, to, channel) link, in the order the links were first used, then every pending timer
   * in the order it was set. Empty in timed mode.
   */
  pending(): PendingEvent[] {
    return this.#policy.pending();
  }

  /**
   * Controlled mode: everything queued — every message of every link in FIFO order (links in the
   * order they were first used) and the labels of pending timers. A state fingerprint for
   * schedule exploration.
   */
  snapshot(): SimSnapshot {
    return this.#policy.snapshot();
  }

  /**
   * Controlled mode: delivers the `index`-th event of {@link pending}, then lets continuations run.
   * @throws TransportError (rejects) for a bad index or in timed mode.
   */
  deliver(index: number): Promise<void> {
    return this.#policy.deliver(index);
  }

  /**
   * Crashes process `p` (issue 27): its endpoint stops delivering (its subscriptions are
   * dropped), messages to it wait in their links in order (a session layer's senders would
   * retransmit them), its sends from now on are dropped, and the messages handed to it but not
   * acknowledged ({@link ackAfterCommit}) go back to the head of their links. Traced as a note.
   * @throws TransportError for an unknown or already crashed process.
   */
  crash(p: ProcessId): void {
    this.#gate.crash(p);
    this.#inbox.setReceiver(p, undefined);
    this.#detector?.crashed(p);
  }

  /**
   * Restarts the crashed process `p`: returns a fresh root endpoint (a new object subscribes on
   * it); the messages waiting for `p` are then delivered, link by link in order, by a timer of
   * delay 0 (label `P<p> restart`) — so the new object may subscribe first, in the same
   * synchronous step as this call.
   * @throws TransportError for an unknown process or one that is not crashed.
   */
  restart(p: ProcessId): RootEndpoint {
    const flush = this.#gate.restart(p, (from, to, channel, msg, ctx) =>
      this.#inbox.handOver(from, to, channel, msg, ctx),
    );
    const ep = this.#newEndpoint(p);
    this.#endpoints[p] = ep;
    this.schedule(0, flush, `P${p} restart`);
    this.#detector?.restarted(p);
    return ep;
  }

  /** True while `p` is crashed. */
  isCrashed(p: ProcessId): boolean {
    return this.#gate.isDown(p);
  }

  /**
   * The acknowledge-after-commit rule for `p` (a durable process): from now on a message handed
   * to `p` counts as received only once {@link acknowledge} covers it; a crash before that sends
   * it back to the head of its link, to be delivered again after the restart.
   * @throws TransportError for an unknown process.
   */
  ackAfterCommit(p: ProcessId): void {
    this.#gate.ackAfterCommit(p);
  }

  /** Messages handed to `p`'s current incarnation so far: the mark a commit {@link acknowledge}s up to. */
  handedOver(p: ProcessId): number {
    return this.#gate.handedOver(p);
  }

  /** `p`'s commit covers the first `mark` messages handed to its current incarnation ({@link handedOver}). */
  acknowledge(p: ProcessId, mark: number): void {
    this.#gate.acknowledge(p, mark);
  }

  /** Crashes, restarts, dropped sends, waiting and redelivered messages so far. */
  crashCounters(): CrashCounters {
    return this.#gate.counters();
  }

  /** Stops the network: pending events are discarded, later sends throw `TransportError`. */
  close(): void {
    this.#outbox.close();
    this.#policy.close();
    for (const ep of this.#endpoints) ep.close();
  }
}
