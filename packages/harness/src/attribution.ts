/*
 * Message attribution (DESIGN.md 4; the message-complexity measure of the global-CS paper,
 * Sec. 3.3): every message a CS object sends is charged to the invocation that caused it —
 * directly (sent inside `entry()`/`exit()`), through promise continuations, or through a chain of
 * messages across processes. The key of the current invocation lives in an `AsyncLocalStorage`
 * (an invocation's promise continuations keep it); it travels with each message either in an
 * envelope on the wire (`'envelope'`: real transports; every process of the cluster must wrap its
 * endpoint) or beside it, carried by the transport's own causal context (`'context'`: the
 * simulator's `CausalContext`, the message is unchanged).
 *
 * The simulator's deliveries and timers do not enter the `AsyncLocalStorage`: handlers are
 * synchronous and atomic (ARCHITECTURE.md §2), so the causal context sets a synchronous slot for
 * the length of the call and restores it after (try/finally), instead of an `AsyncLocalStorage`
 * `run` per delivery (issue 15: the simulator's hot path). What reads the key (a send, a timer's
 * capture, {@link MessageAttribution.current}) reads the slot while it is set; an invocation
 * started inside a delivery ({@link MessageAttribution.run}) clears it for its own length, so
 * the invocation's key is read from the storage, as its continuations will read it. A promise
 * continuation a handler itself registers would not see the delivery's key (no handler of this
 * repository registers one: they are synchronous; an invocation they start goes through `run`).
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
  /**
   * Messages delivered to them (each once, however many handlers). Once
   * {@link MessageAttribution.causalContext} is wired into a `SimNetwork`, the network counts
   * them: every message it delivers to a process with a receiver.
   */
  delivered = 0;
  /**
   * Counts by channel (relative path) then type, and by key, boxed: no `Map.set` and no string
   * built a send (each wrapped endpoint holds its channel's map).
   */
  readonly #byChannel = new Map<string, Map<string, { n: number }>>();
  /** Every `channel TYPE` counted, with its box, in the order first sent (for {@link byType}). */
  readonly #typeOrder: [string, { n: number }][] = [];
  readonly #byKey = new Map<K, { n: number }>();
  /** The channel and type last counted and its box: a multicast counts one type |Q| times in a row. */
  #lastCounts: Map<string, { n: number }> | undefined;
  #lastType = '';
  #lastTypeBox: { n: number } | undefined;
  /** The key last charged and its box: a multicast charges one key |Q| times in a row. */
  #lastKey: K | null = null;
  #lastBox: { n: number } | undefined;
  readonly #als = new AsyncLocalStorage<K | null>();
  readonly #listeners: ((key: K, to: ProcessId, msg: Message) => void)[] = [];
  readonly #seen = new WeakSet<object>();
  /** The context carrier's last message counted (see {@link received}). */
  #last: unknown;
  /**
   * The store read by the send in progress ({@link AttributedEndpoint.send}), for the causal
   * context's `capture` of that same send: one `AsyncLocalStorage` read a send, not two.
   */
  #sending = false;
  #sendingStore: K | null | undefined;
  /**
   * The synchronous slot: while `#inSlot`, the key of the delivery or timer the simulator is
   * running (the causal context's `run`), read instead of the `AsyncLocalStorage`.
   */
  #inSlot = false;
  #slot: K | null | undefined;
  /**
   * Set by {@link causalContext}: the causal context counts deliveries (its `delivered`), so a
   * wrapped endpoint of the `'context'` carrier hands messages to its handlers as they are, with
   * no wrapper of its own on the delivery path (at n = 10,000 every object a delivery touches
   * is a cache miss, issue 15).
   */
  #contextCounts = false;

  /** An attribution with nothing charged yet; `options.carrier` says how a key travels with a message. */
  constructor(options: { readonly carrier?: AttributionCarrier } = {}) {
    this.carrier = options.carrier ?? 'envelope';
  }

  /** Sent, per `channel TYPE` (the root channel has no prefix): a copy of the counts so far. */
  get byType(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, box] of this.#typeOrder) out.set(key, (out.get(key) ?? 0) + box.n);
    return out;
  }

  /** Sent, per invocation key (messages sent outside any invocation are not in it): a copy. */
  get byKey(): Map<K, number> {
    return unbox(this.#byKey);
  }

  /** Runs `fn` as (part of) invocation `key` (`null`: of none); returns what `fn` returns. */
  run<T>(key: K | null, fn: () => T): T {
    if (!this.#inSlot) return this.#als.run(key, fn);
    // an invocation started inside a delivery: its key is the storage's, for its continuations too
    this.#inSlot = false;
    try {
      return this.#als.run(key, fn);
    } finally {
      this.#inSlot = true;
    }
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
    return this.#store() ?? null;
  }

  /** The key being run: the synchronous slot's while it is set, else the storage's. */
  #store(): K | null | undefined {
    return this.#inSlot ? this.#slot : this.#als.getStore();
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
   * the key is captured at each send and timer and restored when the event runs, and each
   * delivery is counted in {@link delivered} (wrapped endpoints then add nothing to the delivery
   * path).
   */
  causalContext(): CausalContext {
    this.#contextCounts = true;
    return {
      delivered: (msg) => this.received(msg),
      // inside a wrapped endpoint's send, the store it has just read (the same, synchronously)
      capture: () => (this.#sending ? this.#sendingStore : this.#store()),
      // the synchronous slot (see the module comment), restored after: a delivery is one call
      run: (ctx, fn) => {
        const inSlot = this.#inSlot;
        const slot = this.#slot;
        this.#inSlot = true;
        this.#slot = ctx as K | null | undefined;
        try {
          fn();
        } finally {
          this.#inSlot = inSlot;
          this.#slot = slot;
        }
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

  /**
   * @internal Sends `msg` through `inner` as the current invocation (read once: the causal
   * context's `capture` of this send gets the same store), then counts and charges it.
   */
  send(inner: Endpoint, rel: string, counts: Map<string, { n: number }>, to: ProcessId, msg: Message): void {
    const store = this.#store();
    const key = store ?? null;
    if (this.carrier === 'envelope') {
      const envelope: Envelope<K> = { type: typeOf(msg), a: key, m: msg };
      inner.send(to, envelope as unknown as Message);
    } else {
      this.#sending = true;
      this.#sendingStore = store;
      try {
        inner.send(to, msg);
      } finally {
        this.#sending = false;
        this.#sendingStore = undefined;
      }
    }
    this.#charge(rel, counts, to, msg, key);
  }

  /** @internal The per-type counts of the channel at relative path `rel` (one map per path). */
  countsOf(rel: string): Map<
    string,
    {
      /** Messages of that type sent on the channel. */
      n: number;
    }
  > {
    let counts = this.#byChannel.get(rel);
    if (counts === undefined) {
      counts = new Map();
      this.#byChannel.set(rel, counts);
    }
    return counts;
  }

  /** Counts and charges one send. */
  #charge(rel: string, counts: Map<string, { n: number }>, to: ProcessId, msg: Message, key: K | null): void {
    this.sent++;
    const type = typeOf(msg);
    if (counts === this.#lastCounts && type === this.#lastType) this.#lastTypeBox!.n++;
    else {
      let t = counts.get(type);
      if (t === undefined) {
        t = { n: 1 };
        counts.set(type, t);
        this.#typeOrder.push([rel === '' ? type : `${rel} ${type}`, t]);
      } else t.n++;
      this.#lastCounts = counts;
      this.#lastType = type;
      this.#lastTypeBox = t;
    }
    if (key === null) return;
    if (key === this.#lastKey && this.#lastBox !== undefined) this.#lastBox.n++;
    else {
      let box = this.#byKey.get(key);
      if (box === undefined) {
        box = { n: 1 };
        this.#byKey.set(key, box);
      } else box.n++;
      this.#lastKey = key;
      this.#lastBox = box;
    }
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!(key, to, msg);
  }

  /** @internal True once the causal context counts deliveries (see {@link causalContext}). */
  get contextCounts(): boolean {
    return this.#contextCounts;
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

/** A copy of boxed counts. */
function unbox<K>(boxes: ReadonlyMap<K, { readonly n: number }>): Map<K, number> {
  const out = new Map<K, number>();
  for (const [key, box] of boxes) out.set(key, box.n);
  return out;
}

class AttributedEndpoint<K> implements Endpoint {
  readonly #inner: Endpoint;
  readonly #attribution: MessageAttribution<K>;
  readonly #rel: string;
  /** This channel's per-type counts in the attribution. */
  readonly #counts: Map<string, { n: number }>;
  readonly #children = new Map<string, AttributedEndpoint<K>>();

  constructor(inner: Endpoint, attribution: MessageAttribution<K>, rel: string) {
    this.#inner = inner;
    this.#attribution = attribution;
    this.#rel = rel;
    this.#counts = attribution.countsOf(rel);
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
    this.#attribution.send(this.#inner, this.#rel, this.#counts, to, msg);
  }

  onMessage(fn: (from: ProcessId, msg: Message) => void): () => void {
    const a = this.#attribution;
    if (a.carrier === 'context') {
      // the causal context counts the delivery: the handler itself is registered
      if (a.contextCounts) return this.#inner.onMessage(fn);
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
