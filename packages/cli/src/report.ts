/*
 * `--report FILE`: the HTML reports of `critsec simulate` and `critsec bench` (one
 * self-contained file each, report-html.ts; figures drawn by Observable Plot, report-plots.ts
 * and report-bench.ts). The commands load this module only when a report is asked for.
 */
import type { BenchResult } from './bench.js';
import { benchFigures } from './report-bench.js';
import { reportHTML } from './report-html.js';
import { loadPlotter, simulationFigures } from './report-plots.js';
import type { SimulationRecording } from './report-recording.js';
import { fmt, type RunSummary } from './summary.js';

export { clusterRecording } from './report-cluster.js';
export { writeReportFile } from './report-html.js';
export { SimulationRecorder } from './report-recording.js';

function spread(x: { mean: number | null; max: number | null }, digits = 2): string {
  return `mean ${fmt(x.mean, digits)}, max ${fmt(x.max, digits)}`;
}

/**
 * The HTML report of one run: a simulation (its summary and what the recorder collected) or a
 * cluster (`simulatedTime` null; the recording read from the shared log).
 */
export async function simulationReportHTML(s: RunSummary, rec: SimulationRecording): Promise<string> {
  const b = s.bounds;
  const met = (m: boolean | null) => (m === null ? 'not the papers’ setting' : m ? 'within' : 'EXCEEDED');
  return reportHTML({
    title: `critsec ${s.simulatedTime === null ? 'cluster' : 'simulate'} ${s.algorithm}`,
    subtitle: `${s.problem}${s.coterie === null ? '' : `, ${s.coterie} coterie`}; ${s.workload} workload, ${s.rounds} round(s) per process, delay ${s.delay}, seed ${s.seed}`,
    facts: [
      [
        'result',
        s.ok ? 'ok: safe and live' : `FAILED: ${s.failure ?? s.violation?.message ?? 'see the summary'}`,
      ],
      ['entries / exits', `${s.entries} / ${s.exits}`],
      [
        'messages per exit+entry pair',
        `${spread(s.messages.perPair, 1)}; bound ${fmt(b.messagesPerPair)} = ${b.formula} (${met(s.boundsMet.messagesPerPair)})`,
      ],
      [
        'entry waiting time',
        `${spread(s.waitingTime.entry)}; bound ${b.waitingTimeEntry} (${met(s.boundsMet.waitingTimeEntry)})`,
      ],
      [
        'exit waiting time',
        `${spread(s.waitingTime.exit)}; bound ${b.waitingTimeExit} (${met(s.boundsMet.waitingTimeExit)})`,
      ],
      ['most processes InCS at once', `${s.concurrency.max ?? '—'}`],
      ['messages in all', `${s.messages.total}`],
      s.simulatedTime === null
        ? ['wall time', `${fmt(s.wallMs / 1000, 1)} s`]
        : ['simulated time', `${fmt(s.simulatedTime)} ${s.timeUnit}`],
      ['bounds from', b.source],
    ],
    figures: simulationFigures(await loadPlotter(), rec, s),
    replay: s.replay,
  });
}

/** The HTML report of a bench: the √n scaling figures. */
export async function benchReportHTML(r: BenchResult): Promise<string> {
  const st = r.settings;
  return reportHTML({
    title: 'critsec bench',
    subtitle: `Sequential workload, unit delays, ${st.rounds} exit+entry pair(s) per process, seed ${st.seed}; l = ⌈n/8⌉, k = ⌈n/2⌉`,
    facts: [
      [
        'result',
        r.ok
          ? 'ok: every run safe, live and within its bounds'
          : 'some run failed or broke a bound (see the table)',
      ],
      ['sizes', st.sizes.join(', ')],
      ['algorithms', st.algorithms.join(', ')],
      ['coteries', st.coteries.join(', ')],
      ['runs', `${r.rows.length}`],
      ['wall time', `${fmt(r.wallMs / 1000, 1)} s`],
    ],
    figures: benchFigures(await loadPlotter(), r),
  });
}
