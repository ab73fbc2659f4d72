// The reference study's tables: one per cancellation mode (and seed), a row per configuration, a column per
// load and side, each cell `p99 / p99.9` or `collapse`. Shared by a run's report and a simulation's.

import type { ComparisonRow } from '../../contract/index.ts';
import { formatLoad, type PointRow } from '../../contract/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel, configLabels } from '../judge/point-label.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { DASH, ms } from './report-cells.ts';
import type { Block } from './report-doc.ts';

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
