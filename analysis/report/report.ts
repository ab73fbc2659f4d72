// The report of a run as Markdown and HTML: pure functions of the analysis (and the chart files), no I/O.

import {
  type ComparisonRow,
  formatLoad,
  isLatencyMetric,
  latencyMetric,
  type PointRow,
  percentileOf,
  rowKey,
  rowLabel,
} from '../../contract/index.ts';
import { claimsBlocks } from '../claims/index.ts';
import { type Attribution, COMPONENT_TEXT, COMPONENTS, HARNESS_COMPONENTS } from '../judge/attribution.ts';
import { formatCalibrationLine } from '../judge/calibration.ts';
import { formatSummaryLine } from '../judge/compare.ts';
import { pointVerdictText } from '../judge/point-verdict.ts';
import { everyPoint, type PointAnalysis, type RunAnalysis } from '../judge/run-analysis.ts';
import { METRIC_DECIMALS, RATE_TOLERANCE } from '../judge/verdict.ts';
import { clientsBlocks } from './clients-report.ts';
import { foreignBlocks } from './foreign-report.ts';
import { lanesBlocks } from './lanes-report.ts';
import { configLabel, configLabels } from './point-label.ts';
import { replicaBlocks } from './replica-report.ts';
import { DASH, fixed, ms, POINT_ID_HEAD, pct } from './report-cells.ts';
import type { Block } from './report-doc.ts';
import { simNetBlocks } from './sim-net-report.ts';
import { timeScaleBlocks } from './time-scale-report.ts';

/** A chart the report shows: its path relative to the run folder and its caption. */
export interface ChartRef {
  file: string;
  title: string;
  kind: 'agreement' | 'latency' | 'collapse' | 'attribution' | 'time-scale';
}

function pair(p: PointAnalysis, f: (r: PointRow) => string): string {
  return `${p.sim ? f(p.sim) : DASH} / ${p.real ? f(p.real) : DASH}`;
}

/** The study table's cell of one side: `p99 / p99.9` in ms, or `collapse`. */
export function latencyCell(row: PointRow | undefined): string {
  if (!row) return DASH;
  if (row.collapsed) return 'collapse';
  return `${ms(row.p99_ms)} / ${ms(row.p999_ms)}`;
}

function verdictOf(p: PointAnalysis, metric: string): ComparisonRow | undefined {
  return p.rows.find((r) => r.metric === metric);
}

/** The real cell of the study table, with its marks: ✗ diverges, (invalid), or the point's state. */
function realCell(p: PointAnalysis): string {
  if (!p.real) return p.entry.state === 'done' ? DASH : p.entry.state;
  let cell = latencyCell(p.real);
  const v = [verdictOf(p, 'p99')?.verdict, verdictOf(p, 'p99.9')?.verdict];
  if (v.includes('diverges') || v.includes('collapse-mismatch')) cell += ' ✗';
  if (v.includes('invalid')) cell += ' (invalid)';
  return cell;
}

/** The reference study's tables, one per cancellation mode (and seed); `cells` fills a point's cells. */
export function studyTables(
  a: RunAnalysis,
  cells: (p: PointAnalysis | undefined) => string[] = (p) =>
    p ? [latencyCell(p.sim), realCell(p)] : [DASH, 'not planned'],
  sides: readonly string[] = ['sim', 'real'],
): Block[] {
  const m = a.manifest.matrix;
  // One row per configuration and dimension variant (a swept delay, a transport, …) the matrix planned.
  const labels = configLabels(a.points);
  const blocks: Block[] = [];
  for (const mode of m.cancellation) {
    for (const seed of m.seeds) {
      const suffix = m.seeds.length > 1 ? `, seed ${seed}` : '';
      blocks.push({ kind: 'heading', level: 3, text: `cancellation \`${mode}\`${suffix}` });
      const head = [
        'configuration',
        ...m.loads.flatMap((l) => sides.map((side) => `${formatLoad(l)} ${side}`)),
      ];
      const rows = labels.map((label) => [
        label,
        ...m.loads.flatMap((l) => {
          const p = a.points.find(
            (q) =>
              configLabel(q) === label &&
              q.id.cancellation === mode &&
              q.id.seed === seed &&
              formatLoad(q.id.load) === formatLoad(l),
          );
          return cells(p);
        }),
      ]);
      blocks.push({
        kind: 'table',
        head,
        rows,
        align: ['left', ...head.slice(1).map(() => 'right' as const)],
      });
    }
  }
  return blocks;
}

