// compare and report on a small hand-built run folder: comparison.csv is byte-for-byte reproducible (also
// through the CLI), the report has a row for every point, says which point failed, and its SVGs are real;
// report also takes a `hedgebench simulate` folder.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRunFolder, writeReport } from '../../analysis/index.ts';
import { analyzeRun, everyPoint } from '../../analysis/judge/run-analysis.ts';
import { renderCharts } from '../../analysis/write/compare-and-report.ts';
import { COMPARISON_HEADER, parseComparisonCsv, parsePointsCsv } from '../../contract/index.ts';
import { parseMatrix } from '../../model/index.ts';
import { createCli } from '../../orchestrator/cli/cli.ts';
import { simulateMatrix } from '../../simulator/index.ts';
import { slugOf, VERDICT_POINTS, writeFixtureRun } from './fixture.ts';

const dirs: string[] = [];

/** Runs the CLI in this process and returns what it wrote to stdout (stderr is dropped). */
async function captureCli(argv: string[]): Promise<string> {
  const write = process.stdout.write;
  let out = '';
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  const errWrite = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    await createCli(argv).parseAsync();
  } finally {
    process.stdout.write = write;
    process.stderr.write = errWrite;
  }
  return out;
}
let dir: string;

beforeAll(() => {
  dir = writeFixtureRun(VERDICT_POINTS);
  dirs.push(dir);
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('compare', () => {
  it('gives one verdict of the expected kind per point', () => {
    const a = analyzeRun(dir);
    const byPoint = Object.fromEntries(a.points.map((p) => [p.key, new Set(p.rows.map((r) => r.verdict))]));
    expect(byPoint['no hedge|0.50|ignore|1']).toEqual(new Set(['agrees']));
    expect(byPoint['no hedge|0.95|ignore|1'].has('diverges')).toBe(true);
    expect(byPoint['hedge, default budget|0.95|ignore|1']).toEqual(new Set(['both-collapsed']));
    expect(byPoint['hedge, no budget|0.50|ignore|1']).toEqual(new Set(['missing']));
    expect(byPoint['hedge, no budget|0.95|ignore|1']).toEqual(new Set(['invalid']));
    expect(a.calibration?.usable).toBe(true);
    // The fixture adds 0.5 ms to every real latency; the calibration sees about that.
    expect(a.calibration?.p50Ms).toBeGreaterThan(0.4);
    expect(a.calibration?.p50Ms).toBeLessThan(0.6);
    expect(
      a.notes.some((n) => /hedge, no budget at load 0\.50 .*failed: the load generator exited/.test(n)),
    ).toBe(true);
  });

  it('is byte-for-byte reproducible, through the function and through the CLI', async () => {
    const first = compareRunFolder(dir);
    const csv1 = readFileSync(join(dir, 'comparison.csv'));
    const txt1 = readFileSync(join(dir, 'comparison.txt'));
    writeFileSync(join(dir, 'comparison.csv'), 'stale');
    const out = await captureCli(['compare', dir]);
    expect(readFileSync(join(dir, 'comparison.csv')).equals(csv1)).toBe(true);
    expect(readFileSync(join(dir, 'comparison.txt')).equals(txt1)).toBe(true);
    expect(out).toBe(
      `${[first.summaryLine, first.agreementLine, first.calibrationLine, first.simNetLine].join('\n')}\n`,
    );
    expect(first.summaryLine).toMatch(
      /^comparison: 6 points \(5 with sim and real\); \d+ of 42 metrics agree; /,
    );

    const text = csv1.toString('utf8');
    expect(text.split('\n')[0]).toBe(COMPARISON_HEADER);
    // sim: the calibration point judged like any point (7 lines) + 6 points × 7 metrics; sim+net, in a file
    // of its own: the same for the 5 points measured.
    expect(parseComparisonCsv(text)).toHaveLength(7 + 6 * 7);
    const net = parseComparisonCsv(readFileSync(join(dir, 'comparison-net.csv'), 'utf8'));
    expect(net).toHaveLength(7 + 5 * 7);
  });

  it('an identical copy of the folder gives identical bytes', () => {
    const copy = writeFixtureRun(VERDICT_POINTS);
    dirs.push(copy);
    compareRunFolder(copy);
    compareRunFolder(dir);
    expect(readFileSync(join(copy, 'comparison.csv')).equals(readFileSync(join(dir, 'comparison.csv')))).toBe(
      true,
    );
  });

  it('--rewrite-points replaces real rows by the recomputed ones and keeps the sim rows', () => {
    const copy = writeFixtureRun(VERDICT_POINTS);
    dirs.push(copy);
    const before = parsePointsCsv(readFileSync(join(copy, 'points.csv'), 'utf8'));
    compareRunFolder(copy, { rewritePoints: true });
    const after = parsePointsCsv(readFileSync(join(copy, 'points.csv'), 'utf8'));
    expect(after.filter((r) => r.source === 'sim')).toEqual(before);
    // Every point with raw files (all but the failed one) now has a real row.
    expect(after.filter((r) => r.source === 'real')).toHaveLength(VERDICT_POINTS.length - 1);
    // A second pass changes nothing.
    const bytes = readFileSync(join(copy, 'points.csv'));
    compareRunFolder(copy, { rewritePoints: true });
    expect(readFileSync(join(copy, 'points.csv')).equals(bytes)).toBe(true);
  });
});

describe('report', () => {
  it('writes report.md with a row per point, the calibration line and the failed point', async () => {
    const r = await writeReport(dir);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain(r.summaryLine);
    expect(md).toMatch(
      /\*\*calibration: no hedge at load 0\.10 \(ignore, seed 1\): real − sim = \+0\.\d{3} ms at p50/,
    );
    for (const p of VERDICT_POINTS.filter((q) => !q.calibration)) {
      const load = p.load.toFixed(2);
      const state = p.state ?? 'done';
      expect(md).toContain(`| ${p.config} | ${load} | ignore | 1 | ${state} |`);
    }
    // The study table: one row per configuration, sim and real per load; the failed point says so.
    expect(md).toMatch(/\| configuration \| 0\.50 sim \| 0\.50 real \| 0\.95 sim \| 0\.95 real \|/);
    expect(md).toMatch(/\| hedge, no budget \| [\d.]+ \/ [\d.]+ \| failed \|/);
    expect(md).toMatch(
      /\| hedge, default budget \| [\d.]+ \/ [\d.]+ \| [\d.]+ \/ [\d.]+ \| collapse \| collapse \|/,
    );
    expect(md).toMatch(/\| no hedge \|.*✗ \|$/m);
    expect(md).toContain('(invalid)');
    expect(md).toMatch(/failed: the load generator exited with code 1/);
    expect(md).toMatch(
      /real collapsed: in-flight attempts reached the cap 20000; server records: the queue never drained/,
    );
  });

  it('renders valid SVG charts: agreement, latency per configuration and the collapsed point over time', async () => {
    await writeReport(dir);
    const files = readdirSync(join(dir, 'charts')).sort();
    expect(files).toEqual([
      'agreement_ignore.svg',
      'attribution.svg',
      `collapse_${slugOf({ config: 'hedge, default budget', load: 0.95 }).replace(/_/g, '-')}.svg`,
      'latency_ignore_hedge-default-budget.svg',
      'latency_ignore_hedge-no-budget.svg',
      'latency_ignore_no-hedge.svg',
    ]);
    for (const f of files) {
      const svg = readFileSync(join(dir, 'charts', f), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(svg).toMatch(/<path[^>]* d="M[^"]+"/);
      // Well-formed enough: every opened <g> is closed.
      expect((svg.match(/<g[\s>]/g) ?? []).length).toBe((svg.match(/<\/g>/g) ?? []).length);
    }
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect((html.match(/<svg/g) ?? []).length).toBe(files.length);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    for (const f of files) expect(md).toContain(`(charts/${f})`);
  });

  it('reads raw/ once: the charts and sim+net come from the analysis, which keeps the records only where they are read', async () => {
    const copy = writeFixtureRun(VERDICT_POINTS);
    dirs.push(copy);
    const a = analyzeRun(copy);
    rmSync(join(copy, 'raw'), { recursive: true });
    const { refs } = await renderCharts(a);
    expect(refs.filter((r) => r.kind === 'collapse')).toHaveLength(1);
    expect(a.simNet.rows.length).toBeGreaterThan(0);
    // The calibration point (its transport) and the collapsed point (its chart); no other point.
    const kept = everyPoint(a).filter((p) => p.raw !== null);
    expect(kept.map((p) => p.entry.slug).sort()).toEqual(
      [slugOf(VERDICT_POINTS[0]), slugOf(VERDICT_POINTS[4])].sort(),
    );
  });

  it('writes the same bytes twice (report, page and charts)', async () => {
    const read = () =>
      ['report.md', 'report.html', ...readdirSync(join(dir, 'charts')).map((f) => `charts/${f}`)].map((f) =>
        readFileSync(join(dir, f), 'utf8'),
      );
    await writeReport(dir);
    const first = read();
    await writeReport(dir);
    expect(read()).toEqual(first);
  });

  it('reports a `hedgebench simulate` folder: its charts and tables, no comparison, and says so', async () => {
    const sim = mkdtempSync(join(tmpdir(), 'hb-sim-report-'));
    dirs.push(sim);
    const matrix = parseMatrix({
      name: 'sim-only',
      configs: ['no hedge', 'hedge, default budget'],
      loads: [0.5, 0.95],
      cancellation: ['ignore'],
      seeds: [1, 2],
      calls: 2000,
    });
    await simulateMatrix(matrix, sim, { threads: 0 });
    const out = await captureCli(['report', sim]);
    expect(out).toBe('simulation only: 8 simulated points, nothing measured or compared\n');
    expect(existsSync(join(sim, 'comparison.csv'))).toBe(false);
    const md = readFileSync(join(sim, 'report.md'), 'utf8');
    expect(md).toContain('# hedgebench report — simulation sim-only');
    expect(md).toContain('**A simulation only**');
    expect(md).not.toContain('## Divergences');
    expect(md).not.toContain('agreement_');
    expect(md).toMatch(/\| configuration \| 0\.50 sim \| 0\.95 sim \|/);
    expect(md).toMatch(/\| hedge, default budget \| [\d.]+ \/ [\d.]+ \| (collapse|[\d.]+ \/ [\d.]+) \|/);
    expect(readdirSync(join(sim, 'charts')).sort()).toEqual([
      'latency_ignore_hedge-default-budget.svg',
      'latency_ignore_no-hedge.svg',
    ]);
    const svg = readFileSync(join(sim, 'charts', 'latency_ignore_no-hedge.svg'), 'utf8');
    expect(svg).toContain('simulated, dashed (nothing measured)');
    expect(svg).not.toContain('this mark: real');
    const html = readFileSync(join(sim, 'report.html'), 'utf8');
    expect((html.match(/<svg/g) ?? []).length).toBe(2);
  });

  it('gives each dimension variant (here a swept hedge delay) its own row and chart', async () => {
    const sim = mkdtempSync(join(tmpdir(), 'hb-sim-dims-'));
    dirs.push(sim);
    const matrix = parseMatrix({
      name: 'delays',
      configs: ['no hedge', 'hedge, default budget'],
      loads: [0.5],
      delaysMs: [10, 40],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 2000,
    });
    await simulateMatrix(matrix, sim, { threads: 0 });
    await writeReport(sim);
    const md = readFileSync(join(sim, 'report.md'), 'utf8');
    const rows = (label: string) => md.split('\n').filter((l) => l.startsWith(`| ${label} |`));
    // One study-table row and one per-point row for each variant; the unhedged config has no delay.
    expect(rows('hedge, default budget · delay 10 ms')).toHaveLength(2);
    expect(rows('hedge, default budget · delay 40 ms')).toHaveLength(2);
    expect(rows('no hedge')).toHaveLength(2);
    expect(rows('hedge, default budget')).toHaveLength(0);
    expect(readdirSync(join(sim, 'charts')).sort()).toEqual([
      'latency_ignore_hedge-default-budget-delay-10-ms.svg',
      'latency_ignore_hedge-default-budget-delay-40-ms.svg',
      'latency_ignore_no-hedge.svg',
    ]);
  });

  it('still reports a run whose points are all pending and whose points.csv is missing', async () => {
    const empty = writeFixtureRun(
      VERDICT_POINTS.map((p) => ({ ...p, state: 'pending' as const, noRaw: true })),
    );
    dirs.push(empty);
    rmSync(join(empty, 'points.csv'));
    const r = await writeReport(empty);
    expect(r.summaryLine).toBe(
      'comparison: 6 points (0 with sim and real); 0 of 42 metrics agree; undecided 0, diverges 0, both-collapsed 0, collapse-mismatch 0, invalid 0, missing 42',
    );
    const md = readFileSync(join(empty, 'report.md'), 'utf8');
    expect(md).toContain('0 of 6 points were measured');
    expect(md).toContain('No chart: no point has data yet.');
    expect(md).toMatch(/calibration: .*not the harness's overhead \(the calibration point has no real row/);
  });
});
