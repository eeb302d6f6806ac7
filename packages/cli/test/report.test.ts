import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { afterAll, describe, expect, it } from 'vitest';
import { main, resolveBench, resolveSimulation, runBench, runSimulation } from '../src/index.js';
import type { SharedLogRecord } from '@critsec/cluster';
import {
  benchReportHTML,
  clusterRecording,
  SimulationRecorder,
  simulationReportHTML,
} from '../src/report.js';
import { inCSCount, pairMessages, timelineBars, waitingTimes } from '../src/report-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-report-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

/** The report's figures: section id → the marks (Plot's `aria-label`s) drawn in its SVG. */
function figures(html: string): Map<string, { svgs: number; marks: string[]; rects: number }> {
  const { document } = parseHTML(html);
  const out = new Map<string, { svgs: number; marks: string[]; rects: number }>();
  for (const section of document.querySelectorAll('section[data-plot]')) {
    const marks = [...section.querySelectorAll('svg g[aria-label]')]
      .map((g) => g.getAttribute('aria-label') ?? '')
      .filter((label) => !label.includes('axis') && !label.includes('grid'));
    out.set(section.getAttribute('data-plot') ?? '', {
      svgs: section.querySelectorAll('svg').length,
      marks,
      rects: section.querySelectorAll('svg g[aria-label="bar"] rect, svg g[aria-label="rect"] rect').length,
    });
  }
  return out;
}

/** What these checks read of a DOM element (linkedom's). */
interface Element {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly parentElement: Element | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
}

/** The section's SVG markup, by its `data-plot` id. */
function sectionOf(html: string, id: string): Element {
  const { document } = parseHTML(html);
  const section = document.querySelector(`section[data-plot="${id}"]`);
  if (section === null) throw new Error(`no section ${id}`);
  return section as unknown as Element;
}

const translate = (el: Element | null) => {
  const m = /translate\(([-\d.e]+),\s*([-\d.e]+)\)/.exec(el?.getAttribute('transform') ?? '');
  return m === null ? 0 : Number(m[1]);
};

/**
 * The bound labels (red text) of a figure: their text and horizontal extent in px, from the
 * anchor and 6 px a character (10 px system-ui is narrower), and the frame's extent, from the
 * horizontal rules (`ruleY`) that span it.
 */
function boundLabels(section: Element): {
  labels: { text: string; left: number; right: number }[];
  frame: { left: number; right: number };
} {
  const labels: { text: string; left: number; right: number }[] = [];
  for (const t of section.querySelectorAll('svg text')) {
    // the nearest fill and text-anchor above the text, and every translation on the way up
    let fill: string | null = null;
    let anchor: string | null = null;
    let x = Number(t.getAttribute('x') ?? 0);
    for (
      let el: Element | null = t;
      el !== null && el.tagName.toLowerCase() !== 'svg';
      el = el.parentElement
    ) {
      fill ??= el.getAttribute('fill');
      anchor ??= el.getAttribute('text-anchor');
      x += translate(el);
    }
    if (fill !== '#d62728') continue;
    const w = 6 * (t.textContent ?? '').length;
    const left = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
    labels.push({ text: t.textContent ?? '', left, right: left + w });
  }
  // the widest rule line is a horizontal one, from the frame's left to its right
  const frame = { left: 0, right: 0 };
  for (const line of section.querySelectorAll('g[aria-label="rule"] line')) {
    const x1 = Number(line.getAttribute('x1'));
    const x2 = Number(line.getAttribute('x2'));
    if (Math.abs(x2 - x1) > frame.right - frame.left)
      Object.assign(frame, { left: Math.min(x1, x2), right: Math.max(x1, x2) });
  }
  return { labels, frame };
}

