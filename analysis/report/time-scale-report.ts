// The report's words on the dilated clock (docs/time-scale.md): that a run was dilated, by how much and what it
// cost in wall time, and — with several time scales — the fidelity curve: how often the real clock agrees
// with the model at each k, per load, and from which k it agrees on this machine.

import type { TopLevelSpec } from 'vega-lite';
import { arrivalRatePerMs, formatLoad, pointModel, timeScaleOf } from '../../model/index.ts';
import { SCHEMA } from '../charts/charts.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import type { Block } from './report-doc.ts';

/** Agreement the curve asks for before it says "agrees from k" (a share of the non-collapsed metrics). */
const CURVE_GOAL = 0.9;

/** Agreement at one time scale: metrics of non-collapsed points, and how many agree, overall and per load. */
interface CurvePoint {
  k: number;
  agrees: number;
  metrics: number;
  byLoad: Map<string, { agrees: number; metrics: number }>;
}

/** The fidelity curve of a run: one entry per time scale of its points, smallest k first. */
export function fidelityCurve(points: readonly PointAnalysis[]): CurvePoint[] {
  const byK = new Map<number, CurvePoint>();
  for (const p of points) {
    const k = timeScaleOf(p.entry);
    const c = byK.get(k) ?? { k, agrees: 0, metrics: 0, byLoad: new Map() };
    byK.set(k, c);
    const load = formatLoad(p.entry.load);
    const l = c.byLoad.get(load) ?? { agrees: 0, metrics: 0 };
    c.byLoad.set(load, l);
    // Both-collapsed metrics say nothing about agreement; every other verdict counts.
    for (const r of p.rows) {
      if (r.verdict === 'both-collapsed') continue;
      c.metrics++;
      l.metrics++;
      if (r.verdict === 'agrees') {
        c.agrees++;
        l.agrees++;
      }
    }
  }
  return [...byK.values()].sort((a, b) => a.k - b.k);
}

/** The smallest k from which every larger k of the curve agrees at CURVE_GOAL or better; null if none. */
export function agreesFrom(curve: readonly CurvePoint[]): number | null {
  let from: number | null = null;
  for (let i = curve.length - 1; i >= 0; i--) {
    const c = curve[i];
    if (c.metrics === 0 || c.agrees / c.metrics < CURVE_GOAL) break;
    from = c.k;
  }
  return from;
}

/** The report's paragraphs on a dilated run; none when every point ran at k = 1. */
export function timeScaleBlocks(a: RunAnalysis): Block[] {
  const scales = [...new Set(a.points.map((p) => timeScaleOf(p.entry)))].sort((x, y) => x - y);
  if (scales.every((k) => k === 1)) return [];
  const m = a.manifest.matrix;
  let undilated = 0;
  let dilated = 0;
  for (const p of a.points) {
    const k = timeScaleOf(p.entry);
    const R = p.entry.dims?.replicas ?? 1;
    const ms = p.entry.calls / arrivalRatePerMs(p.entry.load, pointModel(m.model, p.entry.dims), R);
    undilated += ms;
    dilated += ms * k;
  }
  const ks = scales.join(', ');
  const chosen = a.manifest.raw.timeScaleChoice;
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: 'The dilated clock' },
    {
      kind: 'paragraph',
      text: `This run was dilated: time scale ${ks} — every duration of the model and of the configurations (service times, hedge delay, budget window, Gradient2's window) × k and every rate (arrivals, the budget's hedges per second) ÷ k, so the queue goes through the same states k times slower while the harness's own milliseconds shrink to 1/k of the model's. Every latency in this report and in the CSV files is in model milliseconds (wall-clock ÷ k); raw/ keeps the wall clock's. The points' schedules took ${minutes(dilated)} of wall time, against ${minutes(undilated)} undilated.${chosen === undefined ? '' : ` "auto" chose it before the points (manifest.json \`timeScaleChoice\`): ${chosen.reason}.`}`,
    },
  ];
  const curve = fidelityCurve(a.points);
  if (curve.length < 2) return blocks;
  const loads = [...new Set(a.points.map((p) => formatLoad(p.entry.load)))].sort();
  const pct = (x: { agrees: number; metrics: number } | undefined) =>
    x === undefined || x.metrics === 0
      ? '—'
      : `${Math.round((100 * x.agrees) / x.metrics)} % (${x.agrees}/${x.metrics})`;
  const from = agreesFrom(curve);
  const median = m.model.medianMs;
  blocks.push(
    { kind: 'heading', level: 3, text: 'Fidelity curve: agreement against k' },
    {
      kind: 'paragraph',
      text: `Share of the compared metrics of non-collapsed points that agree, at each time scale. ${
        from === null
          ? `The real clock does not reach ${Math.round(CURVE_GOAL * 100)} % agreement at any k here.`
          : `The real clock agrees with the model from k = ${from}, i.e. for a service whose median is ≥ ${from * median} ms on this machine.`
      } The k = 1 row is not a failure to hide: it is what a real client's own delays do to hedging a ${median} ms service on such a machine (the attribution section shows which part).`,
    },
    {
      kind: 'table',
      head: ['k', 'all loads', ...loads.map((l) => `load ${l}`)],
      rows: curve.map((c) => [String(c.k), pct(c), ...loads.map((l) => pct(c.byLoad.get(l)))]),
    },
  );
  return blocks;
}

function minutes(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** The fidelity curve as a chart: agreement (%) against k on a log axis, one line per load and one for all. */
export function fidelityCurveSpec(title: string, curve: readonly CurvePoint[]): TopLevelSpec {
  const values = curve.flatMap((c) => [
    { k: c.k, series: 'all loads', pct: c.metrics > 0 ? (100 * c.agrees) / c.metrics : null },
    ...[...c.byLoad].map(([load, l]) => ({
      k: c.k,
      series: `load ${load}`,
      pct: l.metrics > 0 ? (100 * l.agrees) / l.metrics : null,
    })),
  ]);
  return {
    $schema: SCHEMA,
    title,
    width: 420,
    height: 240,
    data: { values },
    layer: [
      {
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'k', type: 'quantitative', scale: { type: 'log' }, title: 'time scale k' },
          y: {
            field: 'pct',
            type: 'quantitative',
            scale: { domain: [0, 100] },
            title: 'metrics that agree (%)',
          },
          color: { field: 'series', type: 'nominal', title: null },
          tooltip: [
            { field: 'series', type: 'nominal' },
            { field: 'k', type: 'quantitative' },
            { field: 'pct', type: 'quantitative', format: '.0f' },
          ],
        },
      },
      {
        mark: { type: 'rule', strokeDash: [4, 4], color: 'grey' },
        encoding: { y: { datum: CURVE_GOAL * 100 } },
      },
    ],
  } as TopLevelSpec;
}
