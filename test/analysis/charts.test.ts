// The report's charts say no more than the evidence: an invalid measurement is hollow and grey with its
// reason in the legend, an open interval is hollow, a collapsed point is a labelled marker at the top,
// two seeds are told apart, the agreement grid colours each point by its verdict, and every mark carries
// its point's figures as an SVG <title> (the tooltip that works without JavaScript).

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSvg } from '../../analysis/charts/charts.ts';
import { latencyVsLoadSpec } from '../../analysis/charts/latency-chart.ts';
import { latencyData, latencyDomain, shortReason } from '../../analysis/charts/latency-data.ts';
import { writeReport } from '../../analysis/index.ts';
import type { PointAnalysis } from '../../analysis/judge/point-analysis.ts';
import { POINT_CATEGORIES } from '../../analysis/judge/point-verdict.ts';
import { analyzeRun } from '../../analysis/judge/run-analysis.ts';
import { VERDICT_POINTS, writeFixtureRun } from './fixture.ts';

let dir: string;

beforeAll(async () => {
  dir = writeFixtureRun(VERDICT_POINTS);
  await writeReport(dir);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The marks of an SVG that carry a tip: their description (decoded) and their drawing attributes. */
function tipMarks(svg: string): { tip: string; attrs: string }[] {
  const decode = (s: string) =>
    s
      .replace(/&#xA;/g, '\n')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return [
    ...svg.matchAll(/<path class="hb-tip" aria-label="([^"]*)"([^>]*)><title>([^<]*)<\/title><\/path>/g),
  ].map((m) => {
    expect(m[3]).toBe(m[1]); // the <title> says what the aria-label says
    return { tip: decode(m[1]), attrs: m[2] };
  });
}

const chart = (name: string) => readFileSync(join(dir, 'charts', `${name}.svg`), 'utf8');
const attr = (attrs: string, name: string) => attrs.match(new RegExp(` ${name}="([^"]*)"`))?.[1];

describe('latency charts', () => {
  it('draws an invalid measurement hollow and grey, with its reason in the legend and in its tip', () => {
    const svg = chart('latency_ignore_hedge-no-budget');
    const marks = tipMarks(svg);
    const invalid = marks.filter((m) => m.tip.includes('this mark: real p99'));
    expect(invalid).toHaveLength(2); // p99 and p99.9 of the one measured point (0.50 failed)
    for (const m of invalid) {
      expect(attr(m.attrs, 'fill-opacity')).toBe('0');
      expect(Number(attr(m.attrs, 'opacity'))).toBeLessThan(0.5);
      expect(m.tip).toMatch(/^hedge, no budget · load 0\.95 · cancellation ignore · seed 1\n/);
      expect(m.tip).toContain('valid: NO, because\n  · send-lag p99 2.5 ms exceeds the threshold 1 ms');
      expect(m.tip).toContain('verdict: invalid');
    }
    const sim = marks.filter((m) => m.tip.includes('this mark: sim'));
    expect(sim).toHaveLength(4);
    for (const m of sim) expect(attr(m.attrs, 'fill-opacity')).toBe('1');
    expect(svg).toContain('hollow grey: invalid, because');
    expect(svg).toContain('· send-lag p99 &gt; 1 ms');
    // The point that failed is named, not silently left out.
    expect(svg).toContain('not measured: 0.50 failed');
  });

  it('draws a percentile whose interval is open above hollow, and one it bounds filled', () => {
    const marks = tipMarks(chart('latency_ignore_no-hedge'));
    const p999 = marks.filter((m) => m.tip.includes('this mark: real p99.9'));
    const p99 = marks.filter((m) => m.tip.includes('this mark: real p99 '));
    expect(p999.length).toBe(2);
    expect(p99.length).toBe(2);
    for (const m of p999) {
      expect(m.tip).toMatch(/real p99\.9: [\d.]+ ms 95 % \[[\d.]+, open above: 2700 calls cannot bound it/);
      expect(attr(m.attrs, 'fill-opacity')).toBe('0');
      expect(attr(m.attrs, 'opacity')).toBe('1');
    }
    for (const m of p99) {
      expect(m.tip).toMatch(/real p99: [\d.]+ ms 95 % \[[\d.]+, [\d.]+\]/);
      expect(attr(m.attrs, 'fill-opacity')).toBe('1');
    }
  });

  it('marks a collapsed point at the top of the axis, labelled, instead of ending a line', () => {
    const svg = chart('latency_ignore_hedge-default-budget');
    const marks = tipMarks(svg);
    const collapse = marks.filter((m) => m.tip.includes('collapsed: no percentile to draw'));
    expect(collapse).toHaveLength(1);
    expect(collapse[0].tip).toContain('load 0.95');
    // Near the top of the plot (y in pixels from the plot's top edge).
    const y = Number(collapse[0].attrs.match(/translate\([\d.]+,([\d.]+)\)/)?.[1]);
    expect(y).toBeLessThan(10);
    expect(svg).toContain('<tspan>collapse</tspan><tspan x="0" dy="12">sim, real</tspan>');
    // No percentile is drawn for the collapsed load.
    expect(marks.some((m) => m.tip.includes('load 0.95') && m.tip.includes('this mark:'))).toBe(false);
  });

  it('gives each seed its own shape and place', async () => {
    const a = analyzeRun(dir);
    const one = a.points.filter((p) => p.id.config === 'no hedge');
    const two: PointAnalysis[] = [...one, ...one.map((p) => ({ ...p, id: { ...p.id, seed: 2 } }))];
    const data = latencyData(two, [1, 2], [0.5, 0.95]);
    const at = (seed: string) => data.points.find((d) => d.seed === seed && d.source === 'real')!.x;
    expect(at('1')).toBeLessThan(at('2'));
    const svg = await renderSvg(
      latencyVsLoadSpec({
        title: 't',
        subtitle: ['s'],
        data,
        loads: [0.5, 0.95],
        seeds: [1, 2],
        yDomain: latencyDomain([data]),
        simulationOnly: false,
      }),
    );
    const shapeOf = (seed: number) =>
      new Set(
        tipMarks(svg)
          .filter((m) => m.tip.includes(`seed ${seed}\n`))
          .map((m) => attr(m.attrs, 'd')),
      );
    expect(shapeOf(1).size).toBe(1);
    expect(shapeOf(2).size).toBe(1);
    expect([...shapeOf(1)][0]).not.toBe([...shapeOf(2)][0]);
    expect(svg).toMatch(/aria-label="Symbol legend titled 'seed'/);
  });

  it('shares one y scale across the charts of a run', () => {
    const axis = (svg: string) =>
      svg.match(/Y-axis titled 'latency \(ms, log scale\)' for a log scale with values from ([^"]*)"/)?.[1];
    const names = [
      'latency_ignore_no-hedge',
      'latency_ignore_hedge-no-budget',
      'latency_ignore_hedge-default-budget',
    ];
    const axes = names.map((n) => axis(chart(n)));
    expect(axes[0]).toBeDefined();
    expect(new Set(axes).size).toBe(1);
  });

  it('shortens reasons to their kind for the legend', () => {
    expect(shortReason('send-lag p99 2.31 ms exceeds the threshold 1 ms')).toBe('send-lag p99 > 1 ms');
    expect(
      shortReason(
        'request + response transit p99 12.50 ms exceeds fidelity.transitP99Ms = 2 ms (HTTP and event loops)',
      ),
    ).toBe('request + response transit p99 > 2 ms');
    expect(
      shortReason("achieved rate 278.571/s is -50.54 % off the schedule's 563.207/s (allowed 2.00 %)"),
    ).toBe('achieved rate off the schedule');
    expect(shortReason('send gaps are not exponential at the target rate: A² = 12.1 ≥ 7.7 (n = 900)')).toBe(
      'send gaps are not exponential at the target rate',
    );
  });
});

describe('the agreement grid', () => {
  it('has one cell per point, coloured by the point verdict, with the figures in its tip', () => {
    const marks = tipMarks(chart('agreement_ignore'));
    expect(marks).toHaveLength(VERDICT_POINTS.length - 1); // the calibration point is not judged
    const colour = Object.fromEntries(POINT_CATEGORIES.map((c) => [c.category, c.color]));
    const cell = (config: string, load: string) =>
      marks.find((m) => m.tip.startsWith(`${config} · load ${load} ·`))!;
    expect(attr(cell('no hedge', '0.50').attrs, 'fill')).toBe(colour.agrees);
    expect(attr(cell('no hedge', '0.95').attrs, 'fill')).toBe(colour.diverges);
    expect(attr(cell('hedge, default budget', '0.95').attrs, 'fill')).toBe(colour['both-collapsed']);
    expect(attr(cell('hedge, no budget', '0.50').attrs, 'fill')).toBe(colour.missing);
    expect(attr(cell('hedge, no budget', '0.95').attrs, 'fill')).toBe(colour.invalid);
    expect(cell('no hedge', '0.95').tip).toContain(
      'verdict: agrees 4/7; p50 diverges, p99 diverges, p99.9 diverges',
    );
    expect(cell('no hedge', '0.95').tip).toMatch(/real p99: [\d.]+ ms 95 % \[/);
    expect(cell('hedge, no budget', '0.50').tip).toContain('failed: the load generator exited with code 1');
  });

  it('comes first in the report, before the study tables', () => {
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const grid = md.indexOf('![Where sim and real agree — cancellation ignore](charts/agreement_ignore.svg)');
    expect(grid).toBeGreaterThan(0);
    expect(grid).toBeLessThan(md.indexOf('## Latency p99 / p99.9 (ms)'));
    expect(md.indexOf('## Where simulation and measurement agree')).toBeLessThan(grid);
  });
});

describe('report.html', () => {
  it('embeds every chart with its titles and the inline tooltip script, and loads nothing', () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<script>(() => {');
    expect(html).toContain("closest('.hb-tip')");
    // Nothing fetched: no external script, stylesheet or image.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|https?:\/\/(?!www\.w3\.org)/);
    expect(tipMarks(html).length).toBeGreaterThan(20);
  });
});
