// `hedgebench report`: comparison.csv, then report.md, report.html and charts/*.svg in the run folder.

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatLoad, RUN_FILES } from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import { agreementData, agreementSpec } from '../charts/agreement-chart.ts';
import {
  attributionData,
  attributionSpec,
  chartName,
  collapseSpec,
  inflightOverTime,
  latencyOverTime,
  renderSvg,
} from '../charts/charts.ts';
import { latencySubtitle, latencyVsLoadSpec } from '../charts/latency-chart.ts';
import { latencyData, latencyDomain } from '../charts/latency-data.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel, configLabels } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { analyzeSimulation, isSimulationFolder } from '../judge/sim-folder.ts';
import type { ChartRef } from '../report/charts-report.ts';
import { type Block, toHtml, toMarkdown } from '../report/report-doc.ts';
import { reportTitle } from '../report/report-header.ts';
import { reportBlocks } from '../report/run-report.ts';
import { simulationBlocks, simulationTitle } from '../report/sim-report.ts';
import { fidelityCurve, fidelityCurveSpec } from '../report/time-scale-report.ts';
import { compareRunFolder } from './write-comparison.ts';

/** What `report` produced. */
interface ReportResult {
  analysis: RunAnalysis;
  /** Paths written, in order (comparison files, charts, report.md, report.html). */
  files: string[];
  summaryLine: string;
  /** What a run prints of the verdict: the summary, the agreement headline, each perturbation's line. */
  verdictLines: string[];
}

