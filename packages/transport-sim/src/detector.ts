/**
 * The simulator's failure detector (issue 28 §4), on when `SimNetworkOptions.suspectAfter` is
 * set: process `i` suspects `j` once `j` has been crashed (and not restarted) for `suspectAfter`
 * time units, or once a partition has kept `i` and `j` apart that long; it trusts `j` again at
 * once when `j` restarts or the partition heals. Reported through each endpoint's link
 * (`Link.setSuspect`) to its `suspicions`. Off, it schedules nothing and reports nothing, so a
 * run without it is the same event for event.
 */
import { ConfigurationError, type ProcessId } from '@critsec/core';
import type { CrashGate } from './crash.js';

/** What the detector needs of the network (its facade wires it). */
export interface DetectorHost {
  readonly n: number;
  now(): number;
  isDown(p: ProcessId): boolean;
  /** True while a partition keeps `a` and `b` apart; `cutSince` is when it started. */
  isCut(a: ProcessId, b: ProcessId): boolean;
  cutSince(): number;
  schedule(delay: number, fn: () => void, label: string): () => void;
}

type Report = (peer: ProcessId, suspected: boolean) => void;

/** One network's failure detector (see the module comment). */
export class SimDetector {
  readonly #host: DetectorHost;
  readonly #after: number;
  /** Per process: when it crashed (absent while up). */
  readonly #downSince = new Map<ProcessId, number>();
  /** Per observer: its link's report callback and whom it suspects now. */
  readonly #reports: (Report | undefined)[];
  readonly #suspected: Set<ProcessId>[];

  constructor(host: DetectorHost, suspectAfter: number) {
    this.#host = host;
    this.#after = suspectAfter;
    this.#reports = new Array(host.n);
    this.#suspected = Array.from({ length: host.n }, () => new Set());
  }

  /** Process `i`'s (new) endpoint reports here; it hears at once whom `i` suspects now. */
  attach(i: ProcessId, report: Report): void {
    this.#reports[i] = report;
    this.#suspected[i]!.clear();
    this.#check(i);
  }

  /** `p` crashed now: suspected `suspectAfter` later if still down. */
  crashed(p: ProcessId): void {
    this.#downSince.set(p, this.#host.now());
    this.#later();
  }

  /** `p` restarted: trusted again at once. */
  restarted(p: ProcessId): void {
    this.#downSince.delete(p);
    this.#checkAll();
  }

  /** A partition started (suspicions `suspectAfter` later) or healed (trust at once). */
  partitionChanged(healed: boolean): void {
    this.#checkAll();
    if (!healed) this.#later();
  }

  #later(): void {
    this.#host.schedule(this.#after, () => this.#checkAll(), 'suspect');
  }

  #checkAll(): void {
    for (let i = 0; i < this.#host.n; i++) this.#check(i);
  }

  /** Brings observer `i`'s suspicions up to date, reporting each change. */
  #check(i: ProcessId): void {
    const report = this.#reports[i];
    if (report === undefined) return;
    const h = this.#host;
    const now = h.now();
    const mine = this.#suspected[i]!;
    for (let j = 0; j < h.n; j++) {
      if (j === i) continue;
      const down = this.#downSince.get(j);
      // `now >= since + after`, the very sum the timer was scheduled at: `now − since >= after`
      // can round below `after` (15.393… + 2 − 15.393… = 1.999…) and miss the suspicion for good
      const want =
        (down !== undefined && now >= down + this.#after) ||
        (h.isCut(i, j) && now >= h.cutSince() + this.#after);
      if (want === mine.has(j)) continue;
      if (want) mine.add(j);
      else mine.delete(j);
      report(j, want);
    }
  }
}

/**
 * The detector of a network built with `suspectAfter` (undefined without: off).
 * @throws ConfigurationError for a `suspectAfter` that is not a finite number > 0.
 */
export function detectorFor(
  after: number | undefined,
  base: Pick<DetectorHost, 'n' | 'now' | 'schedule'>,
  gate: CrashGate,
  partitions: () => { isCut(a: ProcessId, b: ProcessId): boolean; readonly since: number },
): SimDetector | undefined {
  if (after === undefined) return undefined;
  if (!(typeof after === 'number' && Number.isFinite(after) && after > 0)) {
    throw new ConfigurationError(
      `SimNetwork: suspectAfter must be a number of time units > 0, got ${String(after)}`,
    );
  }
  const host: DetectorHost = {
    ...base,
    isDown: (p) => gate.isDown(p),
    isCut: (a, b) => partitions().isCut(a, b),
    cutSince: () => partitions().since,
  };
  return new SimDetector(host, after);
}
