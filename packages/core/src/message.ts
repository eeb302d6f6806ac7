import type { ProcessId } from './process.js';

/**
 * A protocol message: a plain JSON-serializable object with a string `type`. Each algorithm
 * declares its messages as a discriminated union on `type` with a runtime validator.
 */
export interface Message {
  /** The message's kind, the discriminant its protocol's schema switches on. */
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * One process's view of the network (DESIGN.md 3.2).
 *
 * Delivery is reliable and FIFO per (sender, receiver, channel); `to` may be `self` (a process
 * is often in its own quorum). Messages are delivered asynchronously, never inside `send`.
 */
export interface Endpoint {
  /** This process. */
  readonly self: ProcessId;
  /** All processes of the cluster, `self` included, ascending. */
  readonly peers: readonly ProcessId[];
  /** The channel path of this endpoint (`''` for the root, `'lmin/mx'` for a nested one). */
  readonly path: string;
  /**
   * Sends `msg` to `to` on this endpoint's channel.
   * @throws TransportError if `to` is not a peer or the endpoint is closed.
   */
  send(to: ProcessId, msg: Message): void;
  /** Registers a handler for messages arriving on this channel; returns its unsubscribe. */
  onMessage(fn: (from: ProcessId, msg: Message) => void): () => void;
  /**
   * A multiplexed sub-endpoint named `name` (no `/`), FIFO on its own; channels nest
   * (`ep.channel('lmin').channel('mx')` has path `'lmin/mx'`). Returns the same sub-endpoint
   * for the same name.
   */
  channel(name: string): Endpoint;
}
