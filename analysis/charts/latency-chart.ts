// The latency-against-load chart of one configuration and cancellation mode, drawn so that it does not
// overstate the evidence: an invalid measurement is a hollow grey mark (its reason in the legend), a
// percentile whose interval is open is hollow with a dashed bar, a collapsed point is a labelled marker
// at the top of the axis, and each seed has its own shape. Pure spec builders.

import type { TopLevelSpec } from 'vega-lite';
import { CHART, SCHEMA } from './charts.ts';
import { CHARTED_PERCENTILES, type LatencyChartData, type MarkStatus, xDomain } from './latency-data.ts';

/** The shapes of seeds, in the order of the matrix's seeds (the collapse marker is a triangle up). */
const SEED_SHAPES = ['circle', 'square', 'diamond', 'triangle-down', 'cross', 'triangle-left'];
/** Reasons an invalid mark's legend entry lists (the most frequent first). */
const MAX_REASONS = 4;
/** How each status draws its mark: fill opacity (0 = hollow) and opacity (below 1 = greyed). */
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
interface LatencyChartInput {
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
    scale: { domain: [...CHARTED_PERCENTILES], range: ['#1f77b4', '#d62728'] },
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
