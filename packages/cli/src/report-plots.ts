/*
 * The simulation report's figures, drawn by Observable Plot at report time into static SVG (a
 * linkedom document stands in for the browser's): the per-process timeline, the number InCS
 * against l and k, messages per exit+entry pair against the paper's bound, and the waiting-time
 * distribution. No plotting code runs in the page.
 */
import type * as PlotModule from '@observablehq/plot';
import { inCSCount, pairMessages, timelineBars, waitingTimes } from './report-data.js';
import type { SimulationRecording } from './report-recording.js';
import type { RunSummary } from './summary.js';

/** One figure of a report: a stable id (`data-plot` in the page), a title, a caption, the SVG. */
export interface ReportFigure {
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  /** The figure's markup (an `<svg>`, or a `<figure>` holding a legend and the `<svg>`). */
  readonly svg: string;
}

/** Processes shown on the timeline (the rest are summarized in the caption). */
const TIMELINE_MAX_PROCESSES = 40;

const WIDTH = 880;
const BOUND_COLOR = '#d62728';
/** The histograms' margins (px): a bound's label is kept between them. */
const MARGIN_LEFT = 48;
const MARGIN_RIGHT = 20;

/**
 * Where a bound's label goes beside its rule at `bound` on an x axis from 0 to `max`: on the side
 * with room (left of the rule in the right half, right of it in the left half), so that it is
 * never cut by the frame.
 */
function boundLabel(bound: number, max: number): { textAnchor: 'start' | 'end'; dx: number } {
  return bound > max / 2 ? { textAnchor: 'end', dx: -4 } : { textAnchor: 'start', dx: 4 };
}
/** Observable Plot and a renderer of its specifications to markup (from {@link loadPlotter}). */
export interface Plotter {
  readonly Plot: typeof PlotModule;
  /** Renders a Plot specification to markup (`<svg>`, or `<figure>` with a legend). */
  render(options: PlotModule.PlotOptions): string;
}

/**
 * Loads Observable Plot and linkedom (dynamic imports: neither is loaded unless a report is
 * written, and the CommonJS build never `require`s these ES modules).
 */
