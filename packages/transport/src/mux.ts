import {
  type Endpoint,
  HeldMessagesOverflowError,
  type Message,
  type ProcessId,
  type Suspicions,
  TransportError,
} from '@critsec/core';
import { CONTROL_PATH, Leave, type LeaveOptions } from './leave.js';
import type { Link } from './link.js';
import { SuspicionBoard } from './suspicions.js';

/** Why a message reached no handler. */
export interface UndeliverableMessage {
  /** The sender. */
  readonly from: ProcessId;
  /** The channel path it was sent on (`''` is the root channel). */
  readonly channel: string;
  /** The message. */
  readonly msg: Message;
  /**
   * `no-handler`: its channel had been listened on, but nobody listens any longer; `closed`: the
   * endpoint is closed; `overflow`: its channel was never listened on and `maxHeldMessages` were
   * held already (a `HeldMessagesOverflowError` is thrown to the link too).
   */
  readonly reason: 'no-handler' | 'closed' | 'overflow';
}

/** Options of {@link createEndpoint}. */
export interface EndpointOptions {
  /** Called for every message that reaches no handler (it is dropped). */
  onUndeliverable?: (u: UndeliverableMessage) => void;
  /**
   * Messages held, in all, for channels nobody has listened on yet (default 10 000, an integer
   * ≥ 0). Past it a message for such a channel is dropped and `HeldMessagesOverflowError` thrown.
   */
  maxHeldMessages?: number;
  /**
   * Called with what a handler threw while it was handed held messages (on a microtask, where
   * no link can catch it); the other held messages are handed over all the same. Without it,
   * the first such error is rethrown once they all are.
   */
  onHandlerError?: (err: unknown) => void;
}

/** A root endpoint plus the means to shut it down. */
export interface RootEndpoint extends Endpoint {
  /** Messages dropped because no handler listened on their channel (any longer), or after `close()`. */
  readonly undeliverable: number;
  /** Messages held now for channels nobody has listened on yet (delivered once somebody does). */
  readonly held: number;
  /**
   * Aborted, with a `PeerDepartedError` as its reason, once a peer closed for good while this
   * process had not announced leaving: pass it as the `signal` of CS calls (alone, or with
   * `AbortSignal.any`) so a call that waits for the departed peer rejects instead of hanging.
   * Only links that report departures (`Link.setPeerGone`, the TCP transport) ever abort it.
   */
  readonly departures: AbortSignal;
  /**
   * Whom this process suspects of having failed (issue 28 §4; the `Suspicions` of
   * `@critsec/core`, to hand CS objects as `ProcessContext.suspicions`): a peer that announced
   * leaving or closed for good, at once; and whoever the link's failure detector suspects
   * (`Link.setSuspect`: the TCP transport past `suspectAfterMs`, the simulator past its
   * `suspectAfter`), until it reports the peer back. A hint, never a fact: safety must not
   * depend on it. Listeners' exceptions go to `onHandlerError` when given, else are rethrown
   * to the link after every listener ran.
   */
  readonly suspicions: Suspicions;
  /**
   * The graceful leave (issue 26): announces `LEAVING` to every peer on the control channel and
   * keeps delivering and sending on every channel — so this process's CS objects keep serving
   * as arbiters of the others' quorums — until every peer has announced leaving too or is gone.
   * Idempotent (the same promise). Does not close the endpoint.
   * @throws LeaveTimeoutError (rejects) when `lingerMs` passes first, naming the peers still
   *   running; TransportError for a bad `lingerMs`.
   */
  leave(options?: LeaveOptions): Promise<void>;
  /**
   * Learns of channels created on demand (issue 29): `fn(rest, from)` is called, synchronously
   * and before the message is held or dropped, when a message arrives on a channel path
   * `prefix/rest` that no handler listens on — never opened, or whose handlers have all
   * unsubscribed. If `fn` subscribes a handler to that channel before returning, the message is
   * handed to it at once (behind any it had held); otherwise it is held or dropped as without the
   * hook. Channels under the prefix whose messages were held before the hook was set are offered
   * to it when it is set (what they hold is handed over on a microtask if it subscribes). One hook per prefix (a second replaces the first); `prefix` is a channel path without a
   * leading or trailing `/`. Returns the function that removes the hook.
   * @throws TransportError for a prefix that is not a non-empty channel path.
   */
  onUnopened(prefix: string, fn: (rest: string, from: ProcessId) => void): () => void;
  /** Stops delivering and sending; later `send` calls throw `TransportError`. */
  close(): void;
}

class ChannelNode implements Endpoint {
  readonly handlers: ((from: ProcessId, msg: Message) => void)[] = [];
  readonly children = new Map<string, ChannelNode>();
  /** True once a handler subscribed (the channel is open). */
  opened = false;
  /** Messages held until the channel opens, then until they are handed over (FIFO), if any. */
  backlog: [ProcessId, Message][] | undefined;