async function collapseChart(p: PointAnalysis): Promise<{ ref: ChartRef; svg: string } | null> {
  if (p.raw === null) return null;
  const { calls } = p.raw;
  const latency = latencyOverTime(calls.intendedMs, calls.latencyMs);
  const inflight = inflightOverTime(p.timeline, p.inflightTimeline);
  if (latency.length === 0 && inflight.length === 0) return null;
  const who = [p.sim?.collapsed ? 'sim' : '', p.real?.collapsed ? 'real' : ''].filter(Boolean).join(' and ');
  const title = `${configLabel(p)} at load ${formatLoad(p.id.load)} (${p.id.cancellation}, seed ${p.id.seed})`;
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

/** The agreement grid of each cancellation mode (a run's first picture; none for a simulation). */
async function agreementCharts(a: RunAnalysis, refs: ChartRef[], svgs: Map<string, string>): Promise<void> {
  if (a.simulationOnly) return;
  const m = a.manifest.matrix;
  for (const mode of m.cancellation) {
    const pts = a.points.filter((p) => p.id.cancellation === mode);
    if (pts.length === 0) continue;
    const title = `Where sim and real agree — cancellation ${mode}`;
    const file = `charts/${chartName('agreement', mode)}.svg`;
    svgs.set(
      file,
      await renderSvg(agreementSpec(title, agreementData(pts), configLabels(pts), m.loads, m.seeds)),
    );
    refs.push({ file, title, kind: 'agreement' });
  }
}

/** p99/p99.9 against load per configuration and mode, all on one log scale. */
async function latencyCharts(a: RunAnalysis, refs: ChartRef[], svgs: Map<string, string>): Promise<void> {
  const m = a.manifest.matrix;
  // One chart per configuration and dimension variant (a swept delay, a transport, …) and mode.
  const charts = m.cancellation.flatMap((mode) =>
    configLabels(a.points).map((config) => {
      const pts = a.points.filter((p) => configLabel(p) === config && p.id.cancellation === mode);
      return { mode, config, data: latencyData(pts, m.seeds, m.loads) };
    }),
  );
  const drawn = charts.filter((c) => c.data.points.length > 0 || c.data.collapses.length > 0);
  const domain = latencyDomain(drawn.map((c) => c.data));
  for (const { mode, config, data } of drawn) {
    const title = `${config} — cancellation ${mode}: p99 and p99.9 against load`;
    const file = `charts/${chartName('latency', mode, config)}.svg`;
    const spec = latencyVsLoadSpec({
      title,
      subtitle: latencySubtitle(data, a.simulationOnly),
      data,
      loads: m.loads,
      seeds: m.seeds,
      yDomain: domain,
      simulationOnly: a.simulationOnly,
    });
    svgs.set(file, await renderSvg(spec));
    refs.push({ file, title, kind: 'latency' });
  }
}

/** Renders every chart of the run: agreement grids, latency against load, attribution, collapsed points. */
export async function renderCharts(a: RunAnalysis): Promise<{ refs: ChartRef[]; svgs: Map<string, string> }> {
  const refs: ChartRef[] = [];
  const svgs = new Map<string, string>();
  await agreementCharts(a, refs, svgs);
  const curve = a.simulationOnly ? [] : fidelityCurve(a.points);
  if (curve.length > 1) {
    const file = 'charts/fidelity-curve.svg';
    const title = 'Fidelity curve: the share of metrics that agree, against the time scale k';
    svgs.set(file, await renderSvg(fidelityCurveSpec(title, curve)));
    refs.push({ file, title, kind: 'time-scale' });
  }
  await latencyCharts(a, refs, svgs);
  const parts = attributionData(everyPoint(a));
  if (parts.length > 0) {
    const file = 'charts/attribution.svg';
    const title = 'Where the time went: each part of the latency, per real point';
    svgs.set(file, await renderSvg(attributionSpec(title, parts)));
    refs.push({ file, title, kind: 'attribution' });
  }
  for (const p of a.points) {
    if (!p.sim?.collapsed && !p.real?.collapsed) continue;
    const chart = await collapseChart(p);
    if (!chart) continue;
    svgs.set(chart.ref.file, chart.svg);
    refs.push(chart.ref);
  }
  return { refs, svgs };
}

/** Writes charts/*.svg (dropping charts of an earlier report that this one no longer draws). */
function writeCharts(runDir: string, svgs: ReadonlyMap<string, string>, files: string[]): void {
  const chartsDir = join(runDir, RUN_FILES.charts);
  mkdirSync(chartsDir, { recursive: true });
  // Charts of an earlier report that this one no longer draws would mislead; drop them.
  for (const f of readdirSync(chartsDir)) {
    if (/^(agreement_|latency_|collapse_|attribution).*\.svg$/.test(f) && !svgs.has(`charts/${f}`))
      rmSync(join(chartsDir, f));
  }
  for (const [file, svg] of svgs) {
    const path = join(runDir, file);
    writeFileSync(path, svg);
    files.push(path);
  }
}

/** Draws the charts and writes charts/*.svg, report.md and report.html from the report's blocks. */
async function writePages(
  a: RunAnalysis,
  title: string,
  blocksOf: (charts: ChartRef[]) => Block[],
  files: string[],
): Promise<void> {
  const { refs, svgs } = await renderCharts(a);
  writeCharts(a.runDir, svgs, files);
  const blocks = blocksOf(refs);
  const md = join(a.runDir, RUN_FILES.reportMd);
  writeFileAtomicSync(md, toMarkdown(blocks));
  const html = join(a.runDir, RUN_FILES.reportHtml);
  writeFileAtomicSync(html, toHtml(title, blocks, svgs));
  files.push(md, html);
}

/**
 * Writes comparison.csv/.txt, charts/*.svg, report.md and report.html for results/<run>; for a folder of
 * `hedgebench simulate` (no manifest.json), the simulation's charts and report only.
 */
export async function writeReport(runDir: string): Promise<ReportResult> {
  if (isSimulationFolder(runDir)) {
    const a = analyzeSimulation(runDir);
    const files: string[] = [];
    await writePages(a, simulationTitle(a), (refs) => simulationBlocks(a, refs), files);
    const summaryLine = `simulation only: ${a.points.length} simulated points, nothing measured or compared`;
    return { analysis: a, files, summaryLine, verdictLines: [summaryLine] };
  }
  const cmp = compareRunFolder(runDir);
  const a = cmp.analysis;
  const files = [...cmp.files];
  await writePages(a, reportTitle(a), (refs) => reportBlocks(a, refs), files);
  return {
    analysis: a,
    files,
    summaryLine: cmp.summaryLine,
    verdictLines: [cmp.summaryLine, cmp.agreementLine, ...cmp.sensitivityLines],
  };
}