export async function loadPlotter(): Promise<Plotter> {
  const [Plot, { parseHTML }] = await Promise.all([import('@observablehq/plot'), import('linkedom')]);
  const { document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
  return {
    Plot,
    render: (options) =>
      Plot.plot({
        width: WIDTH,
        ...options,
        document: document as unknown as PlotModule.PlotOptions['document'],
      }).outerHTML,
  };
}

function timelineFigure({ Plot, render }: Plotter, rec: SimulationRecording, s: RunSummary): ReportFigure {
  const bars = timelineBars(rec, TIMELINE_MAX_PROCESSES);
  const shown = Math.min(s.n, TIMELINE_MAX_PROCESSES);
  return {
    id: 'timeline',
    title: 'Per-process timeline',
    caption: `InCS stretches (dark) and calls waiting for entry or exit to return, per process, over ${s.simulatedTime === null ? 'wall-clock time (the shared log)' : 'simulated time'}${shown < s.n ? ` (P0 … P${shown - 1} of ${s.n})` : ''}; OutCS is blank.`,
    svg: render({
      height: Math.max(160, 60 + 18 * shown),
      marginLeft: 48,
      x: { label: `time (${s.timeUnit})` },
      y: { label: 'process', domain: Array.from({ length: shown }, (_, p) => p), tickFormat: (p) => `P${p}` },
      color: {
        legend: true,
        domain: ['InCS', 'entry waiting', 'exit waiting'],
        range: ['#1f3b73', '#f2a93b', '#7fb8da'],
      },
      marks: [
        Plot.barX(
          bars.filter((b) => b.kind === 'InCS'),
          { y: 'p', x1: 'from', x2: 'to', fill: 'kind' },
        ),
        Plot.barX(
          bars.filter((b) => b.kind !== 'InCS'),
          { y: 'p', x1: 'from', x2: 'to', fill: 'kind', insetTop: 4, insetBottom: 4 },
        ),
      ],
    }),
  };
}

function concurrencyFigure({ Plot, render }: Plotter, rec: SimulationRecording, s: RunSummary): ReportFigure {
  const points = inCSCount(rec);
  const spec = rec.spec;
  const rules: { y: number; label: string }[] = [];
  if (spec.kind === 'global')
    rules.push({ y: spec.l, label: `l = ${spec.l}` }, { y: spec.k, label: `k = ${spec.k}` });
  if (spec.kind === 'h-out-of-k') rules.push({ y: spec.k, label: `k = ${spec.k} units` });
  const against =
    rules.length > 0
      ? `, against ${rules.map((r) => r.label).join(' and ')}`
      : ` (the bounds are per process for this problem: ${s.problem})`;
  return {
    id: 'concurrency',
    title: 'Processes InCS over time',
    caption: `The number of processes InCS after every state change${against}${s.simulatedTime === null ? ', in the shared log’s order (the shared-log check bounds the count from both sides)' : '; the safety monitor checked every change'}.`,
    svg: render({
      height: 260,
      // the labels sit in the right margin, beside their rules: the count's curve runs along l
      // and would cover a label drawn inside the frame
      marginRight: 12 + 6 * Math.max(0, ...rules.map((r) => r.label.length)),
      x: { label: `time (${s.timeUnit})` },
      y: { label: 'processes InCS', grid: true, domain: [0, Math.max(s.n, ...rules.map((r) => r.y))] },
      marks: [
        Plot.areaY(points, { x: 't', y: 'inCS', curve: 'step-after', fill: '#1f3b73', fillOpacity: 0.15 }),
        Plot.lineY(points, { x: 't', y: 'inCS', curve: 'step-after', stroke: '#1f3b73' }),
        Plot.ruleY(rules, { y: 'y', stroke: BOUND_COLOR, strokeDasharray: '6,3' }),
        Plot.text(rules, {
          y: 'y',
          text: 'label',
          frameAnchor: 'right',
          textAnchor: 'start',
          dx: 6,
          fill: BOUND_COLOR,
        }),
      ],
    }),
  };
}

/** Messages per pair from the summary alone (mean, p99, max): a cluster's log counts no messages per call. */
function messagesSummaryFigure({ Plot, render }: Plotter, s: RunSummary): ReportFigure {
  const p = s.messages.perPair;
  const stats = [
    { stat: 'mean', value: p.mean },
    { stat: 'p99', value: p.p99 },
    { stat: 'max', value: p.max },
  ].filter((d): d is { stat: string; value: number } => d.value !== null);
  const bound = s.bounds.messagesPerPair;
  return {
    id: 'messages',
    title: 'Messages per exit+entry pair',
    caption: `Mean, p99 and max of the messages per exit+entry pair the members counted (the shared log has no per-call counts, so no histogram), against the paper's bound ${bound} = ${s.bounds.formula} (${s.bounds.source}).`,
    svg: render({
      height: 180,
      marginLeft: 60,
      x: {
        label: 'messages per pair',
        grid: true,
        domain: [0, Math.max(bound, ...stats.map((d) => d.value)) * 1.1],
      },
      y: { label: null, domain: ['mean', 'p99', 'max'] },
      marks: [
        Plot.barX(stats, { x: 'value', y: 'stat', fill: '#1f3b73' }),
        Plot.ruleX([bound], { stroke: BOUND_COLOR, strokeWidth: 2, strokeDasharray: '6,3' }),
        Plot.text([bound], {
          x: (d) => d,
          text: () => `bound ${bound}`,
          frameAnchor: 'top',
          dy: -2,
          ...boundLabel(bound, Math.max(bound, ...stats.map((d) => d.value)) * 1.1),
          fill: BOUND_COLOR,
        }),
      ],
    }),
  };
}

function messagesFigure(plotter: Plotter, rec: SimulationRecording, s: RunSummary): ReportFigure {
  if (rec.perCallMessages === false) return messagesSummaryFigure(plotter, s);
  const { Plot, render } = plotter;
  const pairs = pairMessages(rec.calls).map((m) => ({ m }));
  const bound = s.bounds.messagesPerPair;
  const max = pairs.reduce((x, d) => Math.max(x, d.m + 1), bound) * 1.05;
  const exact =
    s.workload === 'sequential'
      ? 'exact (sequential workload)'
      : 'causally attributed (concurrent workload: the bound is for the uncontended setting)';
  return {
    id: 'messages',
    title: 'Messages per exit+entry pair',
    caption: `Histogram of the messages of each exit+entry pair, ${exact}, against the paper's bound ${bound} = ${s.bounds.formula} (${s.bounds.source}).`,
    svg: render({
      height: 260,
      marginLeft: MARGIN_LEFT,
      marginRight: MARGIN_RIGHT,
      x: { label: 'messages per pair', domain: [0, max] },
      y: { label: 'pairs', grid: true },
      marks: [
        Plot.rectY(
          pairs,
          Plot.binX<PlotModule.RectYOptions>({ y: 'count' }, { x: 'm', fill: '#1f3b73', inset: 0.5 }),
        ),
        Plot.ruleX([bound], { stroke: BOUND_COLOR, strokeWidth: 2, strokeDasharray: '6,3' }),
        Plot.text([bound], {
          x: (d) => d,
          text: () => `bound ${bound}`,
          frameAnchor: 'top',
          dy: 6,
          ...boundLabel(bound, max),
          fill: BOUND_COLOR,
        }),
        Plot.ruleY([0]),
      ],
    }),
  };
}

function waitingFigure({ Plot, render }: Plotter, rec: SimulationRecording, s: RunSummary): ReportFigure {
  const waits = waitingTimes(rec.calls);
  const { waitingTimeEntry: entry, waitingTimeExit: exit } = s.bounds;
  // the papers' bounds count message delays: on a real cluster's axis in ms they would be drawn
  // at that many ms, which means nothing, so they are left out there and the caption says so
  const drawn = s.timeUnit === 'time units';
  const bounds = drawn
    ? [
        { op: 'entry', bound: entry },
        { op: 'exit', bound: exit },
      ]
    : [];
  const max = waits.reduce((x, d) => Math.max(x, d.wait), Math.max(0, ...bounds.map((b) => b.bound))) * 1.05;
  const setting = !drawn
    ? `the papers’ bounds (entry ${entry}, exit ${exit}) count message delays, not ms, so they are not drawn`
    : s.workload === 'sequential' && s.delay === 'unit'
      ? 'the papers’ setting (sequential, unit delays): every wait is within its bound'
      : 'the bounds are the papers’ for the sequential workload with unit delays, shown for reference';
  return {
    id: 'waiting',
    title: 'Waiting-time distribution',
    caption: `Histogram of the waiting times of completed entries and exits (${s.timeUnit})${drawn ? `, with the paper's bounds (entry ${entry}, exit ${exit})` : ''}; ${setting}.`,
    svg: render({
      height: 320,
      marginLeft: MARGIN_LEFT,
      marginRight: MARGIN_RIGHT,
      x: { label: `waiting time (${s.timeUnit})`, domain: [0, max || 1] },
      y: { label: 'calls', grid: true },
      fy: { label: null, domain: ['entry', 'exit'] },
      marks: [
        Plot.rectY(
          waits,
          Plot.binX<PlotModule.RectYOptions>(
            { y: 'count' },
            { x: 'wait', fy: 'op', fill: 'op', inset: 0.5, thresholds: 40 },
          ),
        ),
        Plot.ruleX(bounds, {
          x: 'bound',
          fy: 'op',
          stroke: BOUND_COLOR,
          strokeWidth: 2,
          strokeDasharray: '6,3',
        }),
        ...bounds.map((b) =>
          Plot.text([b], {
            x: 'bound',
            fy: 'op',
            text: (d) => `bound ${d.bound}`,
            frameAnchor: 'top',
            dy: 6,
            ...boundLabel(b.bound, max),
            fill: BOUND_COLOR,
          }),
        ),
        Plot.ruleY([0]),
      ],
      color: { domain: ['entry', 'exit'], range: ['#f2a93b', '#7fb8da'] },
    }),
  };
}

/** The four figures of a simulation report, in page order. */
export function simulationFigures(plotter: Plotter, rec: SimulationRecording, s: RunSummary): ReportFigure[] {
  return [
    timelineFigure(plotter, rec, s),
    concurrencyFigure(plotter, rec, s),
    messagesFigure(plotter, rec, s),
    waitingFigure(plotter, rec, s),
  ];
}
