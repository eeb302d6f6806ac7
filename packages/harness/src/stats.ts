import type { InvocationRecord } from './engine.js';

/** mean / p99 / max of a sample (all 0 for an empty one). */
export interface Distribution {
  /** Sample size. */
  readonly count: number;
  /** Mean. */
  readonly mean: number;
  /** Median (nearest rank). */
  readonly p50: number;
  /** 99th percentile (nearest rank). */
  readonly p99: number;
  /** Largest value. */
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

/**
 * Messages per exit+entry pair of a run's records (DESIGN.md 4): the k-th completed entry of a
 * process with its k-th completed exit, uncounted (`extra`) calls left out; the messages of
 * aborted entries belong to the pair of the entry that finally succeeded. With `totalSent`
 * (messages were not attributed to calls), only `mean` is given: `totalSent` over every completed
 * pair of the `n` processes, extra cycles included — an upper estimate.
 */
export function perPairMessages(
  records: readonly InvocationRecord[],
  n: number,
  totalSent?: number,
): Distribution {
  const byProcess = new Map<number, { entries: InvocationRecord[]; exits: InvocationRecord[] }>();
  for (const r of records) {
    if (r.extra) continue;
    let b = byProcess.get(r.process);
    if (b === undefined) {
      b = { entries: [], exits: [] };
      byProcess.set(r.process, b);
    }
    if (r.op === 'entry') b.entries.push(r);
    else b.exits.push(r);
  }
  const pairs: number[] = [];
  for (const { entries, exits } of byProcess.values()) {
    let carry = 0;
    const completedEntries: number[] = [];
    for (const e of entries) {
      if (e.aborted) carry += e.messages;
      else if (!Number.isNaN(e.end)) {
        completedEntries.push(e.messages + carry);
        carry = 0;
      }
    }
    const completedExits = exits.filter((x) => !Number.isNaN(x.end)).map((x) => x.messages);
    const m = Math.min(completedEntries.length, completedExits.length);
    for (let k = 0; k < m; k++) pairs.push(completedEntries[k]! + completedExits[k]!);
  }
  if (totalSent === undefined || pairs.length === 0) return distribution(pairs);
  let allPairs = 0;
  for (let i = 0; i < n; i++) {
    const mine = records.filter((r) => r.process === i && !r.aborted && !Number.isNaN(r.end));
    allPairs += Math.min(
      mine.filter((r) => r.op === 'entry').length,
      mine.filter((r) => r.op === 'exit').length,
    );
  }
  return {
    count: pairs.length,
    mean: totalSent / allPairs,
    p50: Number.NaN,
    p99: Number.NaN,
    max: Number.NaN,
  };
}
