/**
 * Crashes and restarts of simulated processes (issue 27), and the *acknowledge-after-commit*
 * rule of a durable process. The model is that of a reliable session layer whose receiver
 * acknowledges a message only once its durable layer has committed the step that handled it:
 *
 * - `crash(p)`: p's endpoint stops delivering (its receiver is dropped); messages to p wait in
 *   their (from, p, channel) links, in order — the senders' session layer would retransmit them;
 *   p's sends after the crash (its old endpoint's) are dropped.
 * - A message handed to a process that {@link CrashGate.ackAfterCommit acknowledges after commit}
 *   counts as received only once {@link CrashGate.acknowledge} covers it; on a crash, messages
 *   handed over but not acknowledged go back to the head of their links, to be delivered again.
 * - `restart(p)`: a fresh endpoint receives; the waiting messages are delivered in link order at
 *   the restart's instant (a timer of delay 0), before any later arrival on the same link.
 *
 * A network that never crashes a process and never asks for acknowledgements is untouched: the
 * deliver path tests one boolean.
 */
import { type Message, type ProcessId, TransportError } from '@critsec/core';
import type { MessageCounters } from './counters.js';
import type { Tracer } from './tracer.js';

/** A message waiting for its receiver (crashed, or behind waiting messages of its link). */
interface Parked {
  readonly from: ProcessId;
  readonly channel: string;
  readonly msg: Message;
  readonly ctx: unknown;
}

/** Counters of crashes and of what they did to messages. */
export interface CrashCounters {
  /** Processes crashed. */
  readonly crashes: number;
  /** Processes restarted. */
  readonly restarts: number;
  /** Sends of a crashed incarnation, dropped. */
  readonly droppedSends: number;
  /** Messages that waited in their link for a crashed receiver (or behind such messages). */
  readonly parked: number;
  /** Messages handed over, not acknowledged at the crash, and delivered again after the restart. */
  readonly redelivered: number;
}

/** Where the gate delivers a message once its receiver is back (the inbox's deliver path). */
type Deliver = (from: ProcessId, to: ProcessId, channel: string, msg: Message, ctx: unknown) => void;

/** The crash state of every process of one network (see the module comment). */
export class CrashGate {
  /** True once a crash or an acknowledgement rule exists: only then does the inbox ask the gate. */
  active = false;
  readonly #n: number;
  readonly #counters: MessageCounters;
  readonly #tracer: Tracer;
  readonly #incarnation: number[];
  readonly #down: boolean[];
  /** Per receiver: the waiting messages of each link (key: from and channel), links in first-use order. */
  readonly #waiting: Map<string, Parked[]>[];
  readonly #ackAfterCommit: boolean[];
  /** Per receiver: messages handed over and not acknowledged yet, in hand-over order. */
  readonly #unacked: Parked[][];
  /** Per receiver: messages handed over in this incarnation (acknowledged ones included). */
  readonly #handed: number[];
  readonly #acked: number[];
  /** Who is cut from whom by a partition (`partition.ts`), or undefined. */
  isCut: ((a: ProcessId, b: ProcessId) => boolean) | undefined = undefined;
  #crashes = 0;
  #restarts = 0;
  #droppedSends = 0;
  #parked = 0;
  #redelivered = 0;

  constructor(n: number, counters: MessageCounters, tracer: Tracer) {
    this.#n = n;
    this.#counters = counters;
    this.#tracer = tracer;
    this.#incarnation = new Array<number>(n).fill(0);
    this.#down = new Array<boolean>(n).fill(false);
    this.#waiting = Array.from({ length: n }, () => new Map());
    this.#ackAfterCommit = new Array<boolean>(n).fill(false);
    this.#unacked = Array.from({ length: n }, () => []);
    this.#handed = new Array<number>(n).fill(0);
    this.#acked = new Array<number>(n).fill(0);
  }

  /** The current incarnation of `p` (0 before its first crash; +1 at each crash). */
  incarnation(p: ProcessId): number {
    return this.#incarnation[p]!;
  }

  /** True while `p` is crashed. */
  isDown(p: ProcessId): boolean {
    return this.#down[p]!;
  }

