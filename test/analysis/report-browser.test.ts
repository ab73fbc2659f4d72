// report.html of a real run, opened in a real browser: Debian's chromium, headless, driven by
// puppeteer-core (nothing downloaded). A tiny run on this machine (real Redis, target server and load
// generator), then: every chart is drawn with marks, hovering a mark shows its point's figures, the charts
// still read with JavaScript off, and screenshots go to test-output/report-browser/ (git-ignored).

import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun } from '../../orchestrator/index.ts';
import { killProcessesMentioning, ROOT, requireBuild, rmTemp, tempDir } from '../orchestrator/fixture.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';

const CHROMIUM = process.env.HEDGEBENCH_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(ROOT, 'test-output', 'report-browser');

let dir: string;
let run: string;
let redis: RedisProcess;
let browser: Browser;

/** Fails loudly, with the fix, when the browser is not installed: this test never skips. */
function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `chromium is missing at ${CHROMIUM}: run \`bash scripts/setup.sh\` (it installs Debian's chromium package), or point HEDGEBENCH_CHROMIUM at a Chromium binary`,
    );
  }
}

beforeAll(async () => {
  requireChromium();
  requireBuild();
  dir = tempDir('hb-report-browser-');
  run = join(dir, 'run');
  redis = await startRedis();
  const matrixFile = join(dir, 'browser.json');
  // One configuration × two loads × two seeds, 300 calls each: every kind of chart but the collapse one
  // (lines between loads, a shape per seed), at about five seconds a point on a busy 2-core machine.
  writeFileSync(
    matrixFile,
    JSON.stringify({
      name: 'browser',
      configs: ['hedge, default budget'],
      loads: [0.3, 0.6],
      cancellation: ['ignore'],
      seeds: [1, 2],
      calls: 300,
      calibration: false,
    }),
  );
  const quiet = { write: () => true };
  const r = await createRun({
    matrixFile,
    out: run,
    redisUrl: redis.url,
    cwd: dir,
    stderr: quiet,
    stdout: quiet,
  });
  const outcome = await r.execute();
  expect(outcome).toMatchObject({ exitCode: 0, done: 4, failed: 0 });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Chromium refuses to start its sandbox as root; the page is our own local file.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await redis?.stop();
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

async function openReport(javaScript: boolean): Promise<Page> {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(javaScript);
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`file://${join(run, 'report.html')}`, { waitUntil: 'load' });
  return page;
}

/** Each figure of the page: its chart file, its drawn size, and how many marks and tip marks it has. */
async function figures(page: Page) {
  return page.$$eval('figure[data-chart]', (figs) =>
    figs.map((f) => {
      const svg = f.querySelector('svg');
      const box = svg?.getBoundingClientRect();
      return {
        file: f.getAttribute('data-chart') ?? '',
        width: box?.width ?? 0,
        height: box?.height ?? 0,
        marks: svg?.querySelectorAll('.role-mark path, .role-mark line, .role-mark text').length ?? 0,
        tips: svg?.querySelectorAll('.hb-tip').length ?? 0,
        titles: svg?.querySelectorAll('.hb-tip > title').length ?? 0,
      };
    }),
  );
}

describe('report.html of a real run, in headless chromium', () => {
  it('draws every chart the run wrote, each with marks', async () => {
    const page = await openReport(true);
    const expected = readdirSync(join(run, 'charts'))
      .filter((f) => f.endsWith('.svg'))
      .map((f) => `charts/${f}`)
      .sort();
    expect(expected).toEqual(
      expect.arrayContaining([
        'charts/agreement_ignore.svg',
        'charts/attribution.svg',
        'charts/latency_ignore_hedge-default-budget.svg',
      ]),
    );
    const figs = await figures(page);
    expect(figs.map((f) => f.file).sort()).toEqual(expected);
    for (const f of figs) {
      expect(f.width, f.file).toBeGreaterThan(200);
      expect(f.height, f.file).toBeGreaterThan(100);
      expect(f.marks, f.file).toBeGreaterThan(0);
      expect(statSync(join(run, f.file)).size, f.file).toBeGreaterThan(1000);
    }
    // The agreement grid has one cell per point; each latency chart a mark per percentile, source and seed.
    const grid = figs.find((f) => f.file === 'charts/agreement_ignore.svg')!;
    expect(grid.tips).toBe(4);
    // At most 2 percentiles × 2 sources × 2 seeds × 2 loads; a collapsed side is one marker instead.
    for (const f of figs.filter((x) => x.file.startsWith('charts/latency_'))) {
      expect(f.tips, f.file).toBeGreaterThanOrEqual(4);
      expect(f.tips, f.file).toBeLessThanOrEqual(16);
    }
    await page.screenshot({ path: join(SHOTS, 'report.png'), fullPage: true });
    await page.close();
  });

  it('shows a point’s figures when the pointer is on its mark', async () => {
    const page = await openReport(true);
    const mark = await page.$('figure[data-chart="charts/latency_ignore_hedge-default-budget.svg"] .hb-tip');
    expect(mark).not.toBeNull();
    const hidden = await page.$eval(
      '#hb-tipbox',
      (b) => b.ownerDocument.defaultView?.getComputedStyle(b).display,
    );
    expect(hidden).toBe('none');
    // Find a real point's mark (its title names it) that no other mark covers: where the two sides agree,
    // the sim mark drawn after it can sit right on top, and the pointer then reads the sim mark.
    const real = await page.$$eval(
      'figure[data-chart="charts/latency_ignore_hedge-default-budget.svg"] .hb-tip',
      (ms) =>
        ms.findIndex((m) => {
          if (!/this mark: real p99 /.test(m.querySelector('title')?.textContent ?? '')) return false;
          m.scrollIntoView({ block: 'center' });
          const r = m.getBoundingClientRect();
          const top = m.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return top?.closest('.hb-tip') === m;
        }),
    );
    expect(real).toBeGreaterThanOrEqual(0);
    const marks = await page.$$(
      'figure[data-chart="charts/latency_ignore_hedge-default-budget.svg"] .hb-tip',
    );
    // The pointer goes to the very spot found uncovered above.
    const at = await marks[real].evaluate((m) => {
      m.scrollIntoView({ block: 'center' });
      const r = m.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.move(at.x, at.y);
    const box = await page.$eval('#hb-tipbox', (b) => ({
      display: b.ownerDocument.defaultView?.getComputedStyle(b).display,
      text: b.textContent ?? '',
      width: b.getBoundingClientRect().width,
      // The mark under the pointer (marks may overlap: the one on top is the one hovered).
      hovered: [...b.ownerDocument.querySelectorAll('.hb-tip:hover')].at(-1)?.getAttribute('data-tip'),
    }));
    expect(box.display).toBe('block');
    expect(box.width).toBeGreaterThan(50);
    expect(box.text).toMatch(/^hedge, default budget · load 0\.(30|60) · cancellation ignore · seed [12]\n/);
    expect(box.text).toBe(box.hovered);
    expect(box.text).toMatch(/this mark: real p99(\.9)? = [\d.]+ ms/);
    for (const m of ['p50', 'p99', 'p99.9'])
      expect(box.text).toMatch(new RegExp(`real ${m.replace('.', '\\.')}: [\\d.]+ ms 95 % \\[`));
    expect(box.text).toMatch(/valid: (yes|NO, because\n {2}· .+)/);
    expect(box.text).toMatch(/verdict: \S+/);
    await page.screenshot({ path: join(SHOTS, 'tooltip-latency.png') });

    // A cell of the agreement grid: both sides' figures and the verdict.
    const cell = await page.$('figure[data-chart="charts/agreement_ignore.svg"] .hb-tip');
    await cell!.scrollIntoView();
    await cell!.hover();
    const cellText = await page.$eval('#hb-tipbox', (b) => b.textContent ?? '');
    expect(cellText).toMatch(/^hedge, default budget · load 0\.(30|60) · cancellation ignore · seed [12]\n/);
    expect(cellText).toMatch(/sim p99: [\d.]+ ms/);
    expect(cellText).toMatch(/real p99: [\d.]+ ms 95 % \[/);
    expect(cellText).toMatch(/verdict: /);
    await page.screenshot({ path: join(SHOTS, 'tooltip-agreement.png') });

    // Moving away hides the box.
    await page.mouse.move(2, 2);
    expect(
      await page.$eval('#hb-tipbox', (b) => b.ownerDocument.defaultView?.getComputedStyle(b).display),
    ).toBe('none');
    await page.close();
    for (const f of ['report.png', 'tooltip-latency.png', 'tooltip-agreement.png'])
      expect(statSync(join(SHOTS, f)).size).toBeGreaterThan(10_000);
  });

  it('reads the same with JavaScript off: the SVG is static, each mark keeps its <title>', async () => {
    const page = await openReport(false);
    const figs = await figures(page);
    expect(figs.length).toBeGreaterThanOrEqual(3);
    for (const f of figs) {
      expect(f.width, f.file).toBeGreaterThan(200);
      expect(f.marks, f.file).toBeGreaterThan(0);
      expect(f.titles, f.file).toBe(f.tips);
    }
    expect(await page.$('#hb-tipbox')).toBeNull();
    await page.close();
  });
});
