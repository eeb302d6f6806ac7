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
  /** Frames handed to the faulty link. */
  readonly framesSent: number;
  /** Frames the link dropped. */
  readonly framesDropped: number;
  /** Frames the link delivered twice. */
  readonly framesDuplicated: number;
  /** Data frames the session layer sent again. */
  readonly retransmitted: number;
  /** Data frames the session layer received again and dropped. */
  readonly duplicatesDiscarded: number;
}

/** One channel's count of messages sent, with its per-type counts (boxed: one lookup a send). */
interface ChannelCount {
  sent: number;
  readonly types: Map<string, { n: number }>;
}

/** Messages sent and delivered, by channel and type. */
export class MessageCounters {
  /** Messages sent. */
  sent = 0;
  /** Messages delivered. */
  delivered = 0;
  readonly #byChannel = new Map<string, ChannelCount>();
  /** The channel counted last and its entry: most sends go on the channel of the send before. */
  #lastChannel: string | undefined;
  #last: ChannelCount | undefined;
  /** The type last counted, in which channel, and its box: a multicast counts one type |Q| times in a row. */
  #lastType = '';
  #lastTypeOf: ChannelCount | undefined;
  #lastBox: { n: number } | undefined;

  /** Counts one message sent on `channel` with `type` (`'(malformed)'` for a forged message). */
  countSend(channel: string, type: string): void {
    this.sent++;
    let c = channel === this.#lastChannel ? this.#last : this.#byChannel.get(channel);
    if (c === undefined) {
      c = { sent: 0, types: new Map() };
      this.#byChannel.set(channel, c);
    }
    this.#lastChannel = channel;
    this.#last = c;
    c.sent++;
    if (type === this.#lastType && c === this.#lastTypeOf) {
      this.#lastBox!.n++;
      return;
    }
    let t = c.types.get(type);
    if (t === undefined) {
      t = { n: 1 };
      c.types.set(type, t);
    } else t.n++;
    this.#lastType = type;
    this.#lastTypeOf = c;
    this.#lastBox = t;
  }

  /** A copy of the counts so far. */
  snapshot(): SimCounters {
    const byChannel: Record<string, number> = {};
    const byType: Record<string, number> = {};
    for (const [ch, c] of this.#byChannel) {
      byChannel[ch] = c.sent;
      for (const [type, t] of c.types) byType[`${ch} ${type}`] = t.n;
    }
    return { sent: this.sent, delivered: this.delivered, byChannel, byType };
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
