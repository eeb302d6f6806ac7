/**
 * When something sent now arrives (DESIGN.md 3.2, "timed"): a delay drawn from the link's
 * {@link DelayModel}, then the FIFO clamp — arrival = max(now + delay, last arrival on the same
 * link) — so that nothing overtakes what was sent before it on its link. Written once, for
 * messages (link = (from, to, channel), unless `fifo: false`) and for raw frames under faults
 * (link = (from, to), only with `reorder: false`).
 */
import type { ProcessId, Rng } from '@critsec/core';
import { type DelayModel, isConstantDelay, sampleDelay } from './delay.js';
import { LinkKeys } from './link-keys.js';

/** What {@link Arrivals} draws from. */
export interface ArrivalOptions {
  readonly n: number;
  /** The virtual clock (time units). */
  readonly clock: { readonly now: number };
  /** The network's generator: each delay of a random model is one or more draws. */
  readonly rng: Rng;
  readonly delay: DelayModel;
  readonly linkDelay: ((from: ProcessId, to: ProcessId) => DelayModel | undefined) | undefined;
  /** Clamp arrivals per link (FIFO). */
  readonly fifo: boolean;
}

/** Arrival times (time units) of transmissions on the links of one network. */
export class Arrivals {
  readonly #clock: { readonly now: number };
  readonly #rng: Rng;
  readonly #delay: DelayModel;
  readonly #linkDelay: ((from: ProcessId, to: ProcessId) => DelayModel | undefined) | undefined;
  /** Every transmission takes the same time: arrivals are in send order without clamping. */
  readonly #constant: boolean;
  readonly #fifo: boolean;
  readonly #keys: LinkKeys;
  readonly #last = new Map<number, number>();

  constructor(o: ArrivalOptions) {
    this.#clock = o.clock;
    this.#rng = o.rng;
    this.#delay = o.delay;
    this.#linkDelay = o.linkDelay;
    this.#constant = o.linkDelay === undefined && isConstantDelay(o.delay);
    this.#fifo = o.fifo;
    this.#keys = new LinkKeys(o.n);
  }

  /** Every transmission takes the same time: they arrive in the order they are sent. */
  get constant(): boolean {
    return this.#constant;
  }

  /**
   * The delay of one transmission sent now, under a constant delay ({@link constant}): the
   * arrival time {@link at} gives is now plus this (the same draws, if the model draws).
   */
  delay(): number {
    return sampleDelay(this.#delay, this.#rng);
  }

  /** The delay model of the link from → to (the per-link override, else the default). */
  model(from: ProcessId, to: ProcessId): DelayModel {
    return this.#linkDelay?.(from, to) ?? this.#delay;
  }

  /**
   * The arrival time of one transmission sent now from → to (on `channel`, if given): now plus a
   * delay drawn from `model` (default {@link model}), clamped behind the link's last arrival.
   */
  at(from: ProcessId, to: ProcessId, channel?: string, model?: DelayModel): number {
    // a constant delay keeps send order by itself: the clamp could never move the time
    if (this.#constant) return this.#clock.now + sampleDelay(this.#delay, this.#rng);
    const time = this.#clock.now + sampleDelay(model ?? this.model(from, to), this.#rng);
    return this.#fifo ? this.#clamp(this.#keys.of(from, to, channel), time) : time;
  }

  #clamp(key: number, time: number): number {
    const last = this.#last.get(key);
    const at = last !== undefined && last > time ? last : time;
    this.#last.set(key, at);
    return at;
  }
}
