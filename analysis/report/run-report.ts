// The report of a run as Markdown and HTML: pure functions of the analysis (and the chart files), no I/O.
// This file puts the sections in order; each section is its own file.

import { METRICS } from '../../contract/index.ts';
import { isRelativeMargin, LATENCY_MARGIN_FLOOR_MS, type MarginMetric } from '../../model/index.ts';
import { marginText, metricWords } from '../judge/agreement.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { attributionBlocks } from './attribution-report.ts';
import { type ChartRef, chartBlocks } from './charts-report.ts';
import { claimsBlocks } from './claims-section.ts';
import { clientsBlocks } from './clients-report.ts';
import { detectionBlocks } from './detection-report.ts';
import { divergenceBlocks } from './divergences-report.ts';
import { foreignBlocks } from './foreign-report.ts';
import { lanesBlocks } from './lanes-report.ts';
import { pointsTable } from './points-table.ts';
import { reasonsBlock } from './reasons-report.ts';
import { replicaBlocks } from './replica-report.ts';
import type { Block } from './report-doc.ts';
import { headerBlocks } from './report-header.ts';
import { sensitivityBlocks } from './sensitivity-report.ts';
import { simNetBlocks } from './sim-net-report.ts';
import { studyTables } from './study-tables.ts';
import { tiedBlocks } from './tied-report.ts';
import { timeScaleBlocks } from './time-scale-report.ts';

/** The report's blocks, in order: header, agreement grids, study tables, per-point table, divergences, reasons, charts, method. */
export function reportBlocks(a: RunAnalysis, charts: readonly ChartRef[]): Block[] {
  const margins = (Object.keys(a.margins) as MarginMetric[]).map((k) =>
    isRelativeMargin(k)
      ? `${metricWords(k)} ${marginText(k, a.margins[k])} of the simulated value (at least ${LATENCY_MARGIN_FLOOR_MS} model-ms)`
      : `${metricWords(k)} ±${marginText(k, a.margins[k])}`,
  );
  const agreement = charts.filter((c) => c.kind === 'agreement');
  const curve = charts.filter((c) => c.kind === 'time-scale');
  const others = charts.filter((c) => c.kind !== 'agreement' && c.kind !== 'time-scale');
  return [
    ...headerBlocks(a),
    ...timeScaleBlocks(a),
    ...curve.map((c): Block => ({ kind: 'chart', file: c.file, title: c.title })),
    ...foreignBlocks(a),
    ...claimsBlocks(a),
    { kind: 'heading', level: 2, text: 'Where simulation and measurement agree' },
    {
      kind: 'paragraph',
      text: `One cell per point (configuration × load; with several seeds, one cell per seed), coloured by its verdict over the ${METRICS.length} compared metrics; \`k/${METRICS.length}\` counts the metrics that agree. The tables below give the figures; in report.html, hovering a cell shows them.`,
    },
    ...agreement.map((c): Block => ({ kind: 'chart', file: c.file, title: c.title })),
    { kind: 'heading', level: 2, text: 'Latency p99 / p99.9 (ms): simulation and measurement side by side' },
    {
      kind: 'paragraph',
      text: 'Rows = configuration, columns = load; each cell is `p99 / p99.9` in ms, or `collapse`. ✗ = the measurement diverges from the simulation at p99 or p99.9; (invalid) = the real point failed its self-check; — = no row.',
    },
    ...studyTables(a),
    { kind: 'heading', level: 2, text: 'Every point' },
    {
      kind: 'paragraph',
      text: 'Each cell is `sim / real`. Rates are per measured call; utilisation is busy worker time over workers × measured time.',
    },
    pointsTable(a),
    ...clientsBlocks(a),
    ...lanesBlocks(a),
    ...sensitivityBlocks(a),
    { kind: 'heading', level: 2, text: 'Divergences and undecided metrics' },
    ...divergenceBlocks(a),
    ...detectionBlocks(a),
    { kind: 'heading', level: 2, text: 'Where the time went (attribution)' },
    ...attributionBlocks(a),
    ...replicaBlocks(a),
    ...tiedBlocks(a),
    ...simNetBlocks(a),
    { kind: 'heading', level: 2, text: 'Invalid, collapsed and open-ended points' },
    ...reasonsBlock(a),
    { kind: 'heading', level: 2, text: 'Charts' },
    ...chartBlocks(others),
    { kind: 'heading', level: 2, text: 'How to read the verdicts' },
    {
      kind: 'paragraph',
      text: `Sim and real ran the same calls (the same arrivals, the same service time for every attempt), so each metric is judged on their difference over those calls: D = the measured value, with each call's own harness parts (send lag, transits, hold overshoot, response delay) taken out, minus the simulated one, with a 95 % interval from a block bootstrap over the calls that resamples both sides alike. \`agrees\` = the whole interval lies within ± the metric's margin; \`diverges\` = wholly outside it; \`undecided\` = across it (the divergences section says about how many calls would decide it). Margins: ${margins.join('; ')}. \`both-collapsed\`, \`collapse-mismatch\`, \`invalid\` and \`missing\` apply to every metric of a point. Every file and column: results/README.md.`,
    },
  ];
}
