import { type Endpoint, type Message, type ProcessId, TransportError } from '@critsec/core';
import type { Link } from './link.js';

/** Why a message reached no handler. */
export interface UndeliverableMessage {
  /** The sender. */
  readonly from: ProcessId;
  /** The channel path it was sent on (`''` is the root channel). */
  readonly channel: string;
  /** The message. */
  readonly msg: Message;
  /** No handler listens on that channel, or the endpoint is closed. */
  readonly reason: 'no-handler' | 'closed';
}

/** Options of {@link createEndpoint}. */
export interface EndpointOptions {
  /** Called for every message that reaches no handler (it is dropped). */
  onUndeliverable?: (u: UndeliverableMessage) => void;
}

/** A root endpoint plus the means to shut it down. */
export interface RootEndpoint extends Endpoint {
  /** Messages dropped because no handler listened on their channel. */
  readonly undeliverable: number;
  /** Stops delivering and sending; later `send` calls throw `TransportError`. */
  close(): void;
}

class ChannelNode implements Endpoint {
  readonly handlers: ((from: ProcessId, msg: Message) => void)[] = [];
  readonly children = new Map<string, ChannelNode>();

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
    }
    return child;
  }
}

class RootChannel extends ChannelNode implements RootEndpoint {
  get undeliverable(): number {
    return this.mux.undeliverable;
  }

  close(): void {
    this.mux.closed = true;
  }
}

class Mux {
  readonly nodes = new Map<string, ChannelNode>();
  readonly root: RootChannel;
  closed = false;
  undeliverable = 0;

  constructor(
    readonly link: Link,
    readonly options: EndpointOptions,
  ) {
    this.root = new RootChannel(this, '');
    this.nodes.set('', this.root);
    link.setReceiver((from, channel, msg) => this.receive(from, channel, msg));
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
    const handlers = node?.handlers;
    if (handlers === undefined || handlers.length === 0) {
      this.undeliverable++;
      this.options.onUndeliverable?.({ from, channel, msg, reason: this.closed ? 'closed' : 'no-handler' });
      return;
    }
    if (handlers.length === 1) {
      handlers[0]!(from, msg);
      return;
    }
    for (const h of [...handlers]) h(from, msg);
  }
}

/**
 * Builds a process's root {@link Endpoint} over a {@link Link}: channels nest
 * (`channel('lmin').channel('mx')` is path `'lmin/mx'`), each FIFO because the link is FIFO per
 * channel, all sharing one link (one connection carries the whole stack).
 *
 * A message for a channel nobody listens on is dropped and counted (`undeliverable`).
 */
export function createEndpoint(link: Link, options: EndpointOptions = {}): RootEndpoint {
  return new Mux(link, options).root;
}
