import type { Message, ProcessId } from '@critsec/core';

/**
 * What a network gives one process, below channels: unicast of `(channel, message)` pairs,
 * reliable and FIFO per (sender, receiver, channel). A transport implements this;
 * {@link createEndpoint} builds the channel tree of an `Endpoint` (`@critsec/core`) on top of it.
 */
export interface Link {
  /** This process. */
  readonly self: ProcessId;
  /** All processes, `self` included, ascending. */
  readonly peers: readonly ProcessId[];
  /**
   * Sends `msg` on `channel` (a `/`-separated path, `''` for the root) to `to`.
   * @throws TransportError for an unknown peer or a closed link.
   */
  send(to: ProcessId, channel: string, msg: Message): void;
  /** Installs the one receiver of this link (replacing any earlier one). */
  setReceiver(receive: (from: ProcessId, channel: string, msg: Message) => void): void;
  /**
   * Optional: installs the one callback told when a peer has closed for good (the TCP
   * transport: its `bye`), so a graceful leave stops waiting for it and a process still running
   * learns its departure (`RootEndpoint.leave`, `RootEndpoint.departures`).
   */
  setPeerGone?(gone: (peer: ProcessId) => void): void;
  /**
   * Optional: installs the one callback the link's failure detector reports to (issue 28 §4) —
   * `(peer, true)` once it suspects `peer` (the TCP transport: its connection down or silent past
   * `suspectAfterMs`; the simulator: crash-stopped or cut off past its timeout), `(peer, false)`
   * once `peer` is back with a live session. A link without one never suspects anybody (the
   * graceful leave still does: `RootEndpoint.suspicions`).
   */
  setSuspect?(report: (peer: ProcessId, suspected: boolean) => void): void;
}