  constructor(
    readonly mux: Mux,
    readonly path: string,
  ) {}

  get self(): ProcessId {
    return this.mux.link.self;
  }

  get peers(): readonly ProcessId[] {
    return this.mux.link.peers;
  }

  send(to: ProcessId, msg: Message): void {
    if (this.mux.closed)
      throw new TransportError(`send on closed endpoint of P${this.self} (channel '${this.path}')`);
    this.mux.link.send(to, this.path, msg);
  }

  onMessage(fn: (from: ProcessId, msg: Message) => void): () => void {
    this.handlers.push(fn);
    if (!this.opened) {
      this.opened = true;
      // handed over on a microtask: never inside the subscriber's (e.g. a constructor's) code
      if (this.backlog !== undefined) queueMicrotask(() => this.mux.drain(this));
    }
    return () => {
      const i = this.handlers.indexOf(fn);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  channel(name: string): Endpoint {
    if (typeof name !== 'string' || name.length === 0 || name.includes('/')) {
      throw new TransportError(
        `channel name must be a non-empty string without '/', got ${JSON.stringify(name)}`,
      );
    }
    let child = this.children.get(name);
    if (child === undefined) {
      child = new ChannelNode(this.mux, this.path === '' ? name : `${this.path}/${name}`);
      this.children.set(name, child);
      this.mux.nodes.set(child.path, child);
      child.backlog = this.mux.early.get(child.path);
      this.mux.early.delete(child.path);
    }
    return child;
  }
}

class RootChannel extends ChannelNode implements RootEndpoint {
  get undeliverable(): number {
    return this.mux.undeliverable;
  }

  get held(): number {
    return this.mux.held;
  }

  get departures(): AbortSignal {
    return this.mux.leaving.signal;
  }

  get suspicions(): Suspicions {
    return this.mux.board;
  }

  leave(options?: LeaveOptions): Promise<void> {
    return this.mux.leaving.leave(options);
  }

  onUnopened(prefix: string, fn: (rest: string, from: ProcessId) => void): () => void {
    if (typeof prefix !== 'string' || prefix.length === 0 || prefix.startsWith('/') || prefix.endsWith('/')) {
      throw new TransportError(
        `onUnopened: prefix must be a non-empty channel path, got ${JSON.stringify(prefix)}`,
      );
    }
    const key = `${prefix}/`;
    this.mux.unopened.set(key, fn);
    // messages that came before the hook, held for channels under the prefix: offered to it now
    for (const [path, held] of [...this.mux.early]) {
      if (path.length > key.length && path.startsWith(key) && this.mux.unopened.get(key) === fn)
        fn(path.slice(key.length), held[0]![0]);
    }
    return () => {
      if (this.mux.unopened.get(key) === fn) this.mux.unopened.delete(key);
    };
  }

  close(): void {
    this.mux.closed = true;
  }
}

class Mux {
  readonly nodes = new Map<string, ChannelNode>();
  /** Messages held for channel paths that have no node yet. */
  readonly early = new Map<string, [ProcessId, Message][]>();
  /** `onUnopened` hooks by prefix (with its trailing `/`). */
  readonly unopened = new Map<string, (rest: string, from: ProcessId) => void>();
  readonly root: RootChannel;
  readonly leaving: Leave;
  readonly board: SuspicionBoard;
  readonly maxHeld: number;
  closed = false;
  undeliverable = 0;
  held = 0;

  constructor(
    readonly link: Link,
    readonly options: EndpointOptions,
  ) {
    const maxHeld = options.maxHeldMessages ?? 10_000;
    if (!(Number.isSafeInteger(maxHeld) && maxHeld >= 0)) {
      throw new TransportError(`maxHeldMessages must be an integer ≥ 0, got ${String(maxHeld)}`);
    }
    this.maxHeld = maxHeld;
    this.root = new RootChannel(this, '');
    this.nodes.set('', this.root);
    this.leaving = new Leave(link);
    this.board = new SuspicionBoard(link.self, options.onHandlerError);
    link.setReceiver((from, channel, msg) => this.receive(from, channel, msg));
    link.setPeerGone?.((peer) => {
      this.leaving.gone(peer);
      this.board.left(peer);
    });
    link.setSuspect?.((peer, suspected) => this.board.detected(peer, suspected));
  }

  /** The channel received on last and its node: most messages come on the channel of the one before. */
  #lastPath: string | undefined;
  #lastNode: ChannelNode | undefined;

  receive(from: ProcessId, channel: string, msg: Message): void {
    let node: ChannelNode | undefined;
    if (this.closed) node = undefined;
    else if (channel === this.#lastPath) node = this.#lastNode;
    else {
      node = this.nodes.get(channel);
      // only a node that exists is remembered (channels are never removed)
      if (node !== undefined) {
        this.#lastPath = channel;
        this.#lastNode = node;
      }
    }
    let handlers = node?.handlers;
    if ((handlers === undefined || handlers.length === 0) && this.unopened.size > 0 && !this.closed) {
      node = this.#onDemand(node, from, channel);
      handlers = node?.handlers;
    }
    if (handlers === undefined || handlers.length === 0 || node!.backlog !== undefined) {
      this.#notNow(node, from, channel, msg);
      return;
    }
    if (handlers.length === 1) {
      handlers[0]!(from, msg);
      return;
    }
    for (const h of [...handlers]) h(from, msg);
  }

  /** Calls the `onUnopened` hook whose prefix `channel` has, if any; returns the channel's node after it. */
  #onDemand(node: ChannelNode | undefined, from: ProcessId, channel: string): ChannelNode | undefined {
    for (const [prefix, fn] of this.unopened) {
      if (channel.length > prefix.length && channel.startsWith(prefix)) {
        fn(channel.slice(prefix.length), from);
        return this.nodes.get(channel);
      }
    }
    return node;
  }

  /** A message that cannot be handed over now: held, queued behind held ones, or dropped. */
  #notNow(node: ChannelNode | undefined, from: ProcessId, channel: string, msg: Message): void {
    if (this.closed) {
      this.#drop(from, channel, msg, 'closed');
      return;
    }
    if (node === undefined && channel === CONTROL_PATH) {
      if (this.leaving.receive(from, msg)) this.board.left(from);
      else this.#drop(from, channel, msg, 'no-handler');
      return;
    }
    if (node?.opened && node.backlog === undefined) {
      this.#drop(from, channel, msg, 'no-handler');
      return;
    }
    if (this.held >= this.maxHeld) {
      this.#drop(from, channel, msg, 'overflow');
      throw new HeldMessagesOverflowError(
        `P${this.link.self}: a message from P${from} on channel '${channel}', which nobody listens on yet, was dropped: ` +
          `${this.maxHeld} messages are held already (maxHeldMessages); open every channel (build every CS object) ` +
          'before the peers send, or raise maxHeldMessages',
        { channel, limit: this.maxHeld },
      );
    }
    this.held++;
    const held: [ProcessId, Message] = [from, msg];
    if (node !== undefined) {
      if (node.backlog === undefined) node.backlog = [held];
      else node.backlog.push(held);
      return;
    }
    const early = this.early.get(channel);
    if (early === undefined) this.early.set(channel, [held]);
    else early.push(held);
  }

  /** Hands an opened channel its held messages, in order (later arrivals queue behind them). */
  drain(node: ChannelNode): void {
    const backlog = node.backlog;
    if (backlog === undefined) return;
    const failures: unknown[] = [];
    for (let i = 0; i < backlog.length; i++) {
      const [from, msg] = backlog[i]!;
      this.held--;
      if (this.closed) this.#drop(from, node.path, msg, 'closed');
      else if (node.handlers.length === 0) this.#drop(from, node.path, msg, 'no-handler');
      else
        for (const h of [...node.handlers]) {
          try {
            h(from, msg);
          } catch (err) {
            failures.push(err);
          }
        }
    }
    node.backlog = undefined;
    const report = this.options.onHandlerError;
    if (report !== undefined) for (const err of failures) report(err);
    else if (failures.length > 0) throw failures[0];
  }

  #drop(from: ProcessId, channel: string, msg: Message, reason: UndeliverableMessage['reason']): void {
    this.undeliverable++;
    this.options.onUndeliverable?.({ from, channel, msg, reason });
  }
}

/**
 * Builds a process's root {@link Endpoint} over a {@link Link}: channels nest
 * (`channel('lmin').channel('mx')` is path `'lmin/mx'`), each FIFO because the link is FIFO per
 * channel, all sharing one link (one connection carries the whole stack).
 *
 * A message for a channel nobody has listened on yet is **held** (up to `maxHeldMessages` in
 * all, past which it is dropped and `HeldMessagesOverflowError` thrown to the link) and handed
 * over, in order, on a microtask after the channel's first `onMessage`: a peer's REQUEST that
 * arrives before this process built its CS object is not lost. A message for a channel whose
 * handlers have all unsubscribed (a closed CS object), or after `close()`, is dropped and
 * counted (`undeliverable`). Messages on the control channel (`/control`, a path no user
 * channel can have) belong to the graceful leave (`leave`).
 *
 * @throws TransportError for a bad `maxHeldMessages`.
 */
export function createEndpoint(link: Link, options: EndpointOptions = {}): RootEndpoint {
  return new Mux(link, options).root;
}
