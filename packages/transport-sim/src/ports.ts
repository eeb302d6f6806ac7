/**
 * The process-facing ends of the simulator (DESIGN.md 3.2): the {@link Outbox} a process's
 * `Link.send` goes into — check, count, trace, capture the caller context, hand the message to
 * the top of the link stack — and the {@link Inbox} every message leaves by — count, trace, run
 * the receiver under the captured context and keep what it throws. This is the one deliver
 * path, whatever link stack (direct, or faulty raw link under the session layer) is below.
 */
import { type Message, type ProcessId, TransportError } from '@critsec/core';
import type { Link } from '@critsec/transport';
import type { MessageCounters } from './counters.js';
import type { CrashGate } from './crash.js';
import type { SimDetector } from './detector.js';
import type { Envelope, LinkTop, MsgEvent, SimMessage, TimerEvent } from './events.js';
import type { Scheduler } from './scheduler.js';
import type { Tracer } from './tracer.js';

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
  /**
   * Told of each message delivered to a process that has a receiver, just before its delivery
   * runs (e.g. to count deliveries without wrapping every process's handler). Optional.
   */
  delivered?(msg: unknown): void;
}

/** A process's receiver, installed by its endpoint's multiplexer (`Link.setReceiver`). */
type Receiver = (from: ProcessId, channel: string, msg: Message) => void;

/** Lets every pending promise continuation run: resolves after the microtask queue is drained. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What the {@link Outbox} needs. */
export interface OutboxOptions {
  readonly n: number;
  readonly scheduler: Scheduler;
  readonly counters: MessageCounters;
  readonly tracer: Tracer;
  readonly context: CausalContext | undefined;
  /** Pass every message through JSON, as a real wire would. */
  readonly serialize: boolean;
  /** The top of the link stack. */
  readonly stack: LinkTop;
}

/** The sending end of every process. */
export class Outbox {
  readonly #n: number;
  readonly #scheduler: Scheduler;
  readonly #counters: MessageCounters;
  readonly #tracer: Tracer;
  readonly #context: CausalContext | undefined;
  readonly #serialize: boolean;
  readonly #stack: LinkTop;
  readonly #listeners: ((m: SimMessage) => void)[] = [];
  #closed = false;

  constructor(o: OutboxOptions) {
    this.#n = o.n;
    this.#scheduler = o.scheduler;
    this.#counters = o.counters;
    this.#tracer = o.tracer;
    this.#context = o.context;
    this.#serialize = o.serialize;
    this.#stack = o.stack;
  }

