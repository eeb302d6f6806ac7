/**
 * Numbers naming the FIFO links of a network: a link is (from, to, channel), or the pair
 * (from, to) for raw frames. Used for the FIFO clamp (`arrival.ts`) and for the per-link queues
 * of the controlled policy (`policy.ts`).
 */
import type { ProcessId } from '@critsec/core';

/** Numbers naming the links (from, to, channel) of a network of `n` processes. */
export class LinkKeys {
  readonly #n: number;
  readonly #channels = new Map<string, number>();

  constructor(n: number) {
    this.#n = n;
  }

  /** The link from → to on `channel`; without a channel, the pair from → to. */
  of(from: ProcessId, to: ProcessId, channel?: string): number {
    const c = channel === undefined ? 0 : this.#channelId(channel);
    return (c * this.#n + from) * this.#n + to;
  }

  #channelId(channel: string): number {
    let id = this.#channels.get(channel);
    if (id === undefined) {
      id = this.#channels.size;
      this.#channels.set(channel, id);
    }
    return id;
  }
}
