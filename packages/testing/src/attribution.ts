/*
 * Message attribution (DESIGN.md 4; the message-complexity measure of the global-CS paper,
 * Sec. 3.3): every message a CS object sends is charged to the invocation that caused it —
 * directly (sent inside `entry()`/`exit()`), through promise continuations, or through a chain of
 * messages across processes. The key of the current invocation lives in an `AsyncLocalStorage`;
 * it travels with each message either in an envelope on the wire (`'envelope'`: real transports;
 * every process of the cluster must wrap its endpoint) or beside it, carried by the transport's
 * own causal context (`'context'`: the simulator's `CausalContext`, the message is unchanged).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Endpoint, Message, ProcessId } from '@critsec/core';
import type { CausalContext } from '@critsec/transport-sim';

/**
 * How the invocation key travels with a message: `'envelope'` — sent as `{ type, a, m }` (the
 * key `a`, the message `m`), unwrapped by the receiving wrapper; `'context'` — the message is sent
 * as it is and the transport carries the key (wire {@link MessageAttribution.causalContext} into a
 * `SimNetwork`).
 */
export type AttributionCarrier = 'envelope' | 'context';

interface Envelope<K> {
  readonly type: string;
  readonly a: K | null;
  readonly m: Message;
}

function isEnvelope<K>(x: unknown): x is Envelope<K> {
  if (typeof x !== 'object' || x === null || !('a' in x)) return false;
  const m = (x as { m?: unknown }).m;
  return typeof m === 'object' && m !== null && typeof (m as Message).type === 'string';
}

const typeOf = (msg: Message): string =>
  typeof msg === 'object' && msg !== null && typeof msg.type === 'string' ? msg.type : '(malformed)';

/**
 * The attribution of one process's messages (or, in the simulator, of a whole cluster's): the
 * current invocation key, the counters, and the endpoint wrapper. `K` is the key type: a string
 * such as `"<process>:<round>:<entry|exit>"` on a wire, anything (e.g. a record index) with the
 * `'context'` carrier.
 */
export class MessageAttribution<K = string> {
  /** How keys travel (see {@link AttributionCarrier}). */
  readonly carrier: AttributionCarrier;
  /** Messages sent through the wrapped endpoints (self-messages included). */
  sent = 0;
  /** Messages delivered to them (each once, however many handlers). */
  delivered = 0;
  /** Sent, per `channel TYPE` (the root channel has no prefix). */
  readonly byType = new Map<string, number>();
  /** Sent, per invocation key (messages sent outside any invocation are not in it). */
  readonly byKey = new Map<K, number>();
  readonly #als = new AsyncLocalStorage<K | null>();
  readonly #listeners: ((key: K, to: ProcessId, msg: Message) => void)[] = [];
  readonly #seen = new WeakSet<object>();
  /** The context carrier's last message counted (see {@link received}). */
  #last: unknown;

  constructor(options: { readonly carrier?: AttributionCarrier } = {}) {
    this.carrier = options.carrier ?? 'envelope';
  }

  /** Runs `fn` as (part of) invocation `key` (`null`: of none); returns what `fn` returns. */
  run<T>(key: K | null, fn: () => T): T {
    return this.#als.run(key, fn);
  }

  /**
   * Disables the attribution's `AsyncLocalStorage`: Node 20 keeps every storage that ever ran in
   * a global list that each later promise pays for, so a process that makes many attributed
   * clusters slows down quadratically unless each is disposed of. Keys are not tracked afterwards
   * (`current()` is null).
   */
  dispose(): void {
    this.#als.disable();
  }

  /** The invocation being run, or null. */
  current(): K | null {
    return this.#als.getStore() ?? null;
  }

  /** Calls `fn` for every message charged to an invocation; returns the unsubscribe. */
  onCharge(fn: (key: K, to: ProcessId, msg: Message) => void): () => void {
    this.#listeners.push(fn);
    return () => {
      const i = this.#listeners.indexOf(fn);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /**
   * The causal context to give a `SimNetwork` (`context` option) with the `'context'` carrier:
   * the key is captured at each send and timer and restored when the event runs.
   */
  causalContext(): CausalContext {
    const als = this.#als;
    return {
      capture: () => als.getStore(),
      run: (ctx, fn) => {
        if (ctx === undefined) als.exit(fn);
        else als.run(ctx as K | null, fn);
      },
    };
  }

  /**
   * Wraps `inner` (and, through `channel`, every sub-channel) so that every message sent is
   * counted and charged to the current invocation, and every message received is handled inside
   * the invocation that sent it. With `'envelope'`, a message that is not an envelope (a peer
   * that does not wrap) is handed over as it is.
   */
  endpoint(inner: Endpoint): Endpoint {
    return new AttributedEndpoint(inner, this, '');
  }

  /** @internal Counts and charges one send. */
  charge(rel: string, to: ProcessId, msg: Message, key: K | null): void {
    this.sent++;
    const type = rel === '' ? typeOf(msg) : `${rel} ${typeOf(msg)}`;
    this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
    if (key === null) return;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
    for (const l of this.#listeners) l(key, to, msg);
  }

  /**
   * @internal Counts one delivery (once per message object). With the `'context'` carrier (the
   * simulator: one delivery at a time, its handlers one after another) only a repeat of the
   * object just counted is skipped, so a multicast object delivered again after others counts
   * again; no weak set of every message object, which cost the simulator 14 % of its time
   * (issue 15; the simulator's own `delivered` counter is the exact one).
   */
  received(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) {
      this.delivered++;
    } else if (this.carrier === 'context') {
      if (raw !== this.#last) this.delivered++;
      this.#last = raw;
    } else if (!this.#seen.has(raw)) {
      this.#seen.add(raw);
      this.delivered++;
    }
  }
}

class AttributedEndpoint<K> implements Endpoint {
  readonly #inner: Endpoint;
  readonly #attribution: MessageAttribution<K>;
  readonly #rel: string;
  readonly #children = new Map<string, AttributedEndpoint<K>>();

  constructor(inner: Endpoint, attribution: MessageAttribution<K>, rel: string) {
    this.#inner = inner;
    this.#attribution = attribution;
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
    const a = this.#attribution;
    const key = a.current();
    if (a.carrier === 'envelope') {
      const envelope: Envelope<K> = { type: typeOf(msg), a: key, m: msg };
      this.#inner.send(to, envelope as unknown as Message);
    } else this.#inner.send(to, msg);
    a.charge(this.#rel, to, msg, key);
  }

  onMessage(fn: (from: ProcessId, msg: Message) => void): () => void {
    const a = this.#attribution;
    if (a.carrier === 'context') {
      return this.#inner.onMessage((from, msg) => {
        a.received(msg);
        fn(from, msg);
      });
    }
    return this.#inner.onMessage((from, raw) => {
      if (!isEnvelope<K>(raw)) {
        fn(from, raw);
        return;
      }
      a.received(raw);
      a.run(raw.a, () => fn(from, raw.m));
    });
  }

  channel(name: string): Endpoint {
    let c = this.#children.get(name);
    if (c === undefined) {
      c = new AttributedEndpoint(
        this.#inner.channel(name),
        this.#attribution,
        this.#rel === '' ? name : `${this.#rel}/${name}`,
      );
      this.#children.set(name, c);
    }
    return c;
  }
}
