// The report of a `hedgebench simulate` folder: the simulation's own tables and charts, and a plain
// statement that nothing was measured, so there is no comparison, verdict or attribution. Pure.

import { formatLoad } from '../../contract/index.ts';
import { configLabel } from '../judge/point-label.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { type ChartRef, chartBlocks } from './charts-report.ts';
import { failureColumns } from './failure-columns.ts';
import { DASH, fixed, POINT_ID_HEAD, pct } from './report-cells.ts';
import type { Block } from './report-doc.ts';
import { latencyCell, studyTables } from './study-tables.ts';

function pointsTable(a: RunAnalysis): Block {
  const failures = failureColumns(a.points);
  const head = [
    ...POINT_ID_HEAD,
    'calls',
    'p50 ms',
    'p99 / p99.9 ms',
    'requests/call',
    'hedge rate',
    'skipped rate',
    'rejected rate',
    ...failures.map((f) => f.head),
    'utilisation',
  ];
  const rows = a.points.map((p) => {
    const r = p.sim;
    return [
      configLabel(p),
      formatLoad(p.id.load),
      p.id.cancellation,
      String(p.id.seed),
      r ? String(r.calls) : DASH,
      r && !r.collapsed ? fixed(r.p50_ms, 3) : DASH,
      latencyCell(r),
      fixed(r?.requests_per_call, 3),
      pct(r?.hedge_rate),
      pct(r?.skipped_rate),
      pct(r?.rejected_rate),
      ...failures.map((f) => f.cell(r)),
      r?.collapsed ? `${pct(r.utilization, 1)} (collapsed)` : pct(r?.utilization, 1),
    ];
  });
  return { kind: 'table', head, rows, align: head.map((_, i) => (i >= 4 ? 'right' : 'left')) };
}

/** The blocks of a simulation-only report: what it is, the study tables, every point, the charts. */
export function simulationBlocks(a: RunAnalysis, charts: readonly ChartRef[]): Block[] {
  const m = a.manifest.matrix;
  const collapsed = a.points.filter((p) => p.sim?.collapsed);
  return [
    { kind: 'heading', level: 1, text: simulationTitle(a) },
    {
      kind: 'paragraph',
      text: `**A simulation only** (a \`hedgebench simulate\` folder): nothing was measured, so this report has no comparison, no verdicts, no calibration and no attribution — only what the simulation predicts. ${a.points.length} points: ${m.configs.length} configurations × ${m.loads.length} loads × ${m.cancellation.length} cancellation modes × ${m.seeds.length} seeds, read from points.csv. To compare with a measurement, run the same matrix with \`hedgebench run\`.`,
    },
    { kind: 'heading', level: 2, text: 'Latency p99 / p99.9 (ms), simulated' },
    {
      kind: 'paragraph',
      text: 'Rows = configuration, columns = load; each cell is `p99 / p99.9` in ms, or `collapse` (the queue never drained).',
    },
    ...studyTables(a, (p) => [latencyCell(p?.sim)], ['sim']),
    { kind: 'heading', level: 2, text: 'Every point' },
    pointsTable(a),
    { kind: 'heading', level: 2, text: 'Collapsed points' },
    collapsed.length === 0
      ? { kind: 'paragraph', text: 'None.' }
      : {
          kind: 'list',
          items: collapsed.map(
            (p) =>
              `${configLabel(p)} at ${formatLoad(p.id.load)} (${p.id.cancellation}, seed ${p.id.seed}); evidence in sim-evidence.json`,
          ),
        },
    { kind: 'heading', level: 2, text: 'Charts' },
    ...chartBlocks(charts, true),
  ];
}

/** The title of a simulation's report. */
export function simulationTitle(a: RunAnalysis): string {
  return `hedgebench report — simulation ${a.manifest.run}`;
}