  /** A send of `p`'s incarnation `inc`: false (and counted as dropped) when that incarnation crashed. */
  admits(p: ProcessId, inc: number): boolean {
    if (this.#incarnation[p] === inc && !this.#down[p]) return true;
    this.#droppedSends++;
    return false;
  }

  /**
   * A message arrives for `to`: true when it waits in its link (the receiver is down, or older
   * messages of the link wait); false to deliver it now (remembered as unacknowledged when `to`
   * acknowledges after commit).
   */
  intercept(from: ProcessId, to: ProcessId, channel: string, msg: Message, ctx: unknown): boolean {
    const links = this.#waiting[to]!;
    if (
      this.#down[to] ||
      (links.size > 0 && links.has(linkKey(from, channel))) ||
      this.isCut?.(from, to) === true
    ) {
      const key = linkKey(from, channel);
      const q = links.get(key);
      if (q === undefined) links.set(key, [{ from, channel, msg, ctx }]);
      else q.push({ from, channel, msg, ctx });
      this.#parked++;
      return true;
    }
    this.#handOver(to, from, channel, msg, ctx);
    return false;
  }

  /** Remembers a message handed to `to` as unacknowledged, when `to` acknowledges after commit. */
  #handOver(to: ProcessId, from: ProcessId, channel: string, msg: Message, ctx: unknown): void {
    if (!this.#ackAfterCommit[to]) return;
    this.#unacked[to]!.push({ from, channel, msg, ctx });
    this.#handed[to]!++;
  }

  /** From now on, messages handed to `p` count as received only once acknowledged. */
  ackAfterCommit(p: ProcessId): void {
    this.#check(p);
    this.#ackAfterCommit[p] = true;
    this.active = true;
  }

  /** Messages handed to `p` in its current incarnation so far: the mark a commit acknowledges up to. */
  handedOver(p: ProcessId): number {
    return this.#handed[p]!;
  }

  /**
   * `p`'s durable layer committed every step that handled the first `mark` messages handed to
   * its current incarnation ({@link handedOver} taken before the commit): they count as received.
   */
  acknowledge(p: ProcessId, mark: number): void {
    const drop = mark - this.#acked[p]!;
    if (drop <= 0) return;
    this.#unacked[p]!.splice(0, drop);
    this.#acked[p] = mark;
  }

  /**
   * Crashes `p`: it receives nothing more, its later sends are dropped, and the messages handed
   * to it but not acknowledged go back to the head of their links.
   * @throws TransportError for an unknown or already crashed process.
   */
  crash(p: ProcessId): void {
    this.#check(p);
    if (this.#down[p]) throw new TransportError(`SimNetwork.crash(${p}): P${p} is already crashed`);
    this.active = true;
    this.#down[p] = true;
    this.#incarnation[p]!++;
    this.#crashes++;
    const back = this.#unacked[p]!;
    const links = this.#waiting[p]!;
    for (let i = back.length - 1; i >= 0; i--) {
      const m = back[i]!;
      const key = linkKey(m.from, m.channel);
      const q = links.get(key);
      if (q === undefined) links.set(key, [m]);
      else q.unshift(m);
    }
    this.#redelivered += back.length;
    this.#counters.delivered -= back.length; // not received after all: in flight again
    this.#unacked[p] = [];
    this.#handed[p] = 0;
    this.#acked[p] = 0;
    this.#tracer.note({ crash: p, back: back.length });
  }

  /**
   * Marks `p` up again (its new endpoint is the caller's) and returns the function that
   * delivers its waiting messages, link by link in order, to `deliver`.
   * @throws TransportError for an unknown process or one that is not crashed.
   */
  restart(p: ProcessId, deliver: Deliver): () => void {
    this.#check(p);
    if (!this.#down[p]) throw new TransportError(`SimNetwork.restart(${p}): P${p} is not crashed`);
    this.#down[p] = false;
    this.#restarts++;
    this.#tracer.note({ restart: p });
    const inc = this.#incarnation[p]!;
    return () => this.#flush(p, inc, deliver);
  }

  /**
   * A partition healed: returns the function that delivers, for every process up, its waiting
   * messages from senders no longer cut off, link by link in order.
   */
  healed(deliver: Deliver): () => void {
    const incs = this.#incarnation.slice();
    return () => {
      for (let p = 0; p < this.#n; p++) if (!this.#down[p]) this.#flush(p, incs[p]!, deliver);
    };
  }

  /** Delivers `p`'s waiting messages, link by link in order, while it is up in incarnation `inc` and not cut off from the sender. */
  #flush(p: ProcessId, inc: number, deliver: Deliver): void {
    const links = this.#waiting[p]!;
    for (const [key, q] of [...links]) {
      while (
        q.length > 0 &&
        !this.#down[p] &&
        this.#incarnation[p] === inc &&
        this.isCut?.(q[0]!.from, p) !== true
      ) {
        const m = q.shift()!;
        if (q.length === 0) links.delete(key);
        this.#handOver(p, m.from, m.channel, m.msg, m.ctx);
        deliver(m.from, p, m.channel, m.msg, m.ctx);
      }
    }
  }

  /** The counters so far. */
  counters(): CrashCounters {
    return {
      crashes: this.#crashes,
      restarts: this.#restarts,
      droppedSends: this.#droppedSends,
      parked: this.#parked,
      redelivered: this.#redelivered,
    };
  }

  #check(p: ProcessId): void {
    if (!(Number.isInteger(p) && p >= 0 && p < this.#n))
      throw new TransportError(`SimNetwork: no process ${String(p)}; ids are 0..${this.#n - 1}`);
  }
}

const linkKey = (from: ProcessId, channel: string): string => `${from}\u0000${channel}`;
