/** mean / p99 / max of a sample (all 0 for an empty one). */
export interface Distribution {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Summarizes a sample; percentiles by the nearest-rank method. */
export function distribution(values: readonly number[]): Distribution {
  const count = values.length;
  if (count === 0) return { count: 0, mean: 0, p50: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(count - 1, Math.max(0, Math.ceil(p * count) - 1))]!;
  let sum = 0;
  for (const v of values) sum += v;
  return { count, mean: sum / count, p50: rank(0.5), p99: rank(0.99), max: sorted[count - 1]! };
}
