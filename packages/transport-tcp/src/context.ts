/**
 * What every part of one TCP transport shares: its settings, counters, events and logger, how it
 * reports refusals and errors, and the `change` signal that `ready()` and `flush()` wait on.
 */
import { EventEmitter } from 'node:events';
import type { ProcessId } from '@critsec/core';
import { Emitter } from '@critsec/core/kit';
import type { ResolvedOptions, TcpLogger } from './options.js';
import {
  createTransportStats,
  type RefusalReason,
  type TcpTransportEvents,
  type TcpTransportStats,
} from './stats.js';

/** Lines about unauthenticated connections logged in a burst before the rate limit applies. */
const UNAUTHENTICATED_LOG_BURST = 10;
/** After the burst, one line about unauthenticated connections per this many ms. */
const UNAUTHENTICATED_LOG_EVERY_MS = 1_000;

/** The shared state of one transport (internal: the facade owns it, the other files read it). */
export class TransportContext {
  readonly self: ProcessId;
  readonly options: ResolvedOptions;
  /** Every process of the cluster, `self` included, in increasing order. */
  readonly peerIds: readonly ProcessId[];
  /** Where warnings go; `null` when silenced. */
  readonly logger: TcpLogger | null;
  readonly stats: TcpTransportStats = createTransportStats();
  readonly events: Emitter<TcpTransportEvents>;
  /** Emits `'change'` when a peer connects, an ack arrives or the transport closes. */
  readonly progress = new EventEmitter();
  /** Set by `close()`: nothing is dialled, accepted or sent afterwards. */
  closed = false;
  /** Log tokens for reports about unauthenticated connections (a burst, then one per second). */
  #tokens = UNAUTHENTICATED_LOG_BURST;
  #refilledAt = Date.now();
  #suppressed = 0;

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.self = options.self;
    this.peerIds = options.peers.map((p) => p.id).sort((a, b) => a - b);
    this.logger = options.logger;
    this.events = new Emitter<TcpTransportEvents>((err) =>
      this.logger?.warn(`critsec P${this.self}: an event listener threw: ${String(err)}`),
    );
    this.progress.setMaxListeners(0);
  }

  /** Counts, logs and announces (event `refused`) a refused connection. */
  refuse(peer: ProcessId | undefined, reason: RefusalReason, detail: string): void {
    this.stats.refused[reason]++;
    this.logger?.warn(`critsec P${this.self}: refused connection (${reason}): ${detail}`);
    this.events.emit('refused', { peer, reason, detail });
  }

  /**
   * Counts and announces (event `refused`) a refused connection that was not authenticated, and
   * logs it without letting a flood of them flood the log: a burst of
   * {@link UNAUTHENTICATED_LOG_BURST} lines, then at most one a second, each saying how many
   * were left out.
   */
  refuseUnauthenticated(reason: RefusalReason, detail: string, peer?: ProcessId): void {
    this.stats.refused[reason]++;
    this.warnUnauthenticated(`refused connection (${reason}): ${detail}`);
    this.events.emit('refused', { peer, reason, detail });
  }

  /** A warning about an unauthenticated connection, rate-limited like {@link refuseUnauthenticated}. */
  warnUnauthenticated(message: string): void {
    const now = Date.now();
    const refill = Math.floor((now - this.#refilledAt) / UNAUTHENTICATED_LOG_EVERY_MS);
    if (refill > 0) {
      this.#tokens = Math.min(UNAUTHENTICATED_LOG_BURST, this.#tokens + refill);
      this.#refilledAt = now;
    }
    if (this.#tokens === 0) {
      this.#suppressed++;
      return;
    }
    this.#tokens--;
    const more = this.#suppressed > 0 ? ` (${this.#suppressed} similar reports left out)` : '';
    this.#suppressed = 0;
    this.logger?.warn(`critsec P${this.self}: ${message}${more}`);
  }

  /** Reports a non-fatal problem: event `error` if anyone listens, else a warning. */
  emitError(err: Error): void {
    if (this.events.has('error')) this.events.emit('error', err);
    else this.logger?.warn(`critsec P${this.self}: ${err.message}`);
  }

  /** Wakes whoever waits for progress (`ready()`, `flush()`). */
  changed(): void {
    this.progress.emit('change');
  }
}
