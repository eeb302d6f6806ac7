/**
 * The faulty raw link, the bottom of the link stack under faults (DESIGN.md 3.2): it carries the
 * frames of the reliable-FIFO session layer of `@critsec/transport` (`session.ts`, the one TCP
 * uses) between each ordered pair of processes and, drawing from the network's generator, loses
 * some, doubles some and lets them overtake each other — as a real network may. What arrives is
 * handed up to the session layer ({@link FrameReceiver}), which restores reliable, FIFO,
 * exactly-once delivery.
 */
import { ConfigurationError, type ProcessId, type Rng } from '@critsec/core';
import type { SessionFrame } from '@critsec/transport';
import type { Arrivals } from './arrival.js';
import type { FrameCounters } from './counters.js';
import type { Envelope, EventSink, FrameEvent, LinkBottom, LinkEvent } from './events.js';
import type { Scheduler } from './scheduler.js';

/**
 * Faults injected *below* the reliable-FIFO session layer (timed mode only). With faults on,
 * every (from, to) pair talks through a `ReliableLink` of `@critsec/transport`, as a real
 * network transport does: raw frames are dropped, duplicated and reordered underneath, and the
 * session layer restores reliable, FIFO, exactly-once delivery above — what the algorithms see
 * is unchanged, only slower.
 */
export interface FaultOptions {
  /** Probability that a raw frame is lost (0 ≤ p < 1). */
  readonly drop?: number;
  /** Probability that a raw frame is delivered twice (0 ≤ p ≤ 1). */
  readonly duplicate?: number;
  /** Let raw frames overtake each other (default true). */
  readonly reorder?: boolean;
  /** Retransmission period of unacknowledged frames, in time units (default 4). */
  readonly retransmitEvery?: number;
}

/**
 * Checks fault options against the network's mode.
 * @throws ConfigurationError outside timed mode, or unless 0 ≤ drop < 1, 0 ≤ duplicate ≤ 1 and
 * retransmitEvery > 0.
 */
export function checkFaults(faults: FaultOptions, mode: 'timed' | 'controlled'): void {
  const { drop = 0, duplicate = 0, retransmitEvery = 4 } = faults;
  if (mode !== 'timed') throw new ConfigurationError('SimNetwork: faults need timed mode');
  if (!(drop >= 0 && drop < 1) || !(duplicate >= 0 && duplicate <= 1) || !(retransmitEvery > 0)) {
    throw new ConfigurationError(
      `SimNetwork: faults need 0 ≤ drop < 1, 0 ≤ duplicate ≤ 1 and retransmitEvery > 0, got ${JSON.stringify(faults)}`,
    );
  }
}

/** The layer above the raw link: takes the frames that got through. */
export interface FrameReceiver {
  receive(from: ProcessId, to: ProcessId, frame: SessionFrame<Envelope>): void;
}

/** What a {@link FaultyLink} needs. */
export interface FaultyLinkOptions {
  readonly faults: FaultOptions;
  /** The network's generator: one draw per frame for `drop`, one for `duplicate` (when set). */
  readonly rng: Rng;
  /** Arrival times of frames; clamped per pair only with `reorder: false`. */
  readonly arrivals: Arrivals;
  readonly scheduler: Scheduler;
  /** Where frames wait for their arrival (the delivery policy). */
  readonly sink: Pick<EventSink, 'enqueue'>;
  readonly counters: FrameCounters;
  /** The session layer above. */
  readonly up: FrameReceiver;
}

/** Raw frames between every ordered pair of processes: lost, doubled, reordered. */
export class FaultyLink implements LinkBottom {
  readonly #faults: FaultOptions;
  readonly #rng: Rng;
  readonly #arrivals: Arrivals;
  readonly #scheduler: Scheduler;
  readonly #sink: Pick<EventSink, 'enqueue'>;
  readonly #counters: FrameCounters;
  readonly #up: FrameReceiver;

  constructor(o: FaultyLinkOptions) {
    this.#faults = o.faults;
    this.#rng = o.rng;
    this.#arrivals = o.arrivals;
    this.#scheduler = o.scheduler;
    this.#sink = o.sink;
    this.#counters = o.counters;
    this.#up = o.up;
  }

  /** Puts a frame on the wire from → to: maybe lost, maybe twice, each copy with its own delay. */
  transmit(from: ProcessId, to: ProcessId, frame: SessionFrame<Envelope>): void {
    const faults = this.#faults;
    this.#counters.sent++;
    if (faults.drop !== undefined && this.#rng.chance(faults.drop)) {
      this.#counters.dropped++;
      return;
    }
    const copies = faults.duplicate !== undefined && this.#rng.chance(faults.duplicate) ? 2 : 1;
    if (copies === 2) this.#counters.duplicated++;
    const model = this.#arrivals.model(from, to);
    for (let k = 0; k < copies; k++) {
      const time = this.#arrivals.at(from, to, undefined, model);
      this.#sink.enqueue({ kind: 'frame', time, seq: this.#scheduler.nextSeq(), from, to, frame });
    }
  }

  /** The transmit function of the ordered pair from → to (for its session link). */
  path(from: ProcessId, to: ProcessId): (frame: SessionFrame<Envelope>) => void {
    return (frame) => this.transmit(from, to, frame);
  }

  /** A frame arrives: up to the session layer of its receiver. */
  arrive(ev: LinkEvent): void {
    const f = ev as FrameEvent;
    this.#up.receive(f.from, f.to, f.frame);
  }
}
