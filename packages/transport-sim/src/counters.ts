/**
 * Every count the simulator keeps (DESIGN.md 3.2, "observable"), in one place: messages sent
 * and delivered, by channel and by type; raw frames sent, dropped and duplicated under faults.
 */
import type { SessionStats } from '@critsec/transport';

/** Message counters of a network. */
export interface SimCounters {
  /** Messages sent. */
  readonly sent: number;
  /** Messages delivered. */
  readonly delivered: number;
  /** Messages sent per channel path (`''` is the root channel). */
  readonly byChannel: Readonly<Record<string, number>>;
  /** Messages sent per `channel` + `' '` + `type` (e.g. `'lmin/mx REQUEST'`). */
  readonly byType: Readonly<Record<string, number>>;
}

/** Counters of the raw frame layer under `FaultOptions` (all frame counts). */
export interface FaultCounters {
  readonly framesSent: number;
  readonly framesDropped: number;
  readonly framesDuplicated: number;
  /** Data frames the session layer sent again. */
  readonly retransmitted: number;
  /** Data frames the session layer received again and dropped. */
  readonly duplicatesDiscarded: number;
}

/** Messages sent and delivered, by channel and type. */
export class MessageCounters {
  /** Messages sent. */
  sent = 0;
  /** Messages delivered. */
  delivered = 0;
  readonly #byChannel = new Map<string, number>();
  readonly #byType = new Map<string, Map<string, number>>();

  /** Counts one message sent on `channel` with `type` (`'(malformed)'` for a forged message). */
  countSend(channel: string, type: string): void {
    this.sent++;
    this.#byChannel.set(channel, (this.#byChannel.get(channel) ?? 0) + 1);
    let types = this.#byType.get(channel);
    if (types === undefined) {
      types = new Map();
      this.#byType.set(channel, types);
    }
    types.set(type, (types.get(type) ?? 0) + 1);
  }

  /** A copy of the counts so far. */
  snapshot(): SimCounters {
    const byType: Record<string, number> = {};
    for (const [ch, m] of this.#byType) for (const [type, c] of m) byType[`${ch} ${type}`] = c;
    return {
      sent: this.sent,
      delivered: this.delivered,
      byChannel: Object.fromEntries(this.#byChannel),
      byType,
    };
  }
}

/** Raw frames under faults: sent, lost and doubled by the faulty link. */
export class FrameCounters {
  sent = 0;
  dropped = 0;
  duplicated = 0;

  /** The {@link FaultCounters}, with the session layer's counts summed over `sessions`. */
  snapshot(sessions: Iterable<Readonly<SessionStats>>): FaultCounters {
    let retransmitted = 0;
    let duplicatesDiscarded = 0;
    for (const stats of sessions) {
      retransmitted += stats.retransmitted;
      duplicatesDiscarded += stats.duplicates;
    }
    return {
      framesSent: this.sent,
      framesDropped: this.dropped,
      framesDuplicated: this.duplicated,
      retransmitted,
      duplicatesDiscarded,
    };
  }
}
