/**
 * What every part of one TCP transport shares: its settings, counters, events and logger, how it
 * reports refusals and errors, and the `change` signal that `ready()` and `flush()` wait on.
 */
import { EventEmitter } from 'node:events';
import { Emitter, type ProcessId } from '@critsec/core';
import type { ResolvedOptions, TcpLogger } from './options.js';
import {
  createTransportStats,
  type RefusalReason,
  type TcpTransportEvents,
  type TcpTransportStats,
} from './stats.js';

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
