// `hedgebench report`: comparison.csv, then report.md, report.html and charts/*.svg in the run folder.

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatLoad, rawPaths } from '../contract/index.ts';
import {
  attributionData,
  attributionSpec,
  chartName,
  collapseSpec,
  inflightOverTime,
  latencyData,
  latencyOverTime,
  latencySubtitle,
  latencyVsLoadSpec,
  renderSvg,
} from './charts.ts';
import { readCallsCsv } from './raw-files.ts';
import { type ChartRef, renderReportHtml, renderReportMarkdown } from './report.ts';
import { everyPoint, type PointAnalysis, type RunAnalysis } from './run-analysis.ts';
import { compareRunFolder, writeFileAtomic } from './write-comparison.ts';

/** What `report` produced. */
export interface ReportResult {
  analysis: RunAnalysis;
  /** Paths written, in order (comparison files, charts, report.md, report.html). */
  files: string[];
  summaryLine: string;
}

async function collapseChart(
  runDir: string,
  p: PointAnalysis,
): Promise<{ ref: ChartRef; svg: string } | null> {
  if (p.realSource !== 'raw') return null;
  const calls = readCallsCsv(rawPaths(runDir, p.entry.slug).calls);
  const latency = latencyOverTime(calls.intendedMs, calls.latencyMs);
  const inflight = inflightOverTime(p.timeline, p.inflightTimeline);
  if (latency.length === 0 && inflight.length === 0) return null;
  const who = [p.sim?.collapsed ? 'sim' : '', p.real?.collapsed ? 'real' : ''].filter(Boolean).join(' and ');
  const title = `${p.id.config} at load ${formatLoad(p.id.load)} (${p.id.cancellation}, seed ${p.id.seed})`;
  const subtitle = `collapsed: ${who}; measured latency and attempts in flight over the run`;
  const svg = await renderSvg(collapseSpec(title, subtitle, latency, inflight));
  return {
    ref: {
      file: `charts/${chartName('collapse', p.entry.slug)}.svg`,
      title: `${title}: ${subtitle}`,
      kind: 'collapse',
    },
    svg,
  };
}

/** Renders every chart of the run: p99/p99.9 vs load per configuration and mode, then collapsed points. */
export async function renderCharts(a: RunAnalysis): Promise<{ refs: ChartRef[]; svgs: Map<string, string> }> {
  const refs: ChartRef[] = [];
  const svgs = new Map<string, string>();
  const m = a.manifest.matrix;
  for (const mode of m.cancellation) {
    for (const c of m.configs) {
      const pts = a.points.filter((p) => p.id.config === c.name && p.id.cancellation === mode);
      const data = latencyData(pts);
      if (data.length === 0) continue;
      const title = `${c.name} — cancellation ${mode}: p99 and p99.9 against load`;
      const file = `charts/${chartName('latency', mode, c.name)}.svg`;
      svgs.set(file, await renderSvg(latencyVsLoadSpec(title, latencySubtitle(pts), data, m.loads)));
      refs.push({ file, title, kind: 'latency' });
    }
  }
  const parts = attributionData(everyPoint(a));
  if (parts.length > 0) {
    const file = 'charts/attribution.svg';
    const title = 'Where the time went: each part of the latency, per real point';
    svgs.set(file, await renderSvg(attributionSpec(title, parts)));
    refs.push({ file, title, kind: 'attribution' });
  }
  for (const p of a.points) {
    if (!p.sim?.collapsed && !p.real?.collapsed) continue;
    const chart = await collapseChart(a.runDir, p);
    if (!chart) continue;
    svgs.set(chart.ref.file, chart.svg);
    refs.push(chart.ref);
  }
  return { refs, svgs };
}

/** Writes comparison.csv/.txt, charts/*.svg, report.md and report.html for results/<run>. */
export async function writeReport(runDir: string): Promise<ReportResult> {
  const cmp = compareRunFolder(runDir);
  const a = cmp.analysis;
  const files = [...cmp.files];
  const { refs, svgs } = await renderCharts(a);
  const chartsDir = join(runDir, 'charts');
  mkdirSync(chartsDir, { recursive: true });
  // Charts of an earlier report that this one no longer draws would mislead; drop them.
  for (const f of readdirSync(chartsDir)) {
    if (/^(latency_|collapse_|attribution).*\.svg$/.test(f) && !svgs.has(`charts/${f}`))
      rmSync(join(chartsDir, f));
  }
  for (const [file, svg] of svgs) {
    const path = join(runDir, file);
    writeFileSync(path, svg);
    files.push(path);
  }
  const md = join(runDir, 'report.md');
  writeFileAtomic(md, renderReportMarkdown(a, refs));
  const html = join(runDir, 'report.html');
  writeFileAtomic(html, renderReportHtml(a, refs, svgs));
  files.push(md, html);
  return { analysis: a, files, summaryLine: cmp.summaryLine };
}
