/*
 * The HTML reports opened in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core): every plot renders at a real size, the page logs no error, and each plot's
 * screenshot is not blank. A missing Chromium fails the suite with the install hint.
 *
 * The README's screenshot is written by the same test:
 *   CRITSEC_LONG=1 CRITSEC_REPORT_SCREENSHOT=docs/report-simulate.png npx vitest run test/report-chromium.long.test.ts
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/index.js';

const CHROMIUM = process.env.CRITSEC_CHROMIUM ?? '/usr/bin/chromium';
const tmp = mkdtempSync(join(tmpdir(), 'critsec-report-chromium-'));
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's with \`apt-get update && apt-get install -y chromium\` (or set CRITSEC_CHROMIUM to a Chromium binary)`,
    );
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function cli(...argv: string[]): Promise<number> {
  const sink = { write: () => true };
  return main(argv, { stdout: sink, stderr: sink });
}

/** Decodes a PNG in the page (a canvas): share of non-white pixels, distinct colours (≤ 1000). */
const INK_SCRIPT = `async (src) => {
  const img = new Image();
  img.src = src;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width;
  canvas.height = img.height;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  const { data } = g.getImageData(0, 0, img.width, img.height);
  let ink = 0;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) ink++;
    if (colours.size < 1000) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  }
  return { ink: ink / (data.length / 4), colours: colours.size };
}`;

/** Share of non-white pixels and number of distinct colours of a PNG, measured in the page. */
async function inkOf(page: Page, png: Buffer): Promise<{ ink: number; colours: number }> {
  const src = `data:image/png;base64,${png.toString('base64')}`;
  return page.evaluate(`(${INK_SCRIPT})(${JSON.stringify(src)})`) as Promise<{
    ink: number;
    colours: number;
  }>;
}

/** Opens a report; checks every plot drawn at size, not blank, and no console error. */
async function checkReport(file: string, ids: readonly string[], screenshot?: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  await page.goto(pathToFileURL(file).href);
  const found = await page.$$eval('section[data-plot]', (els) => els.map((e) => e.getAttribute('data-plot')));
  expect(found).toEqual(ids);
  for (const id of ids) {
    const chart = page.locator(`section[data-plot="${id}"] svg[viewBox]`).last();
    const box = await chart.boundingBox();
    expect(box?.width ?? 0, id).toBeGreaterThan(400);
    expect(box?.height ?? 0, id).toBeGreaterThan(120);
    const { ink, colours } = await inkOf(page, await chart.screenshot());
    expect(ink, `${id}: share of inked pixels`).toBeGreaterThan(0.03);
    expect(colours, `${id}: distinct colours`).toBeGreaterThan(3);
  }
  if (screenshot !== undefined) writeFileSync(screenshot, await page.screenshot({ fullPage: true }));
  expect(errors).toEqual([]);
  await page.close();
}

describe('the HTML reports in headless Chromium', () => {
  it('simulate --report: the four plots render, not blank, no console error', async () => {
    const file = join(tmp, 'simulate.html');
    const code = await cli(
      'simulate',
      'gcs',
      '--n',
      '9',
      '--l',
      '2',
      '--k',
      '5',
      '--rounds',
      '6',
      '--no-progress',
      '--json',
      '--report',
      file,
    );
    expect(code).toBe(0);
    const shot = process.env.CRITSEC_REPORT_SCREENSHOT;
    await checkReport(file, ['timeline', 'concurrency', 'messages', 'waiting'], shot && resolve(shot));
  });

  it('bench --report: the √n scaling plots render, not blank, no console error', async () => {
    const file = join(tmp, 'bench.html');
    const code = await cli(
      'bench',
      '--n',
      '9,16,64',
      '--algorithms',
      'ricart-agrawala,mutex,gcs',
      '--coteries',
      'grid,tree',
      '--no-progress',
      '--json',
      '--report',
      file,
    );
    expect(code).toBe(0);
    await checkReport(file, ['scaling-mutex', 'scaling-gcs']);
  });

  it('cluster --report: the four plots from the shared log render, not blank, no console error', async () => {
    const file = join(tmp, 'cluster.html');
    const code = await cli(
      'cluster',
      'gcs',
      '--n',
      '5',
      '--l',
      '1',
      '--k',
      '3',
      '--rounds',
      '5',
      '--no-progress',
      '--json',
      '--report',
      file,
    );
    expect(code).toBe(0);
    await checkReport(file, ['timeline', 'concurrency', 'messages', 'waiting']);
  });
});
