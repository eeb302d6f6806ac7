/**
 * The failure detector of the TCP transport (issue 28 §4): a peer is suspected once its
 * connection has been down, or established but silent, for longer than `suspectAfterMs`; it is
 * trusted again when a connection with it is established anew (its `connected` event). Silence
 * is measured from the last complete frame (`Connection.lastRx`; pings count, so an idle but
 * live peer, pinged every `heartbeatIntervalMs`, is never silent that long), downtime from the
 * connection's loss (its `disconnected` event) or from `start()` for a peer never connected. All
 * on `performance.now()`, a monotonic clock. The graceful leave's suspicions (LEAVING, `bye`)
 * are the endpoint's (`@critsec/transport`'s `SuspicionBoard`), not this file's.
 */
import type { ProcessId } from '@critsec/core';
import type { Peer } from './peer.js';

/** One transport's failure detector; the facade ticks it with the heartbeat timer. */
export class FailureDetector {
  readonly #suspectAfterMs: number;
  /** Per peer: since when it has had no established connection (absent while it has one). */
  readonly #downSince = new Map<ProcessId, number>();
  readonly #suspected = new Set<ProcessId>();
  #report: (peer: ProcessId, suspected: boolean) => void = () => {};

  constructor(suspectAfterMs: number) {
    this.#suspectAfterMs = suspectAfterMs;
  }

  /** Installs the one callback suspicions go to (`Link.setSuspect`). */
  setReport(report: (peer: ProcessId, suspected: boolean) => void): void {
    this.#report = report;
  }

  /** The transport started at `now`: every peer not connected yet counts as down from then. */
  start(peers: Iterable<Peer>, now: number): void {
    for (const p of peers) if (p.conn === undefined) this.#downSince.set(p.id, now);
  }

  /** `peer`'s connection was lost at `now`. */
  lost(peer: ProcessId, now: number): void {
    if (!this.#downSince.has(peer)) this.#downSince.set(peer, now);
  }

  /** A connection with `peer` is established anew: its session is back, it is trusted. */
  back(peer: ProcessId): void {
    this.#downSince.delete(peer);
    this.#suspected.delete(peer);
    this.#report(peer, false);
  }

  /** Suspects every peer down or silent for longer than `suspectAfterMs` at `now`. */
  tick(peers: Iterable<Peer>, now: number): void {
    for (const p of peers) {
      const conn = p.conn?.state === 'established' ? p.conn : undefined;
      const since = conn === undefined ? this.#downSince.get(p.id) : conn.lastRx;
      if (since === undefined || now - since <= this.#suspectAfterMs || this.#suspected.has(p.id)) continue;
      this.#suspected.add(p.id);
      this.#report(p.id, true);
    }
  }
}
