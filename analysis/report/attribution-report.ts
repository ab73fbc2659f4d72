// The report's attribution section: where the time of a real call went, p99 of each part, and the latency
// with the harness's parts taken out beside the simulated one.

import { formatLoad, percentileOf } from '../../contract/index.ts';
import { type Attribution, COMPONENT_TEXT, COMPONENTS, HARNESS_COMPONENTS } from '../judge/attribution.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { ms } from './report-cells.ts';
import type { Block } from './report-doc.ts';

/** Per real point: p99 of each part of the latency, and the latency with the harness's parts taken out. */
export function attributionBlocks(a: RunAnalysis): Block[] {
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
