/**
 * The `'order'` space's delivery rule (issue 26 §2): every event gets a priority from the schedule
 * when it is created — a message when it is sent, an invocation when it is scheduled — and the
 * pending event of highest priority goes next (ties: the first listed by `SimNetwork.pending`).
 * A priority belongs to one event, so changing it moves that event alone earlier or later.
 */
import type { PendingEvent, SimNetwork } from '@critsec/transport-sim';
import { PRIORITIES, type ScheduleChoices } from './schedule-choices.js';

const linkKey = (from: number, to: number, channel: string) => `${from}>${to}>${channel}`;

/** Picks the next event of a controlled network by the schedule's priorities. */
export class PriorityOrder {
  /** Per (from, to, channel) link: the priorities of its queued messages, in FIFO order. */
  readonly #links = new Map<string, number[]>();
  /** Per pending timer label: its priority. */
  readonly #timers = new Map<string, number>();
  readonly #off: () => void;

  /** Gives every message `net` sends the next choice of its lane `m<from>-<to>`. */
  constructor(net: SimNetwork, choices: ScheduleChoices) {
    this.#off = net.onSend((m) => {
      const key = linkKey(m.from, m.to, m.channel);
      let q = this.#links.get(key);
      if (q === undefined) {
        q = [];
        this.#links.set(key, q);
      }
      q.push(choices.pick(`m${m.from}-${m.to}`, PRIORITIES));
    });
  }

  /** The timer `label` (an invocation) has priority `priority`. */
  timer(label: string, priority: number): void {
    this.#timers.set(label, priority);
  }

  /** The index in `pending` of the event to deliver next; forgets its priority. */
  next(pending: readonly PendingEvent[]): number {
    let best = 0;
    let top = -1;
    for (let i = 0; i < pending.length; i++) {
      const e = pending[i]!;
      const p =
        e.kind === 'message'
          ? (this.#links.get(linkKey(e.from, e.to, e.channel))?.[0] ?? 0)
          : (this.#timers.get(e.label) ?? 0);
      if (p > top) {
        top = p;
        best = i;
      }
    }
    const e = pending[best]!;
    if (e.kind === 'message') this.#links.get(linkKey(e.from, e.to, e.channel))?.shift();
    else this.#timers.delete(e.label);
    return best;
  }

  /** Stops listening to the network's sends. */
  close(): void {
    this.#off();
  }
}