  /**
   * Sends `msg` from `from` to `to` on `channel`: counts it, traces it, captures the caller
   * context, hands it to the link stack, then tells the `onSend` listeners.
   * @throws TransportError once closed, or for an unknown `to`.
   */
  send(from: ProcessId, to: ProcessId, channel: string, msg: Message): void {
    if (this.#closed) throw new TransportError(`SimNetwork is closed (P${from} sending to P${to})`);
    if (!(to >= 0 && to < this.#n && Number.isInteger(to))) {
      throw new TransportError(`P${from} sent to unknown process ${String(to)}; ids are 0..${this.#n - 1}`);
    }
    // a forged or malformed message (no object, no string type) still travels, as bytes on a real
    // wire would: the receiver's protocol validation must drop it; it is counted under '(malformed)'
    const type =
      typeof msg === 'object' && msg !== null && typeof msg.type === 'string' ? msg.type : '(malformed)';
    if (this.#serialize && msg !== undefined) msg = JSON.parse(JSON.stringify(msg)) as Message;
    this.#counters.countSend(channel, type);
    this.#tracer.send(from, to, channel, msg);
    const seq = this.#scheduler.nextSeq();
    const ctx = this.#context?.capture();
    const listeners = this.#listeners;
    if (listeners.length === 0) {
      // nobody needs the event object: the stack may carry the fields (the in-order lane does)
      this.#stack.sendMessage(seq, from, to, channel, msg, ctx);
      return;
    }
    const ev: MsgEvent = { kind: 'message', time: this.#scheduler.now, seq, from, to, channel, msg, ctx };
    this.#stack.send(ev);
    for (let i = 0; i < listeners.length; i++) listeners[i]!(ev);
  }

  /** Subscribes to every send (after counting); returns the unsubscribe. */
  onSend(fn: (m: SimMessage) => void): () => void {
    this.#listeners.push(fn);
    return () => {
      const i = this.#listeners.indexOf(fn);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /** Refuses every later send. */
  close(): void {
    this.#closed = true;
  }
}

/** What the {@link Inbox} needs. */
export interface InboxOptions {
  readonly n: number;
  /** Named in the error a throwing handler makes `run()` reject with. */
  readonly seed: number;
  readonly scheduler: Scheduler;
  readonly counters: MessageCounters;
  readonly tracer: Tracer;
  readonly context: CausalContext | undefined;
  /** Crashes and acknowledgements: consulted on every delivery once active. */
  readonly gate: CrashGate;
}

/** The receiving end of every process: deliveries and timer callbacks run here. */
export class Inbox {
  readonly #seed: number;
  readonly #scheduler: Scheduler;
  readonly #counters: MessageCounters;
  readonly #tracer: Tracer;
  readonly #context: CausalContext | undefined;
  readonly #gate: CrashGate;
  /** The context's `delivered`, bound once (or undefined). */
  readonly #delivered: ((msg: unknown) => void) | undefined;
  readonly #receivers: (Receiver | undefined)[];
  readonly #errors: unknown[] = [];
  /** The delivery `#runCurrent` makes (one function for every delivery, no closure each). */
  #receive: Receiver | undefined;
  #from: ProcessId = 0;
  #channel = '';
  #msg: Message | undefined;
  readonly #runCurrent = (): void => {
    this.#receive!(this.#from, this.#channel, this.#msg!);
  };

  constructor(o: InboxOptions) {
    this.#seed = o.seed;
    this.#scheduler = o.scheduler;
    this.#counters = o.counters;
    this.#tracer = o.tracer;
    this.#context = o.context;
    this.#gate = o.gate;
    const context = o.context;
    this.#delivered = context?.delivered === undefined ? undefined : (msg) => context.delivered!(msg);
    this.#receivers = new Array(o.n);
  }

  /** Installs process `id`'s receiver (replacing any earlier one); `undefined` removes it (a crash). */
  setReceiver(id: ProcessId, receive: Receiver | undefined): void {
    this.#receivers[id] = receive;
  }

  /** Delivers a message to its receiver: counted, traced, run under the sender's context. */
  deliver(m: Envelope): void {
    this.deliverMessage(m.from, m.to, m.channel, m.msg, m.ctx);
  }

  /** {@link deliver} of the envelope with these fields (the in-order lane has no object). */
  deliverMessage(from: ProcessId, to: ProcessId, channel: string, msg: Message, ctx: unknown): void {
    // a crashed receiver (or older messages of the link waiting for it): the message waits in its link
    if (this.#gate.active && this.#gate.intercept(from, to, channel, msg, ctx)) return;
    this.handOver(from, to, channel, msg, ctx);
  }

  /** Hands a message to its receiver, past the crash gate (a waiting message after a restart). */
  handOver(from: ProcessId, to: ProcessId, channel: string, msg: Message, ctx: unknown): void {
    this.#counters.delivered++;
    this.#tracer.deliver(from, to, channel, msg);
    const receive = this.#receivers[to];
    if (receive === undefined) return;
    if (this.#context !== undefined) {
      this.#delivered?.(msg);
      // read at once by #runCurrent, so a delivery nested in a handler cannot disturb it
      this.#receive = receive;
      this.#from = from;
      this.#channel = channel;
      this.#msg = msg;
      this.#invoke(ctx, this.#runCurrent);
      return;
    }
    try {
      receive(from, channel, msg);
    } catch (err) {
      this.#errors.push(err);
    }
  }

  /** Fires a (not cancelled) timer: traced, its callback run under the context it was set in. */
  fire(t: TimerEvent): void {
    this.#tracer.timer(t.label);
    this.#invoke(t.ctx, t.fn);
  }

  /** Lets every pending promise continuation run, then rethrows what a handler threw. */
  async settle(): Promise<void> {
    await nextTurn();
    this.throwErrors();
  }

  /**
   * Rethrows the first error a message handler or timer threw since the last call, if any.
   * @throws Error naming the virtual time and the seed, with the handler's error as `cause`.
   */
  throwErrors(): void {
    if (this.#errors.length === 0) return;
    const first = this.#errors[0];
    this.#errors.length = 0;
    throw new Error(
      `a message handler or timer threw at virtual time ${this.#scheduler.now} (seed ${this.#seed}): ${first instanceof Error ? first.message : String(first)}`,
      { cause: first },
    );
  }

  #invoke(ctx: unknown, fn: () => void): void {
    try {
      if (this.#context !== undefined) this.#context.run(ctx, fn);
      else fn();
    } catch (err) {
      this.#errors.push(err);
    }
  }
}

/**
 * The {@link Link} process `self`'s endpoint runs on (`createEndpoint` of `@critsec/transport`
 * multiplexes its channels over it): sends go into the outbox, deliveries come from the inbox.
 * One link per incarnation of the process: after a crash, the old link's sends are dropped.
 */
export function processLink(
  self: ProcessId,
  peers: readonly ProcessId[],
  outbox: Outbox,
  inbox: Inbox,
  gate: CrashGate,
  detector?: SimDetector,
): Link {
  // the incarnation this link belongs to: once it crashed, its sends are dropped
  const incarnation = gate.incarnation(self);
  const link: Link = {
    self,
    peers,
    send: (to, channel, msg) => {
      if (gate.active && !gate.admits(self, incarnation)) return;
      outbox.send(self, to, channel, msg);
    },
    setReceiver: (receive) => inbox.setReceiver(self, receive),
  };
  if (detector === undefined) return link;
  return { ...link, setSuspect: (report) => detector.attach(self, report) };
}
