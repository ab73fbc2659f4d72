// The report of a run as Markdown and HTML: pure functions of the analysis (and the chart files), no I/O.
// This file puts the sections in order; each section is its own file.

import { claimsBlocks } from '../claims/index.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { RATE_TOLERANCE } from '../judge/verdict.ts';
import { attributionBlocks } from './attribution-report.ts';
import { type ChartRef, chartBlocks } from './charts-report.ts';
import { clientsBlocks } from './clients-report.ts';
import { divergenceBlocks } from './divergences-report.ts';
import { foreignBlocks } from './foreign-report.ts';
import { lanesBlocks } from './lanes-report.ts';
import { pointsTable } from './points-table.ts';
import { reasonsBlock } from './reasons-report.ts';
import { replicaBlocks } from './replica-report.ts';
import type { Block } from './report-doc.ts';
import { headerBlocks } from './report-header.ts';
import { simNetBlocks } from './sim-net-report.ts';
import { studyTables } from './study-tables.ts';
import { timeScaleBlocks } from './time-scale-report.ts';

/** The report's blocks, in order: header, agreement grids, study tables, per-point table, divergences, reasons, charts, method. */
export function reportBlocks(a: RunAnalysis, charts: readonly ChartRef[]): Block[] {
  const tol = RATE_TOLERANCE;
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
      text: 'One cell per point (configuration × load; with several seeds, one cell per seed), coloured by its verdict over the 7 compared metrics; `k/7` counts the metrics that agree. The tables below give the figures; in report.html, hovering a cell shows them.',
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
    { kind: 'heading', level: 2, text: 'Divergences' },
    ...divergenceBlocks(a),
    { kind: 'heading', level: 2, text: 'Where the time went (attribution)' },
    ...attributionBlocks(a),
    ...replicaBlocks(a),
    ...simNetBlocks(a),
    { kind: 'heading', level: 2, text: 'Invalid, collapsed and open-ended points' },
    ...reasonsBlock(a),
    { kind: 'heading', level: 2, text: 'Charts' },
    ...chartBlocks(others),
    { kind: 'heading', level: 2, text: 'How to read the verdicts' },
    {
      kind: 'paragraph',
      text: `Latency (p50, p99, p99.9): the real value has an exact 95 % order-statistic interval from its raw sample; the verdict is \`agrees\` when the simulated value lies in that interval widened by the calibration allowance (real − sim at the calibration point: p50 for p50, p99 for p99 and p99.9) on the side the harness's overhead explains. Rates: \`agrees\` when |sim − real| ≤ ${tol.requests_per_call} for requests per call, ${tol.utilization} for utilisation, ${tol.rejected_rate} for the rejected rate. \`both-collapsed\`, \`collapse-mismatch\`, \`invalid\` and \`missing\` apply to every metric of a point. Every file and column: results/README.md.`,
    },
  ];
}
