/*
 * The bench report's figures: the √n scaling of the quorum-based algorithms — messages per
 * exit+entry pair against n on log–log axes, Ricart–Agrawala's 2(n−1) beside each coterie
 * (Maekawa 1985: |Q| ≈ √n for the grid and the finite projective planes).
 */
import type { BenchResult } from './bench.js';
import type { Plotter, ReportFigure } from './report-plots.js';

/** One point of the scaling plot. */
interface ScalingPoint {
  readonly algorithm: string;
  /** `ricart-agrawala` or the coterie's name. */
  readonly series: string;
  readonly n: number;
  /** The bench's nominal size (16, 64, …) the coterie's `n` is nearest to. */
  readonly nominal: number;
  /** Mean messages per exit+entry pair. */
  readonly messages: number;
  /** The paper's bound for that run. */
  readonly bound: number;
}

/** The bench's rows as points (runs with no completed pair left out). */
function scalingPoints(r: BenchResult): ScalingPoint[] {
  return r.rows
    .filter((row) => row.summary.messages.perPair.mean !== null)
    .map((row) => ({
      algorithm: row.algorithm,
      series: row.coterie ?? 'ricart-agrawala',
      n: row.n,
      nominal: row.nominal,
      messages: row.summary.messages.perPair.mean as number,
      bound: row.summary.bounds.messagesPerPair,
    }));
}

/** A c·√n guide through the median of the coteries' messages / √n (c = 1 without coteries). */
function sqrtGuide(
  points: readonly ScalingPoint[],
  ns: readonly number[],
): { n: number; messages: number }[] {
  const ratios = points.map((p) => p.messages / Math.sqrt(p.n)).sort((a, b) => a - b);
  const c = ratios.length === 0 ? 1 : ratios[Math.floor(ratios.length / 2)]!;
  return ns.map((n) => ({ n, messages: c * Math.sqrt(n) }));
}

function scalingFigure(
  { Plot, render }: Plotter,
  algorithm: string,
  points: readonly ScalingPoint[],
  baseline: readonly ScalingPoint[],
): ReportFigure {
  const data = [...baseline, ...points];
  const series = [...new Set(data.map((d) => d.series))];
  const ns = [...new Set(data.map((d) => d.n))].sort((a, b) => a - b);
  const ticks = [...new Set(data.map((d) => d.nominal))];
  const guide = sqrtGuide(points, ns);
  return {
    id: `scaling-${algorithm}`,
    title: `Messages per CS against n — ${algorithm}`,
    caption: `Mean messages per exit+entry pair (sequential workload, unit delays) against n, log–log: Ricart–Agrawala's 2(n−1) grows like n, each coterie's like its quorum size (≈ √n for grid and fpp); the dotted grey line grows like √n, hollow marks are the papers' bounds.`,
    svg: render({
      height: 340,
      x: { type: 'log', label: 'n (processes; coteries use the nearest size they exist for)', ticks },
      y: { type: 'log', label: 'messages per exit+entry pair', grid: true },
      color: { legend: true, domain: series },
      marks: [
        Plot.line(guide, { x: 'n', y: 'messages', stroke: '#999', strokeDasharray: '2,3' }),
        Plot.line(data, { x: 'n', y: 'messages', stroke: 'series', marker: 'circle' }),
        Plot.dot(data, { x: 'n', y: 'bound', stroke: 'series', r: 5 }),
        Plot.text(guide.slice(-1), { x: 'n', y: 'messages', text: () => '∝ √n', dx: 12, fill: '#777' }),
      ],
    }),
  };
}

/**
 * One scaling figure per quorum-based algorithm of the bench, each with the Ricart–Agrawala
 * baseline; only the baseline's when the bench ran nothing else.
 */
export function benchFigures(plotter: Plotter, r: BenchResult): ReportFigure[] {
  const points = scalingPoints(r);
  const baseline = points.filter((p) => p.algorithm === 'ricart-agrawala');
  const algorithms = [...new Set(points.map((p) => p.algorithm))].filter((a) => a !== 'ricart-agrawala');
  if (algorithms.length === 0) return [scalingFigure(plotter, 'ricart-agrawala', [], baseline)];
  return algorithms.map((a) =>
    scalingFigure(
      plotter,
      a,
      points.filter((p) => p.algorithm === a),
      baseline,
    ),
  );
}
