/**
 * The printed results of the "1,000 names" scenario: one row per system and name count
 * (acquisitions/s over the window in which every client was running, p50/p99 latency of a
 * round, CPU per round, memory per idle name), then the ratios side by side.
 */
import type { NamesRow } from './names-systems.js';
import { summarize, windowThroughput } from './stats.js';

const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '—');
const int = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
const times = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

/** Acquisitions per second of `row` (all clients, over the window in which every one ran). */
function acquisitionsPerSecond(row: NamesRow): number {
  return windowThroughput(row.timed).perSecond;
}

/** The Markdown table of `rows` (`clients` clients in every row). */
export function namesTable(rows: readonly NamesRow[], clients: number): string {
  const head = [
    'system',
    'names used',
    `acquisitions/s (${clients} clients)`,
    'p50 ms',
    'p99 ms',
    'CPU ms / acquisition',
    'memory per idle name, B',
    'RSS per idle name, B',
    'acquisitions',
    'window s',
  ];
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const r of rows) {
    const lat = summarize(r.timed.flat());
    const w = windowThroughput(r.timed);
    lines.push(
      `| ${[
        r.label,
        int(r.names),
        int(w.perSecond),
        ms(lat.p50),
        ms(lat.p99),
        ms(r.cpuMsPerRound),
        r.memory ? int(r.memory.perName) : '',
        r.memory ? int(r.memory.rssPerName) : '',
        int(lat.count),
        (w.windowMs / 1000).toFixed(1),
      ].join(' | ')} |`,
    );
  }
  const notes = rows.flatMap((r) => (r.memory ? [`- ${r.label}: memory = ${r.memory.what}`] : []));
  return [...lines, '', ...notes].join('\n');
}

/** A ratio of two rows: `a` over `b` in acquisitions/s and in p50 latency. */
interface Ratio {
  readonly a: string;
  readonly b: string;
}

/**
 * The ratios side by side: critsec on many names against itself on one name, and against Redis
 * and etcd on as many keys (and each reference against itself on one key). Rows are found by the
 * start of their label; a ratio whose rows are missing is left out.
 */
export function namesRatios(rows: readonly NamesRow[]): string {
  const find = (prefix: string, many: boolean) =>
    rows.find((r) => r.label.startsWith(prefix) && r.names > 1 === many);
  const pairs: Ratio[] = [
    { a: '@critsec/locks', b: '@critsec/locks' },
    { a: '@critsec/locks', b: 'Redis' },
    { a: '@critsec/locks', b: 'etcd' },
    { a: 'Redis', b: 'Redis' },
    { a: 'etcd', b: 'etcd' },
  ];
  const lines = ['| many names: a / b | acquisitions/s a / b | p50 a / b |', '| --- | ---: | ---: |'];
  for (const { a, b } of pairs) {
    const ra = find(a, true);
    const rb = find(b, a !== b);
    if (ra === undefined || rb === undefined) continue;
    lines.push(
      `| ${ra.label} / ${rb.label} | ${times(acquisitionsPerSecond(ra) / acquisitionsPerSecond(rb))} | ${times(
        summarize(ra.timed.flat()).p50 / summarize(rb.timed.flat()).p50,
      )} |`,
    );
  }
  return lines.join('\n');
}
