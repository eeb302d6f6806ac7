/*
 * The report page: one self-contained HTML file — inline CSS, the figures as inline SVG, no
 * script, no external `src` or `href` — so that it opens anywhere, offline, and can be mailed.
 */
import { writeFileSync } from 'node:fs';
import { ConfigurationError } from '@critsec/core';
import type { ReportFigure } from './report-plots.js';

/** What a report page shows: a title, key facts (label → value) and the figures. */
export interface ReportPage {
  readonly title: string;
  /** One line under the title (e.g. the problem solved). */
  readonly subtitle: string;
  readonly facts: readonly (readonly [string, string])[];
  readonly figures: readonly ReportFigure[];
  /** The command that reproduces the run, if any. */
  readonly replay?: string;
}

const CSS = `body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:920px;color:#222;background:#fff;padding:0 1rem}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin:2rem 0 .3rem}
.sub{color:#555;margin-top:0}table{border-collapse:collapse;margin:1rem 0}
td,th{border-bottom:1px solid #ddd;padding:.25rem .8rem;text-align:left;font-variant-numeric:tabular-nums}
th{font-weight:600;color:#444}code{background:#f4f4f4;padding:.1rem .3rem;border-radius:3px;font-size:.85rem}
figure{margin:0}.plot p.caption{color:#555;font-size:.9rem;margin:.2rem 0 .6rem}
footer{color:#888;font-size:.8rem;margin-top:3rem}`;

/** Escapes text for HTML content and attribute values. */
function escapeHTML(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page's markup: every figure in a `<section class="plot" data-plot="ID">`. */
export function reportHTML(page: ReportPage): string {
  const facts = page.facts
    .map(([label, value]) => `<tr><th>${escapeHTML(label)}</th><td>${escapeHTML(value)}</td></tr>`)
    .join('\n');
  const figures = page.figures
    .map(
      (f) => `<section class="plot" data-plot="${escapeHTML(f.id)}">
<h2>${escapeHTML(f.title)}</h2>
<p class="caption">${escapeHTML(f.caption)}</p>
${f.svg}
</section>`,
    )
    .join('\n');
  const replay = page.replay === undefined ? '' : `<p>Replay: <code>${escapeHTML(page.replay)}</code></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHTML(page.title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHTML(page.title)}</h1>
<p class="sub">${escapeHTML(page.subtitle)}</p>
<table>
${facts}
</table>
${replay}
${figures}
<footer>Written by critsec (@critsec/cli); plots drawn by Observable Plot at report time.</footer>
</body>
</html>
`;
}

/**
 * Writes a report page to `path`.
 * @throws ConfigurationError naming the path if it cannot be written.
 */
export function writeReportFile(path: string, html: string): void {
  try {
    writeFileSync(path, html);
  } catch (err) {
    throw new ConfigurationError(
      `--report: cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}
