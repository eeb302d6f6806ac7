/**
 * Issue 15's targets for Maekawa as n OS processes, checked per repetition (the systems of one
 * repetition ran back to back, so their ratios are side by side) and by the median over
 * repetitions: uncontended p50 ≤ 0.3 ms, ≥ 6× faster than the etcd lock, within 2× of the
 * single-Redis lock; n-contending throughput ≥ 0.5× the single-Redis lock's.
 */
import { median, type SystemResult } from './table.js';

/** One target: its statement, the measured value per repetition and its median, met or not. */
export interface TargetCheck {
  readonly target: string;
  readonly perRepetition: readonly number[];
  readonly median: number;
  readonly met: boolean;
}

const zip = (a: readonly number[], b: readonly number[], f: (x: number, y: number) => number) =>
  a.map((x, i) => f(x, b[i]!));

/** The four targets; a target whose reference system did not run is left out. */
export function checkTargets(
  maekawaOs: SystemResult,
  etcd: SystemResult | undefined,
  redis: SystemResult | undefined,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const add = (target: string, values: number[], ok: (m: number) => boolean) => {
    const m = median(values);
    checks.push({ target, perRepetition: values, median: m, met: ok(m) });
  };
  add('Maekawa OS uncontended p50 ≤ 0.3 ms (ms)', [...maekawaOs.uncontendedP50s], (m) => m <= 0.3);
  if (etcd !== undefined) {
    add(
      'etcd p50 / Maekawa OS p50 ≥ 6 (×)',
      zip(etcd.uncontendedP50s, maekawaOs.uncontendedP50s, (e, m) => e / m),
      (m) => m >= 6,
    );
  }
  if (redis !== undefined) {
    add(
      'Maekawa OS p50 / Redis p50 ≤ 2 (×)',
      zip(maekawaOs.uncontendedP50s, redis.uncontendedP50s, (m, r) => m / r),
      (m) => m <= 2,
    );
    add(
      'contended entries/s Maekawa OS / Redis ≥ 0.5 (×)',
      zip(maekawaOs.contendedRates, redis.contendedRates, (m, r) => m / r),
      (m) => m >= 0.5,
    );
  }
  return checks;
}

/** The checks as Markdown lines. */
export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map(
      (c) =>
        `- ${c.target}: median ${c.median.toFixed(3)} (per repetition ${c.perRepetition.map((x) => x.toFixed(3)).join(', ')}) — ${c.met ? 'met' : 'NOT met'}`,
    )
    .join('\n');
}
