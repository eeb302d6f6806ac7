/*
 * An Endpoint wrapper for cluster members: counts every message the CS object sends (by channel
 * and type, self-messages included, like the simulator) and attributes it to the invocation that
 * caused it, across processes. Each message travels in an envelope `{ type, a, m }` carrying the
 * attribution key `a` of the invocation (`"<process>:<round>:<entry|exit>"`, or null); the
 * receiver runs the handler inside that key (AsyncLocalStorage), so whatever the handler sends
 * is charged to the same invocation — the message-complexity measure of the global-CS paper,
 * Sec. 3.3, for real runs.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { Endpoint, Message, ProcessId } from '@critsec/core';

/** Counters shared by every channel of one wrapped endpoint. */
export interface MessageStats {
  /** Messages sent by this process's CS object. */
  sent: number;
  /** Messages delivered to it. */
  delivered: number;
  /** Sent, per `channel TYPE` (the wrapped endpoint's own channel has no prefix). */
  readonly byType: Map<string, number>;
  /** Sent, per attribution key. */
  readonly byInvocation: Map<string, number>;
}

/** The attribution context: the key of the invocation whose messages are being sent. */
export type Attribution = AsyncLocalStorage<string | null>;

interface Envelope {
  readonly type: string;
  readonly a: string | null;
  readonly m: Message;
}

function isEnvelope(x: unknown): x is Envelope {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Partial<Envelope>;
  return (
    (e.a === null || typeof e.a === 'string') &&
    typeof e.m === 'object' &&
    e.m !== null &&
    typeof (e.m as Message).type === 'string'
  );
}

/** Fresh counters. */
export function messageStats(): MessageStats {
  return { sent: 0, delivered: 0, byType: new Map(), byInvocation: new Map() };
}

class CountingEndpoint implements Endpoint {
  readonly #inner: Endpoint;
  readonly #als: Attribution;
  readonly #stats: MessageStats;
  readonly #seen: WeakSet<object>;
  readonly #rel: string;
  readonly #children = new Map<string, CountingEndpoint>();

  constructor(inner: Endpoint, als: Attribution, stats: MessageStats, seen: WeakSet<object>, rel: string) {
    this.#inner = inner;
    this.#als = als;
    this.#stats = stats;
    this.#seen = seen;
    this.#rel = rel;
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
    const a = this.#als.getStore() ?? null;
    this.#inner.send(to, { type: msg.type, a, m: msg });
    const s = this.#stats;
    s.sent++;
    const key = this.#rel === '' ? msg.type : `${this.#rel} ${msg.type}`;
    s.byType.set(key, (s.byType.get(key) ?? 0) + 1);
    if (a !== null) s.byInvocation.set(a, (s.byInvocation.get(a) ?? 0) + 1);
  }

  onMessage(fn: (from: ProcessId, msg: Message) => void): () => void {
    return this.#inner.onMessage((from, raw) => {
      if (!isEnvelope(raw)) {
        fn(from, raw); // not from a counting peer: hand it over as it is
        return;
      }
      if (!this.#seen.has(raw)) {
        this.#seen.add(raw);
        this.#stats.delivered++;
      }
      this.#als.run(raw.a, () => fn(from, raw.m));
    });
  }

  channel(name: string): Endpoint {
    let c = this.#children.get(name);
    if (c === undefined) {
      c = new CountingEndpoint(
        this.#inner.channel(name),
        this.#als,
        this.#stats,
        this.#seen,
        this.#rel === '' ? name : `${this.#rel}/${name}`,
      );
      this.#children.set(name, c);
    }
    return c;
  }
}

/**
 * Wraps `inner` (and, through `channel`, every sub-channel) so that messages are counted in
 * `stats` and attributed through `als`. Every process of the cluster must wrap its endpoint the
 * same way (the envelope is the wire format).
 */
export function countingEndpoint(inner: Endpoint, als: Attribution, stats: MessageStats): Endpoint {
  return new CountingEndpoint(inner, als, stats, new WeakSet(), '');
}
