// The report's first picture: where do sim and real agree? One grid per cancellation mode, a cell per
// point (configuration × load, the seeds side by side), coloured by the point's verdict over its seven
// metrics (point-verdict.ts, from the rules of verdict.ts). Pure spec builders.

import type { TopLevelSpec } from 'vega-lite';
import { formatLoad } from '../../contract/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import { agreeCount, POINT_CATEGORIES, type PointCategory, pointCategory } from '../judge/point-verdict.ts';
import { SCHEMA } from './charts.ts';
import { pointTip } from './point-tip.ts';

/** One cell of the grid. */
interface AgreementDatum {
  config: string;
  load: string;
  seed: string;
  category: PointCategory;
  /** What the cell says: metrics that agree (`5/7`), or the shared verdict in a word. */
  label: string;
  tip: string;
}

const WORD: Readonly<Record<PointCategory, string>> = {
  agrees: '',
  undecided: '',
  diverges: '',
  'both-collapsed': 'collapse',
  'collapse-mismatch': 'mismatch',
  invalid: 'invalid',
  missing: 'missing',
};

/** The cells of one cancellation mode's grid, in the matrix's order. */
export function agreementData(points: readonly PointAnalysis[]): AgreementDatum[] {
  return points.map((p) => {
    const category = pointCategory(p);
    const notDone = p.entry.state !== 'done' ? p.entry.state : null;
    const label = WORD[category] === '' ? agreeCount(p) : (notDone ?? WORD[category]);
    return {
      config: configLabel(p),
      load: formatLoad(p.id.load),
      seed: String(p.id.seed),
      category,
      label,
      tip: pointTip(p, ['sim', 'real']),
    };
  });
}

/** A configuration × load grid coloured by verdict; with several seeds each cell splits into one per seed. */
export function agreementSpec(
  title: string,
  data: readonly AgreementDatum[],
  configs: readonly string[],
  loads: readonly number[],
  seeds: readonly number[],
): TopLevelSpec {
  const several = seeds.length > 1;
  const x = {
    field: 'load',
    type: 'ordinal',
    sort: loads.map(formatLoad),
    title: several ? `load ρ (seeds ${seeds.join(', ')} left to right)` : 'load ρ',
    axis: { labelAngle: 0, orient: 'top' },
  } as const;
  const xOffset = several ? { xOffset: { field: 'seed', type: 'ordinal', sort: seeds.map(String) } } : {};
  const y = {
    field: 'config',
    type: 'ordinal',
    sort: [...configs],
    title: null,
    axis: { labelLimit: 260 },
  } as const;
  const dark = new Set<PointCategory>(['diverges', 'collapse-mismatch', 'both-collapsed']);
  return {
    $schema: SCHEMA,
    title: {
      text: title,
      subtitle: 'a cell per point, coloured by its verdict over 7 metrics; k/7 = metrics that agree',
      anchor: 'start',
    },
    width: { step: several ? 40 * seeds.length : 72 },
    height: { step: 26 },
    config: { legend: { labelLimit: 0 }, view: { stroke: null } },
    data: { values: data as unknown as Record<string, unknown>[] },
    layer: [
      {
        mark: { type: 'rect', stroke: '#fff', strokeWidth: 2 },
        encoding: {
          x,
          ...xOffset,
          y,
          color: {
            field: 'category',
            type: 'nominal',
            title: 'verdict',
            scale: {
              domain: POINT_CATEGORIES.map((c) => c.category),
              range: POINT_CATEGORIES.map((c) => c.color),
            },
            legend: {
              values: POINT_CATEGORIES.map((c) => c.category),
              labelExpr: `{${POINT_CATEGORIES.map((c) => `'${c.category}': '${c.text}'`).join(', ')}}[datum.value]`,
              symbolStrokeColor: '#999',
              symbolStrokeWidth: 0.5,
            },
          },
          description: { field: 'tip', type: 'nominal' },
        },
      },
      {
        mark: { type: 'text', fontSize: 10, aria: false },
        encoding: {
          x,
          ...xOffset,
          y,
          text: { field: 'label', type: 'nominal' },
          color: {
            condition: { test: `indexof(${JSON.stringify([...dark])}, datum.category) >= 0`, value: '#fff' },
            value: '#222',
          },
        },
      },
    ],
  } as unknown as TopLevelSpec;
}
