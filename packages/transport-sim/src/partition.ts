/**
 * Network partitions of the simulator (issue 28 §4): while a partition is in force, processes in
 * different groups cannot hear each other — a message between them waits in its link, in order,
 * as a reliable session layer's sender would keep retransmitting it, and is delivered when the
 * partition heals (a timer of delay 0, label `heal`). Seeded random partitions isolate a random
 * minority for a while, then heal. The crash gate (`crash.ts`) holds the waiting messages; this
 * file says who is cut from whom.
 */
import { ConfigurationError, type ProcessId, type Rng } from '@critsec/core';
import type { CrashGate } from './crash.js';
import type { SimDetector } from './detector.js';
import type { Inbox } from './ports.js';
import type { Tracer } from './tracer.js';

/** Options of {@link SimPartitions.random}: a seeded sequence of partitions that heal. */
export interface RandomPartitions {
  /** How many partitions, one after the other (an integer ≥ 1). */
  readonly count: number;
  /** Time units before each partition starts, from the previous heal (or from now), > 0. */
  readonly gap: number;
  /** Time units each partition lasts before it heals, > 0. */
  readonly duration: number;
}

/** What the partitions need of the network (its facade wires them). */
export interface PartitionHost {
  readonly n: number;
  now(): number;
  schedule(delay: number, fn: () => void, label: string): () => void;
  /** A partition started or healed: the crash gate delivers what waited, the detector re-checks. */
  changed(healed: boolean): void;
  note(record: Record<string, unknown>): void;
}

/** The partitions of one simulated network: `SimNetwork.partitions`. */
export class SimPartitions {
  readonly #host: PartitionHost;
  readonly #rng: Rng;
  /** `side[p]`: p's group while a partition is in force. */
  #side: Int32Array | undefined;
  #since = 0;

  /** @internal built by `SimNetwork`. */
  constructor(host: PartitionHost, rng: Rng) {
    this.#host = host;
    this.#rng = rng;
  }

  /** True while a partition is in force. */
  get active(): boolean {
    return this.#side !== undefined;
  }

  /** When the partition in force started (time units); meaningless while none is. */
  get since(): number {
    return this.#since;
  }

  /** True while `a` and `b` are in different groups of the partition in force. */
  isCut(a: ProcessId, b: ProcessId): boolean {
    const s = this.#side;
    return s !== undefined && s[a] !== s[b];
  }

  /**
   * Cuts the network into `groups` (processes not listed form one more group, together) until
   * {@link heal}; replaces a partition in force. Messages between groups wait in their links.
   * @throws ConfigurationError for an unknown process id or one listed twice.
   */
  cut(groups: readonly (readonly ProcessId[])[]): void {
    const n = this.#host.n;
    const side = new Int32Array(n).fill(groups.length);
    const seen = new Set<ProcessId>();
    groups.forEach((g, k) => {
      for (const p of g) {
        if (!(Number.isInteger(p) && p >= 0 && p < n) || seen.has(p)) {
          throw new ConfigurationError(
            `SimNetwork.partitions.cut: ${seen.has(p) ? `P${p} is listed twice` : `no process ${String(p)}`}; ids are 0..${n - 1}, each in one group`,
          );
        }
        seen.add(p);
        side[p] = k;
      }
    });
    this.#side = side;
    this.#since = this.#host.now();
    this.#host.note({ partition: groups.map((g) => [...g]) });
    this.#host.changed(false);
  }

  /** Ends the partition in force (nothing if none): the messages that waited are delivered. */
  heal(): void {
    if (this.#side === undefined) return;
    this.#side = undefined;
    this.#host.note({ heal: true });
    this.#host.changed(true);
  }

  /**
   * Schedules `count` seeded partitions one after the other: after `gap` time units, a random
   * minority of 1 … ⌊(n − 1)/2⌋ processes (at least 1) is cut off from the rest for `duration`,
   * then heals. Drawn from the network's seed (`fork('partitions')`), so the same seed gives the
   * same partitions.
   * @throws ConfigurationError for a bad count, gap or duration, or n < 2.
   */
  random(options: RandomPartitions): void {
    const { count, gap, duration } = options;
    const n = this.#host.n;
    if (!(Number.isSafeInteger(count) && count >= 1) || !(gap > 0) || !(duration > 0) || n < 2) {
      throw new ConfigurationError(
        `SimNetwork.partitions.random: need an integer count ≥ 1, gap > 0 and duration > 0 (time units) over n ≥ 2 processes, got ${JSON.stringify(options)} with n = ${n}`,
      );
    }
    const next = (left: number) => {
      this.#host.schedule(
        gap,
        () => {
          this.cut([this.#minority()]);
          this.#host.schedule(
            duration,
            () => {
              this.heal();
              if (left > 1) next(left - 1);
            },
            'heal',
          );
        },
        'partition',
      );
    };
    next(count);
  }

  /** A random minority: 1 … ⌊(n − 1)/2⌋ distinct processes (1 when n ≤ 2). */
  #minority(): ProcessId[] {
    const n = this.#host.n;
    const size = 1 + this.#rng.int(Math.max(1, Math.floor((n - 1) / 2)));
    const ids = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < size; i++) {
      const j = i + this.#rng.int(n - i);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    return ids.slice(0, size).sort((a, b) => a - b);
  }
}

/**
 * The partitions of a network, wired to its crash gate (which holds the messages across a cut
 * and delivers them at the heal, by a timer of delay 0 labelled `heal delivery`) and its
 * failure detector.
 */
export function partitionsFor(
  base: Pick<PartitionHost, 'n' | 'now' | 'schedule'>,
  gate: CrashGate,
  inbox: Inbox,
  tracer: Tracer,
  rng: Rng,
  detector: SimDetector | undefined,
): SimPartitions {
  const parts: SimPartitions = new SimPartitions(
    {
      ...base,
      note: (record) => tracer.note(record),
      changed: (healed) => {
        gate.active = true;
        gate.isCut = parts.active ? (a, b) => parts.isCut(a, b) : undefined;
        if (healed) base.schedule(0, gate.healed(inbox.handOver.bind(inbox)), 'heal delivery');
        detector?.partitionChanged(healed);
      },
    },
    rng.fork('partitions'),
  );
  return parts;
}