function pointsTable(a: RunAnalysis): Block {
  const head = [
    ...POINT_ID_HEAD,
    'state',
    'requests/call (sim / real)',
    'hedge rate',
    'skipped rate',
    'rejected rate',
    'utilisation',
    'send-lag p99 ms (real)',
    'valid',
    'verdict',
  ];
  const rows = a.points.map((p) => [
    configLabel(p),
    formatLoad(p.id.load),
    p.id.cancellation,
    String(p.id.seed),
    p.entry.state,
    pair(p, (r) => fixed(r.requests_per_call, 3)),
    pair(p, (r) => pct(r.hedge_rate)),
    pair(p, (r) => pct(r.skipped_rate)),
    pair(p, (r) => pct(r.rejected_rate)),
    pair(p, (r) => pct(r.utilization, 1)),
    p.real ? ms(p.real.send_lag_p99_ms) : DASH,
    p.real ? (p.real.valid ? 'yes' : 'NO') : DASH,
    pointVerdictText(p),
  ]);
  return { kind: 'table', head, rows, align: head.map((_, i) => (i >= 5 && i <= 10 ? 'right' : 'left')) };
}

function num(r: ComparisonRow, v: number | null): string {
  if (v === null) return DASH;
  return r.metric === 'collapse' ? (v ? 'true' : 'false') : v.toFixed(METRIC_DECIMALS[r.metric]);
}

function interval(r: ComparisonRow): string {
  if (r.real === null || !isLatencyMetric(r.metric)) return DASH;
  const lo = r.realCiLow === null ? '−∞' : num(r, r.realCiLow);
  const hi = r.realCiHigh === null ? '∞ (open: too few calls)' : num(r, r.realCiHigh);
  return `[${lo}, ${hi}]`;
}

function divergenceBlocks(a: RunAnalysis): Block[] {
  const off = a.comparison.filter((r) => r.verdict === 'diverges' || r.verdict === 'collapse-mismatch');
  if (off.length === 0) return [{ kind: 'paragraph', text: 'No metric diverges.' }];
  const head = [
    'configuration',
    'load',
    'cancellation',
    'seed',
    'metric',
    'sim',
    'real',
    'real 95 % interval',
    'allowance',
    'sim − real',
    'verdict',
    'explained by the harness',
  ];
  const rows = off.map((r) => [
    rowLabel(r),
    formatLoad(r.load),
    r.cancellation,
    String(r.seed),
    r.metric,
    num(r, r.sim),
    num(r, r.real),
    interval(r),
    r.allowance === null ? DASH : num(r, r.allowance),
    r.diff === null ? DASH : num(r, r.diff),
    r.verdict,
    harnessShare(a, r),
  ]);
  return [{ kind: 'table', head, rows, align: head.map((_, i) => (i >= 5 && i <= 9 ? 'right' : 'left')) }];
}

/**
 * How much of a latency gap the harness explains: the real percentile minus the same percentile of the
 * latencies with every harness part taken out (same calls, same queue), beside the gap itself.
 */
function harnessShare(a: RunAnalysis, r: ComparisonRow): string {
  const pct = isLatencyMetric(r.metric) ? latencyMetric(r.metric).percentile : undefined;
  const key = rowKey(r);
  const p = a.points.find((x) => x.key === key);
  const at = p?.attribution;
  if (pct === undefined || !at || at.n === 0 || r.real === null || r.sim === null) return DASH;
  const q = (xs: Float64Array) => percentileOf(xs, pct);
  const gap = r.real - r.sim;
  const harness = q(at.latency) - q(at.withoutHarness);
  return `of ${gap >= 0 ? '+' : ''}${ms(gap)} ms, ${ms(harness)} ms is the harness (transit p${r.metric.slice(1)} ${ms(q(at.transit))} ms)`;
}

/** Per real point: p99 of each part of the latency, and the latency with the harness's parts taken out. */
function attributionBlocks(a: RunAnalysis): Block[] {
  const pts = everyPoint(a).filter(
    (p): p is PointAnalysis & { attribution: Attribution } => p.attribution !== null && p.attribution.n > 0,
  );
  if (pts.length === 0)
    return [
      { kind: 'paragraph', text: 'No point has the attempt records and write times attribution needs.' },
    ];
  const head = [
    'configuration',
    'load',
    'cancellation',
    'seed',
    ...COMPONENTS,
    'transit',
    'real',
    'real − harness',
    'sim',
  ];
  const p99 = (xs: Float64Array) => ms(percentileOf(xs, 99));
  const rows = pts.map((p) => [
    configLabel(p),
    formatLoad(p.id.load),
    p.id.cancellation,
    String(p.id.seed),
    ...COMPONENTS.map((c) => p99(p.attribution.parts[c])),
    p99(p.attribution.transit),
    p99(p.attribution.latency),
    p99(p.attribution.withoutHarness),
    ms(p.sim?.p99_ms),
  ]);
  const offsets = pts.filter((p) => p.attribution.offset === null).length;
  return [
    {
      kind: 'paragraph',
      text: `p99 of each part of a successful call's latency, ms (each column is its own p99, so they do not add up; attribution.csv has p50, p99, p99.9, max and mean). The harness's parts: ${HARNESS_COMPONENTS.map((c) => `\`${c}\``).join(', ')}; \`real − harness\` is the latency with those taken out of every call, to compare with \`sim\`.${offsets > 0 ? ` ${offsets} point(s) have no clock offset: their request transit holds the whole round trip.` : ''}`,
    },
    { kind: 'table', head, rows, align: head.map((_, i) => (i >= 4 ? 'right' : 'left')) },
    { kind: 'list', items: COMPONENTS.map((c) => `\`${c}\`: ${COMPONENT_TEXT[c]}`) },
  ];
}

