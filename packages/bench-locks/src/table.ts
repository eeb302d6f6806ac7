/**
 * The printed results: one row per system with the uncontended and the n-contending latency
 * (p50, p99) and throughput, pooled over the interleaved repetitions, and the CPU time a
 * contended entry costs the system's processes (median over the repetitions), as a Markdown table.
 */
import { type LatencySummary, summarize, type TimedRound, windowThroughput } from './stats.js';

/** One repetition of one system: per mode, the timed rounds of each client. */
export interface SystemSample {
  readonly uncontended: readonly (readonly TimedRound[])[];
  readonly contended: readonly (readonly TimedRound[])[];
  /** CPU time per contended timed round, ms, of every process of the system (see `cpu.ts`). */
  readonly contendedCpuMs: number | undefined;
}

/** The figures of one system over every repetition. */
export interface SystemResult {
  readonly label: string;
  /** Latency of every timed round of every repetition, ms. */
  readonly uncontended: LatencySummary;
  readonly contended: LatencySummary;
  /** Per repetition: the uncontended p50, ms. */
  readonly uncontendedP50s: readonly number[];
  /** Per repetition: rounds per second of the lone client. */
  readonly uncontendedRates: readonly number[];
  /** Per repetition: entries per second of all clients together. */
  readonly contendedRates: readonly number[];
  /** Per repetition: the window over which {@link SystemResult.contendedRates} was measured, ms. */
  readonly contendedWindows: readonly number[];
  /** Per repetition: CPU time per contended round, ms (`NaN` where not measured). */
  readonly contendedCpuMs: readonly number[];
}

/** The median of `xs` (the upper one for an even count; `NaN` when empty). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** Pools the repetitions of one system. */
export function resultOf(label: string, samples: readonly SystemSample[]): SystemResult {
  return {
    label,
    uncontended: summarize(samples.flatMap((s) => s.uncontended.flat())),
    contended: summarize(samples.flatMap((s) => s.contended.flat())),
    uncontendedP50s: samples.map((s) => summarize(s.uncontended.flat()).p50),
    uncontendedRates: samples.map((s) => windowThroughput(s.uncontended).perSecond),
    contendedRates: samples.map((s) => windowThroughput(s.contended).perSecond),
    contendedWindows: samples.map((s) => windowThroughput(s.contended).windowMs),
    contendedCpuMs: samples.map((s) => s.contendedCpuMs ?? Number.NaN),
  };
}

/** `x` ms with three decimals. */
const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '—');
/** A rate with thousands separators. */
const rate = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');

/** The Markdown table of `results` (n contending clients in the second half). */
export function markdownTable(results: readonly SystemResult[], n: number): string {
  const head = [
    'system',
    'uncontended p50 ms',
    'p99 ms',
    'ops/s (1 client)',
    `${n}-contending p50 ms`,
    'p99 ms',
    'entries/s (all)',
    'CPU ms / entry (cont.)',
    'rounds (unc. / cont.)',
    'contended window s',
  ];
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const r of results) {
    const cells = [
      r.label,
      ms(r.uncontended.p50),
      ms(r.uncontended.p99),
      rate(median(r.uncontendedRates)),
      ms(r.contended.p50),
      ms(r.contended.p99),
      rate(median(r.contendedRates)),
      ms(median(r.contendedCpuMs.filter(Number.isFinite))),
      `${r.uncontended.count} / ${r.contended.count}`,
      r.contendedWindows.map((w) => (w / 1000).toFixed(1)).join(', '),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
