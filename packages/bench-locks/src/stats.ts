/**
 * The statistics of the lock benchmark: nearest-rank latency quantiles of timed rounds, and the
 * throughput of several clients measured over the window in which all of them were running.
 * Times are wall-clock milliseconds on one machine-wide clock ({@link now}), so rounds timed in
 * different OS processes compare.
 */

/** One timed round of a client: an acquire and a release (or one round trip), epoch ms. */
export interface TimedRound {
  /** When the round started, ms since the epoch (sub-millisecond resolution). */
  readonly start: number;
  /** When it ended, ms since the epoch. */
  readonly end: number;
}

/** Latency quantiles of a set of rounds, ms. */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}

/** Throughput of clients over the window in which every one of them was running rounds. */
export interface Throughput {
  /** Rounds that ended inside the window, per second (0 when the window is empty). */
  readonly perSecond: number;
  /** Rounds that ended inside the window. */
  readonly rounds: number;
  /** Length of the window, ms. */
  readonly windowMs: number;
}

/**
 * Now, in ms since the epoch with sub-millisecond resolution (`performance.timeOrigin +
 * performance.now()`): comparable between the processes of one machine.
 */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** The nearest-rank `q`-quantile (0 < q ≤ 1) of ascending `sorted`; `NaN` when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** p50, p99, mean and max of the durations (`end − start`, ms) of `rounds`. */
export function summarize(rounds: readonly TimedRound[]): LatencySummary {
  const sorted = rounds.map((r) => r.end - r.start).sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/**
 * The throughput of `clients` (each client's timed rounds, in order) over the window from the
 * latest first start to the earliest last end: the span in which every client was running, so
 * clients that started or finished early (warm-up, launch skew) do not inflate it. For one
 * client it is its rounds over its own span. Clients without rounds are ignored.
 */
export function windowThroughput(clients: readonly (readonly TimedRound[])[]): Throughput {
  const active = clients.filter((c) => c.length > 0);
  if (active.length === 0) return { perSecond: 0, rounds: 0, windowMs: 0 };
  const from = Math.max(...active.map((c) => c[0]!.start));
  const to = Math.min(...active.map((c) => c.at(-1)!.end));
  const windowMs = to - from;
  if (!(windowMs > 0)) return { perSecond: 0, rounds: 0, windowMs: 0 };
  let rounds = 0;
  for (const c of active) for (const r of c) if (r.end > from && r.end <= to) rounds++;
  return { perSecond: (rounds * 1000) / windowMs, rounds, windowMs };
}