function reasonsBlock(a: RunAnalysis): Block[] {
  const items: string[] = [];
  for (const p of everyPoint(a)) {
    const where = `${configLabel(p)} at ${formatLoad(p.id.load)} (${p.id.cancellation}, seed ${p.id.seed})`;
    if (p.real && !p.real.valid)
      items.push(`${where} — invalid: ${p.invalidReasons.join('; ') || 'no reason recorded'}`);
    if (p.real?.collapsed)
      items.push(`${where} — real collapsed: ${p.collapseReasons.join('; ') || 'no evidence recorded'}`);
    if (p.sim?.collapsed) items.push(`${where} — sim collapsed`);
    // The calibration point sets the allowance from p50 and p99 only; its p99.9 is never judged.
    const judged =
      p === a.calibrationPoint && p.entry.calibration ? (['p99'] as const) : (['p99', 'p99.9'] as const);
    const open = judged.filter((m) => p.intervals?.[m]?.highOpen);
    for (const m of open) {
      const iv = p.intervals![m]!;
      items.push(
        `${where} — ${m} interval open above: ${iv.n} successful calls cannot bound it; it reaches the sample max ${ms(iv.high)} ms`,
      );
    }
  }
  return items.length > 0 ? [{ kind: 'list', items }] : [{ kind: 'paragraph', text: 'None.' }];
}

function headerBlocks(a: RunAnalysis): Block[] {
  const mf = a.manifest.raw;
  const m = a.manifest.matrix;
  const machine = mf.machine
    ? `${mf.machine.cpus ?? '?'} CPUs, ${mf.machine.memGiB ?? '?'} GiB, ${mf.machine.os ?? '?'}, host ${mf.machine.hostname ?? '?'}`
    : 'unknown';
  const hosts =
    mf.hosts === 'local' || mf.hosts === undefined
      ? 'local (everything on this machine)'
      : 'separate hosts (see manifest.json)';
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: reportTitle(a) },
    {
      kind: 'paragraph',
      text: `Matrix \`${m.name}\`: ${m.configs.length} configurations × ${m.loads.length} loads × ${m.cancellation.length} cancellation modes × ${m.seeds.length} seeds, ${m.calls} calls per point (the first ${Math.round(m.warmupFraction * 100)} % not measured), ${m.model.workers} workers. Created ${mf.createdAt ?? '?'}, finished ${mf.finishedAt ?? 'not finished'}; git ${mf.gitCommit ?? 'unknown'}; Node ${mf.node ?? '?'}; machine: ${machine}; hosts: ${hosts}.`,
    },
    { kind: 'paragraph', text: `**${formatSummaryLine(a.summary)}**` },
    ...(a.calibrations.length > 1 ? a.calibrations : [{ calibration: a.calibration, k: 1 }]).map(
      (c): Block => ({
        kind: 'paragraph',
        text: `**${a.calibrations.length > 1 ? `time scale ${c.k}: ` : ''}${formatCalibrationLine(c.calibration)}**`,
      }),
    ),
  ];
  const done = a.points.filter((p) => p.entry.state === 'done').length;
  if (done < a.points.length || a.notes.length > 0) {
    blocks.push({
      kind: 'paragraph',
      text: `${done} of ${a.points.length} points were measured. Things to know about this run:`,
    });
    blocks.push({ kind: 'list', items: a.notes.length > 0 ? a.notes : ['some points were not measured'] });
  }
  return blocks;
}

/** The Charts section: how to read the latency charts, then every chart (or why there is none). */
export function chartBlocks(charts: readonly ChartRef[], simulationOnly = false): Block[] {
  if (charts.length === 0) return [{ kind: 'paragraph', text: 'No chart: no point has data yet.' }];
  const how = simulationOnly
    ? "Latency charts share one log scale; ▲ at the top of a chart marks a load where the simulation collapsed; each seed has its own shape. In report.html, hovering a mark shows the point's figures."
    : "Latency charts share one log scale. Filled marks are simulated or valid measurements; a hollow grey mark is a measurement that failed its self-check (the legend names why), a hollow mark with a dashed bar an interval the sample cannot bound above; ▲ at the top of a chart marks a load where a side collapsed. Each seed has its own shape. In report.html, hovering a mark shows the point's figures.";
  return [
    { kind: 'paragraph', text: how },
    ...charts.map((c): Block => ({ kind: 'chart', file: c.file, title: c.title })),
  ];
}

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

/** The title of a run's report (report.md's heading, report.html's <title>). */
export function reportTitle(a: RunAnalysis): string {
  return `hedgebench report — ${a.manifest.run}`;
}
