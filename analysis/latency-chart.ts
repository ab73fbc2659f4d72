// The latency-against-load chart of one configuration and cancellation mode, drawn so that it does not
// overstate the evidence: an invalid measurement is a hollow grey mark (its reason in the legend), a
// percentile whose interval is open is hollow with a dashed bar, a collapsed point is a labelled marker
// at the top of the axis, and each seed has its own shape. Pure spec builders.

import type { TopLevelSpec } from 'vega-lite';
import { formatLoad, formatMs } from '../contract/index.ts';
import { CHART, SCHEMA } from './charts.ts';
import { pointTip } from './point-tip.ts';
import type { PointAnalysis } from './run-analysis.ts';

/** How a percentile's mark is drawn, and why. */
export type MarkStatus = 'simulated' | 'measured' | 'open' | 'invalid';

/** One percentile of one point and source. `low`/`high` only on real points (the 95 % interval). */
export interface LatencyDatum {
  load: number;
  /** The load, nudged per seed and source so that marks of one load sit side by side, not on each other. */
  x: number;
  percentile: 'p99' | 'p99.9';
  source: 'sim' | 'real';
  seed: string;
  value: number;
  /** `value` where the real line may be drawn solid (a valid measurement), else null. */
  solid: number | null;
  low?: number;
  high?: number;
  /** The interval is open above: the sample cannot bound the percentile. */
  open: boolean;
  status: MarkStatus;
  tip: string;
}

/** A load at which a side collapsed: a marker at the top of the chart instead of a percentile. */
export interface CollapseDatum {
  load: number;
  x: number;
  label: string;
  tip: string;
}

/** Everything one latency chart draws. */
export interface LatencyChartData {
  points: LatencyDatum[];
  collapses: CollapseDatum[];
  /** Loads whose measurement is missing, with why, e.g. `0.50 failed` (nothing real is drawn there). */
  unmeasured: string[];
  /** Short forms of the reasons the chart's invalid points failed their self-check, most frequent first. */
  invalidReasons: string[];
}

/** The shapes of seeds, in the order of the matrix's seeds (the collapse marker is a triangle up). */
const SEED_SHAPES = ['circle', 'square', 'diamond', 'triangle-down', 'cross', 'triangle-left'];
/** Share of the x axis between two seeds' marks at one load, and between a seed's sim and real marks. */
const SEED_NUDGE = 0.03;
const SOURCE_NUDGE = 0.01;
/** Load units the x axis reaches beyond the lowest and highest load. */
const X_PAD = 0.05;

/** The x axis of a latency chart: the matrix's loads with a margin. */
function xDomain(loads: readonly number[]): [number, number] {
  return [Math.min(...loads) - X_PAD, Math.max(...loads) + X_PAD];
}
/** Reasons an invalid mark's legend entry lists (the most frequent first). */
const MAX_REASONS = 4;

/**
 * A reason's kind without its figures, for a legend: `send-lag p99 2.31 ms exceeds the threshold 1 ms` →
 * `send-lag p99 > 1 ms`; `achieved rate 278/s is -50 % off the target …` → `achieved rate off the target`.
 */