/** Self-contained: no script, no stylesheet link, no `src`/`href` that leaves the page. */
function externalReferences(html: string): string[] {
  const { document } = parseHTML(html);
  const refs: string[] = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of ['src', 'href', 'xlink:href']) {
      const v = el.getAttribute(attr);
      if (v !== null && !v.startsWith('#')) refs.push(`${el.tagName} ${attr}=${v}`);
    }
  }
  if (document.querySelectorAll('script, link, iframe, img').length > 0)
    refs.push('script/link/iframe/img element');
  if (/url\((?!#)/.test(html) || /@import/.test(html)) refs.push('CSS url() or @import');
  return refs;
}

describe('critsec simulate --report', () => {
  it('writes one self-contained page with the four plots, each with its marks drawn', async () => {
    const file = join(tmp, 'gcs.html');
    const r = await run(
      'simulate',
      'gcs',
      '--n',
      '9',
      '--l',
      '2',
      '--k',
      '5',
      '--rounds',
      '3',
      '--workload',
      'sequential',
      '--no-progress',
      '--json',
      '--report',
      file,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).ok).toBe(true);
    const html = readFileSync(file, 'utf8');
    const f = figures(html);
    expect([...f.keys()]).toEqual(['timeline', 'concurrency', 'messages', 'waiting']);
    for (const [id, fig] of f) expect(fig.svgs, id).toBeGreaterThan(0);
    // timeline: one InCS bar per completed entry (27) plus the 2 processes InCS initially, and the waits
    expect(f.get('timeline')?.marks).toEqual(['bar', 'bar']);
    expect(f.get('timeline')?.rects).toBeGreaterThanOrEqual(27 + 2);
    // concurrency: the step line and the l and k rules, labelled
    expect(f.get('concurrency')?.marks).toEqual(expect.arrayContaining(['line', 'rule', 'text']));
    expect(html).toContain('l = 2');
    expect(html).toContain('k = 5');
    // messages per pair: histogram bars and the bound's rule (grid(9), Theorem 4: 90)
    expect(f.get('messages')?.marks).toEqual(expect.arrayContaining(['rect', 'rule', 'text']));
    expect(f.get('messages')?.rects).toBeGreaterThan(0);
    expect(html).toContain('bound 90');
    // waiting times: entry and exit histograms with their bounds
    expect(f.get('waiting')?.rects).toBeGreaterThan(1);
    expect(html).toContain('bound 9');
    expect(externalReferences(html)).toEqual([]);
  });

  it('draws every bound label whole: l and k beside their rules in the right margin, "bound" labels inside the frame', async () => {
    // concurrent: waits run far past the entry bound, so its rule sits near the axis's left end
    const s = resolveSimulation({ algorithm: 'gcs', n: 9, rounds: 4, params: { l: 2, k: 5 } });
    const recorder = new SimulationRecorder();
    const summary = await runSimulation(s, { recorder });
    const html = await simulationReportHTML(summary, recorder.recording());
    const conc = boundLabels(sectionOf(html, 'concurrency'));
    expect(conc.labels.map((l) => l.text)).toEqual(['l = 2', 'k = 5']);
    for (const l of conc.labels) {
      // beyond the frame, where the count's curve (which runs along l) cannot cover it, and inside the SVG
      expect({ l, outside: l.left >= conc.frame.right && l.right <= 880 }).toEqual({ l, outside: true });
    }
    for (const id of ['messages', 'waiting']) {
      const { labels, frame } = boundLabels(sectionOf(html, id));
      // messages: the bound per pair; waiting: the entry and the exit bound
      expect(labels.length, id).toBe(id === 'waiting' ? 2 : 1);
      for (const l of labels) {
        expect({ id, l, inside: l.left >= frame.left && l.right <= frame.right }).toEqual({
          id,
          l,
          inside: true,
        });
      }
    }
    const entryBound = summary.bounds.waitingTimeEntry;
    expect(summary.waitingTime.entry.max).toBeGreaterThan(4 * entryBound);
  });

  it('refuses an unwritable report file before running, naming it', async () => {
    const file = join(tmp, 'no-such-dir', 'r.html');
    const trace = join(tmp, 'refused.trace');
    const r = await run(
      'simulate',
      'mutex',
      '--n',
      '4',
      '--rounds',
      '1',
      '--no-progress',
      '--trace',
      trace,
      '--report',
      file,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--report: cannot write ${file}`);
    expect(r.stdout).toBe('');
    expect(existsSync(trace)).toBe(false); // nothing ran
  });
});

describe('the report data', () => {
  it('agrees with the summary: pairs, waiting times, most processes InCS (concurrent, attributed)', async () => {
    const s = resolveSimulation({
      algorithm: 'kmutex',
      n: 7,
      rounds: 4,
      params: { k: 3, coterie: 'majority' },
    });
    const recorder = new SimulationRecorder();
    const summary = await runSimulation(s, { recorder });
    const rec = recorder.recording();
    const pairs = pairMessages(rec.calls);
    expect(pairs.length).toBe(7 * 4);
    expect(pairs.reduce((a, b) => a + b, 0) / pairs.length).toBeCloseTo(
      summary.messages.perPair.mean ?? Number.NaN,
      9,
    );
    expect(Math.max(...pairs)).toBe(summary.messages.perPair.max);
    const waits = waitingTimes(rec.calls);
    expect(Math.max(...waits.filter((w) => w.op === 'entry').map((w) => w.wait))).toBe(
      summary.waitingTime.entry.max,
    );
    expect(Math.max(...inCSCount(rec).map((p) => p.inCS))).toBe(summary.concurrency.max);
    // every completed entry opens an InCS stretch that ends no earlier than it starts
    const bars = timelineBars(rec, 7).filter((b) => b.kind === 'InCS');
    expect(bars.length).toBeGreaterThanOrEqual(summary.entries);
    for (const b of bars) expect(b.to).toBeGreaterThanOrEqual(b.from);
  });

  it('costs the run nothing: the trace is byte-identical with the recorder', async () => {
    const s = resolveSimulation({ algorithm: 'gcs', n: 9, rounds: 2, params: { l: 2, k: 5 } });
    const plain: string[] = [];
    const recorded: string[] = [];
    await runSimulation(s, { trace: (line) => plain.push(line) });
    await runSimulation(s, { trace: (line) => recorded.push(line), recorder: new SimulationRecorder() });
    expect(recorded.length).toBeGreaterThan(100);
    expect(recorded).toEqual(plain);
  });
});

describe('critsec bench --report', () => {
  it('draws the √n scaling plot: Ricart–Agrawala beside each coterie, per algorithm', async () => {
    const b = await runBench(
      resolveBench({ n: '9,16', algorithms: 'ricart-agrawala,mutex', coteries: 'grid,tree', rounds: 1 }),
    );
    const html = await benchReportHTML(b);
    const f = figures(html);
    expect([...f.keys()]).toEqual(['scaling-mutex']);
    const marks = f.get('scaling-mutex')?.marks ?? [];
    expect(marks).toEqual(expect.arrayContaining(['line', 'dot']));
    const { document } = parseHTML(html);
    // one line per series (ricart-agrawala, grid, tree) and the √n guide
    expect(
      document.querySelectorAll('section[data-plot="scaling-mutex"] g[aria-label="line"] path').length,
    ).toBe(4);
    for (const series of ['ricart-agrawala', 'grid', 'tree']) expect(html).toContain(series);
    expect(externalReferences(html)).toEqual([]);
  });

  it('refuses --report for a family bench', async () => {
    const file = join(tmp, 'hk.html');
    const r = await run('bench', 'h-out-of-k', '--report', file, '--no-progress');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--report: only for the global bench');
    expect(existsSync(file)).toBe(false);
  });
});

describe('critsec cluster --report (the recording read from the shared log)', () => {
  const log: SharedLogRecord[] = [
    { p: 0, e: 'start', t: 900 },
    { p: 1, e: 'start', t: 950 },
    { p: 1, e: 'entry-called', r: 1, t: 1000 },
    { p: 0, e: 'entry-called', r: 1, t: 1002 },
    { p: 1, e: 'entry-done', r: 1, t: 1010 },
    { p: 0, e: 'entry-aborted', r: 1, t: 1011 },
    { p: 1, e: 'exit-called', r: 1, t: 1012 },
    { p: 1, e: 'exit-done', r: 1, t: 1020 },
    { p: 0, e: 'entry-called', r: 1, t: 1021 },
    { p: 0, e: 'entry-done', r: 1, t: 1030 },
    { p: 0, e: 'exit-called', r: 2, t: 1031 },
  ];
  const spec = { kind: 'global', n: 2, l: 0, k: 1 } as const;

  it('turns the log into state changes and calls, ms from the first call', () => {
    const rec = clusterRecording(log, { spec, initial: ['OutCS', 'OutCS'], rounds: 1 });
    expect(rec.changes).toEqual([
      { p: 1, s: 'InCS', t: 10 },
      { p: 1, s: 'OutCS', t: 20 },
      { p: 0, s: 'InCS', t: 30 },
    ]);
    expect(rec.calls.map((c) => [c.p, c.op, c.start, c.end, c.aborted, c.extra])).toEqual([
      [1, 'entry', 0, 10, false, false],
      [0, 'entry', 2, 11, true, false],
      [1, 'exit', 12, 20, false, false],
      [0, 'entry', 21, 30, false, false],
      [0, 'exit', 31, Number.NaN, false, true],
    ]);
    expect(rec.end).toBe(31);
    expect(inCSCount(rec).map((p) => p.inCS)).toEqual([0, 1, 0, 1, 1]);
    expect(waitingTimes(rec.calls)).toEqual([
      { op: 'entry', wait: 10 },
      { op: 'exit', wait: 8 },
      { op: 'entry', wait: 9 },
    ]);
  });

  it('draws the four plots; messages per pair from the summary (no per-call counts in the log)', async () => {
    const s = resolveSimulation({ algorithm: 'mutex', n: 2, rounds: 1, params: { coterie: 'majority' } });
    const summary = { ...(await runSimulation(s)), simulatedTime: null, timeUnit: 'ms' as const };
    const rec = clusterRecording(log, { spec, initial: ['OutCS', 'OutCS'], rounds: 1 });
    const html = await simulationReportHTML(summary, rec);
    const f = figures(html);
    expect([...f.keys()]).toEqual(['timeline', 'concurrency', 'messages', 'waiting']);
    expect(html).toContain('<title>critsec cluster mutex</title>');
    expect(f.get('messages')?.marks).toEqual(expect.arrayContaining(['bar', 'rule']));
    expect(f.get('messages')?.rects).toBe(3);
    expect(html).toContain('time (ms)');
    // the waiting-time bounds count message delays: not drawn on an axis in ms, and the caption says so
    const waiting = sectionOf(html, 'waiting');
    expect(boundLabels(waiting).labels).toEqual([]);
    expect(waiting.textContent).toContain('count message delays, not ms, so they are not drawn');
    expect(externalReferences(html)).toEqual([]);
  });
});
