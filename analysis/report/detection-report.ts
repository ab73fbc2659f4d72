// The report's section on power: what this run could have detected. For each point and metric, the smallest
// difference between model and measurement it would have called a divergence (the margin plus the half-width
// of the interval of the difference), so "agrees" reads with what it rests on.

import { formatLoad, type Metric } from '../../contract/index.ts';
import type { MarginMetric } from '../../model/index.ts';
import { detectable, marginText } from '../judge/agreement.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { DASH } from './report-cells.ts';
import type { Block } from './report-doc.ts';

/** The section's heading (tests look for it). */
const DETECTION_HEADING = 'What this run could have detected';

function cell(p: PointAnalysis, metric: Metric): string {
  const r = p.rows.find((x) => x.metric === metric);
  if (r === undefined || metric === 'collapse') return DASH;
  const d = detectable(r);
  if (d === null) return r.verdict === 'agrees' || r.verdict === 'undecided' ? '∞' : DASH;
  return marginText(metric as MarginMetric, d);
}

/** One row per judged point: the smallest divergence it would have caught, per metric. */
export function detectionBlocks(a: RunAnalysis): Block[] {
  const points = everyPoint(a).filter((p) =>
    p.rows.some((r) => r.diffCiLow !== null || r.diffCiHigh !== null),
  );
  if (points.length === 0) return [];
  const metrics = points[0].rows.map((r) => r.metric).filter((m) => m !== 'collapse');
  const head = ['configuration', 'load', 'cancellation', 'seed', ...metrics];
  const rows = points.map((p) => [
    `${configLabel(p)}${p === a.calibrationPoint && p.entry.calibration ? ' (calibration)' : ''}`,
    formatLoad(p.id.load),
    p.id.cancellation,
    String(p.id.seed),
    ...metrics.map((m) => cell(p, m)),
  ]);
  return [
    { kind: 'heading', level: 2, text: DETECTION_HEADING },
    {
      kind: 'paragraph',
      text: 'Each cell is the smallest difference between model and measurement that this point would have called a divergence: the margin plus the half-width of the 95 % interval of the difference — a fraction of the simulated value for a latency, absolute for a rate. A cell near its margin means the measurement pins the model down as tightly as the margin asks; ∞ = an interval open at one end.',
    },
    { kind: 'table', head, rows, align: head.map((_, i) => (i >= 4 ? 'right' : 'left')) },
  ];
}