export function shortReason(r: string): string {
  const ms = r.match(/^(.*?) -?[\d.]+ ms exceeds (?:the threshold |fidelity\.\w+ = )([\d.]+) ms/);
  if (ms) return `${ms[1]} > ${ms[2]} ms`;
  const rate = r.match(/^(achieved rate) .* off the (schedule|target)/);
  if (rate) return `${rate[1]} off the ${rate[2]}`;
  const words = r.split(/:|[\s(]+-?\d/)[0].trim();
  const s = words.length >= 8 ? words : r.replace(/\s*\(.*\)\s*$/, '');
  return s.length > 48 ? `${s.slice(0, 47)}…` : s;
}

/** The percentiles of one configuration and mode; collapsed sides become collapse markers. */
export function latencyData(
  points: readonly PointAnalysis[],
  seeds: readonly number[],
  loads: readonly number[],
): LatencyChartData {
  const [x0, x1] = xDomain(loads);
  const unit = x1 - x0;
  const out: LatencyDatum[] = [];
  const reasons = new Map<string, number>();
  const collapsedAt = new Map<number, { sides: Set<string>; points: PointAnalysis[] }>();
  const nudge = (seed: number) => {
    const i = Math.max(0, seeds.indexOf(seed));
    return (i - (seeds.length - 1) / 2) * SEED_NUDGE * unit;
  };
  const unmeasured: string[] = [];
  for (const p of points) {
    if (!p.real && p.entry.state !== 'done') {
      const who = seeds.length > 1 ? ` (seed ${p.id.seed})` : '';
      unmeasured.push(`${formatLoad(p.id.load)}${who} ${p.entry.state}`);
    }
    for (const source of ['sim', 'real'] as const) {
      const row = source === 'sim' ? p.sim : p.real;
      if (!row) continue;
      if (row.collapsed) {
        const c = collapsedAt.get(p.id.load) ?? { sides: new Set(), points: [] };
        c.sides.add(seeds.length > 1 ? `${source} s${p.id.seed}` : source);
        if (!c.points.includes(p)) c.points.push(p);
        collapsedAt.set(p.id.load, c);
        continue;
      }
      if (source === 'real' && !row.valid) {
        for (const r of new Set(p.invalidReasons.map(shortReason))) reasons.set(r, (reasons.get(r) ?? 0) + 1);
      }
      for (const [percentile, v] of [
        ['p99', row.p99_ms],
        ['p99.9', row.p999_ms],
      ] as const) {
        if (v === null || !(v > 0)) continue;
        const iv = source === 'real' ? p.intervals?.[percentile] : null;
        const open = iv?.highOpen === true;
        const status: MarkStatus =
          source === 'sim' ? 'simulated' : !row.valid ? 'invalid' : open ? 'open' : 'measured';
        const d: LatencyDatum = {
          load: p.id.load,
          x: p.id.load + nudge(p.id.seed) + (source === 'sim' ? -SOURCE_NUDGE : SOURCE_NUDGE) * unit,
          percentile,
          source,
          seed: String(p.id.seed),
          value: v,
          solid: status === 'measured' || status === 'open' ? v : null,
          open,
          status,
          tip: pointTip(p, [source], `this mark: ${source} ${percentile} = ${formatMs(v)} ms`),
        };
        if (iv) {
          d.low = Math.max(Math.min(iv.low, v), 1e-3);
          d.high = Math.max(iv.high, v);
        }
        out.push(d);
      }
    }
  }
  const collapses = [...collapsedAt].map(([load, c]) => ({
    load,
    x: load,
    label: `collapse\n${[...c.sides].join(', ')}`,
    tip: c.points.map((p) => pointTip(p, ['sim', 'real'], 'collapsed: no percentile to draw')).join('\n\n'),
  }));
  const byCount = [...reasons].sort((u, v) => v[1] - u[1] || (u[0] < v[0] ? -1 : 1)).map(([r]) => r);
  return { points: out, collapses, unmeasured, invalidReasons: byCount };
}

/** One log-scale domain for every latency chart of a run, so charts side by side compare by eye. */
export function latencyDomain(charts: readonly LatencyChartData[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const c of charts) {
    for (const d of c.points) {
      lo = Math.min(lo, d.value, d.low ?? d.value);
      hi = Math.max(hi, d.value, d.high ?? d.value);
    }
  }
  if (!(hi > 0)) return [1, 1000];
  // Room above the data for the collapse markers, when any chart has one.
  const headroom = charts.some((c) => c.collapses.length > 0) ? 4 : 1.3;
  return [lo / 1.3, hi * headroom];
}

const STATUS_LEGEND: Readonly<Record<MarkStatus, { fill: number; opacity: number }>> = {
  simulated: { fill: 1, opacity: 1 },
  measured: { fill: 1, opacity: 1 },
  open: { fill: 0, opacity: 1 },
  invalid: { fill: 0, opacity: 0.4 },
};

/** The legend entry of each mark status; an invalid point's entry lists the reasons, one a line. */
function statusLabel(s: MarkStatus, reasons: readonly string[]): string {
  if (s === 'simulated') return 'simulated';
  if (s === 'measured') return 'measured (bar: 95 % interval)';
  if (s === 'open') return 'hollow: interval open above\n(too few calls to bound it)';
  const shown = reasons.slice(0, MAX_REASONS).map((r) => `· ${r}`);
  if (reasons.length > MAX_REASONS) shown.push(`· +${reasons.length - MAX_REASONS} more (see the report)`);
  return ['hollow grey: invalid, because', ...(shown.length > 0 ? shown : ['· self-check failed'])].join(
    '\n',
  );
}

/** What one latency chart shows and on which axes. */
export interface LatencyChartInput {
  title: string;
  /** One line each, so a long explanation does not widen the chart. */
  subtitle: string[];
  data: LatencyChartData;
  /** The matrix's loads and seeds: the x axis and the seeds' shapes. */
  loads: readonly number[];
  seeds: readonly number[];
  /** The y axis shared by the run's latency charts (latencyDomain). */
  yDomain: readonly [number, number];
  /** A `simulate` folder: no real source to name in the legend. */
  simulationOnly: boolean;
}

/** p99 and p99.9 against load for one configuration: simulation dashed, measurement solid with its interval. */
export function latencyVsLoadSpec(input: LatencyChartInput): TopLevelSpec {
  const { title, subtitle, data, loads, seeds, yDomain } = input;
  const statuses = (['simulated', 'measured', 'open', 'invalid'] as const).filter((s) =>
    data.points.some((d) => d.status === s),
  );
  const labels = statuses.map((s) => statusLabel(s, data.invalidReasons));
  const points = data.points.map((d) => ({ ...d, statusLabel: labels[statuses.indexOf(d.status)] }));
  // The matrix's loads fix the axis, so a chart with one load (or one missing) still reads as load.
  const x = {
    field: 'x',
    type: 'quantitative',
    title: 'load ρ',
    scale: { domain: xDomain(loads), nice: false },
    axis: { values: [...loads], format: '.2f' },
  } as const;
  const y = {
    field: 'value',
    type: 'quantitative',
    title: 'latency (ms, log scale)',
    scale: { type: 'log', domain: [...yDomain], nice: false },
    axis: { minExtent: CHART.yAxisExtent, maxExtent: CHART.yAxisExtent },
  } as const;
  const color = {
    field: 'percentile',
    type: 'nominal',
    title: 'percentile',
    scale: { domain: ['p99', 'p99.9'], range: ['#1f77b4', '#d62728'] },
    legend: { symbolType: 'stroke', symbolStrokeWidth: 3, symbolSize: 400, symbolOpacity: 1 },
  } as const;
  const dash = {
    field: 'source',
    type: 'nominal',
    title: 'source',
    scale: input.simulationOnly
      ? { domain: ['sim'], range: [[6, 4]] }
      : {
          domain: ['real', 'sim'],
          range: [
            [1, 0],
            [6, 4],
          ],
        },
    legend: {
      symbolType: 'stroke',
      symbolStrokeWidth: 2,
      symbolSize: 400,
      encode: { symbols: { update: { stroke: { value: '#333' } } } },
    },
  } as const;
  const series = { field: 'seed', type: 'nominal' } as const;
  // The marks' legend: the opacity channel's, its symbols drawn hollow for the hollow statuses.
  const hollow = labels.filter((_, i) => STATUS_LEGEND[statuses[i]].fill === 0);
  const statusLegend = {
    title: 'marks',
    symbolType: 'circle',
    symbolFillColor: '#555',
    symbolStrokeColor: '#555',
    symbolStrokeWidth: 1.8,
    encode: {
      symbols: {
        update: { fillOpacity: { signal: `indexof(${JSON.stringify(hollow)}, datum.value) >= 0 ? 0 : 1` } },
      },
      labels: { update: { lineBreak: { value: '\n' } } },
    },
  };
  const values = (xs: readonly object[]) => ({ values: xs as unknown as Record<string, unknown>[] });
  const real = 'datum.source === "real"';
  const layers: object[] = [
    {
      // Every real point, faint and dotted: the series stays readable where its points are invalid.
      transform: [{ filter: real }],
      mark: { type: 'line', strokeWidth: 1, opacity: 0.35, strokeDash: [2, 3], aria: false },
      encoding: { x, y, color, detail: series },
    },
    {
      // Solid only between measurements that passed their self-check; an invalid point breaks the line.
      transform: [{ filter: real }],
      mark: { type: 'line', strokeWidth: 2, invalid: 'break-paths-filter-domains', aria: false },
      encoding: { x, y: { ...y, field: 'solid' }, color, strokeDash: dash, detail: series },
    },
    {
      transform: [{ filter: 'datum.source === "sim"' }],
      mark: { type: 'line', strokeWidth: 2, aria: false },
      encoding: { x, y, color, strokeDash: dash, detail: series },
    },
    {
      transform: [{ filter: `${real} && isValid(datum.low)` }],
      mark: { type: 'rule', strokeWidth: 2, aria: false },
      encoding: {
        x,
        y: { ...y, field: 'low' },
        y2: { field: 'high' },
        color,
        strokeDash: { condition: { test: 'datum.open', value: [3, 2] }, value: [1, 0] },
        opacity: { condition: { test: 'datum.status === "invalid"', value: 0.3 }, value: 0.7 },
      },
    },
    ...['low', 'high'].map((end) => ({
      transform: [{ filter: `${real} && isValid(datum.low)${end === 'high' ? ' && !datum.open' : ''}` }],
      mark: { type: 'tick', orient: 'horizontal', size: 8, aria: false },
      encoding: {
        x,
        y: { ...y, field: end },
        color,
        opacity: { condition: { test: 'datum.status === "invalid"', value: 0.3 }, value: 0.8 },
      },
    })),
    {
      mark: { type: 'point', filled: false, size: 70, strokeWidth: 1.8 },
      encoding: {
        x,
        y,
        color,
        // The same legend as the lines' colour (vega-lite merges the two).
        fill: color,
        shape: {
          ...series,
          title: 'seed',
          scale: { domain: seeds.map(String), range: SEED_SHAPES },
          legend: seeds.length > 1 ? {} : null,
        },
        fillOpacity: {
          field: 'statusLabel',
          type: 'nominal',
          sort: labels,
          scale: { type: 'ordinal', domain: labels, range: statuses.map((s) => STATUS_LEGEND[s].fill) },
          legend: null,
        },
        opacity: {
          field: 'statusLabel',
          type: 'nominal',
          sort: labels,
          scale: { type: 'ordinal', domain: labels, range: statuses.map((s) => STATUS_LEGEND[s].opacity) },
          legend: statusLegend,
        },
        description: { field: 'tip', type: 'nominal' },
      },
    },
  ];
  if (data.collapses.length > 0) {
    layers.push(
      {
        data: values(data.collapses),
        mark: { type: 'point', shape: 'triangle-up', filled: true, size: 110, color: '#333' },
        encoding: { x, y: { value: 7 }, description: { field: 'tip', type: 'nominal' } },
      },
      {
        data: values(data.collapses),
        mark: {
          type: 'text',
          baseline: 'top',
          lineBreak: '\n',
          fontSize: 10,
          color: '#333',
          aria: false,
        },
        encoding: { x, y: { value: 15 }, text: { field: 'label', type: 'nominal' } },
      },
    );
  }
  return {
    $schema: SCHEMA,
    title: { text: title, subtitle, anchor: 'start' },
    width: CHART.width,
    height: CHART.latencyHeight,
    config: { legend: { labelLimit: 0 } },
    data: values(points),
    layer: layers,
  } as unknown as TopLevelSpec;
}

/** The subtitle of a latency chart, a line per fact: how to read its marks, what is not drawn. */
export function latencySubtitle(data: LatencyChartData, simulationOnly: boolean): string[] {
  const lines = [
    simulationOnly
      ? 'simulated, dashed (nothing measured)'
      : 'sim dashed; real solid between valid points, faint dotted through the rest; bars: 95 % interval',
  ];
  if (data.collapses.length > 0) lines.push('▲ at the top: collapsed (no percentile)');
  if (data.unmeasured.length > 0) lines.push(`not measured: ${data.unmeasured.join(', ')}`);
  return lines;
}
