// Report charts: Vega-Lite specs built from the analysis, rendered to SVG strings in Node with no browser
// (vega View with renderer 'none', then toSVG). Spec builders are pure; renderSvg is the only async step.

import type { TopLevelSpec } from 'vega-lite';
import { formatLoad, percentileOf, percentileOfSorted } from '../../contract/index.ts';
import { COMPONENTS, type Component } from '../judge/attribution.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import type { ServerTimeline } from '../read/server-timeline.ts';

/** The Vega-Lite schema every spec names. */
export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

/** Plot sizes shared by every chart, so the report's charts line up: plot width, heights, y-axis width. */
export const CHART = Object.freeze({ width: 440, latencyHeight: 260, panelHeight: 160, yAxisExtent: 56 });

/** Per time bin of a collapsed point: median and max latency of the calls intended in the bin. */
interface TimelineDatum {
  t_s: number;
  series: string;
  value: number;
}

/** Bins calls by intended time (s from the first call) and keeps the median and max latency of each bin. */
export function latencyOverTime(
  intendedMs: ArrayLike<number>,
  latencyMs: ArrayLike<number>,
  bins = 120,
): TimelineDatum[] {
  const n = intendedMs.length;
  if (n === 0) return [];
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    t0 = Math.min(t0, intendedMs[i]);
    t1 = Math.max(t1, intendedMs[i]);
  }
  const width = Math.max((t1 - t0) / bins, 1e-9);
  const buckets: number[][] = Array.from({ length: bins }, () => []);
  for (let i = 0; i < n; i++)
    buckets[Math.min(bins - 1, Math.floor((intendedMs[i] - t0) / width))].push(latencyMs[i]);
  const out: TimelineDatum[] = [];
  buckets.forEach((b, k) => {
    if (b.length === 0) return;
    b.sort((u, v) => u - v);
    const t_s = Number(((k + 0.5) * width) / 1000);
    out.push({ t_s, series: 'median latency', value: percentileOfSorted(b, 50) });
    out.push({ t_s, series: 'max latency', value: b[b.length - 1] });
  });
  return out;
}

/** Thins a series to at most `max` samples (every k-th), time in s from `t0Ms`. */
function thin(
  tMs: ArrayLike<number>,
  v: ArrayLike<number>,
  series: string,
  t0Ms: number,
  max: number,
): TimelineDatum[] {
  const out: TimelineDatum[] = [];
  const stride = Math.max(1, Math.ceil(tMs.length / max));
  for (let i = 0; i < tMs.length; i += stride) out.push({ t_s: (tMs[i] - t0Ms) / 1000, series, value: v[i] });
  return out;
}

/**
 * Attempts in flight over the point: the server's queued and in-flight counts (from its records) and the
 * generator's in-flight samples, each on its own clock, time in s from its first sample.
 */
export function inflightOverTime(
  server: Pick<ServerTimeline, 'length' | 'tMs' | 'queue' | 'inFlight'> | null,
  generator: readonly (readonly [number, number])[],
  max = 400,
): TimelineDatum[] {
  const out: TimelineDatum[] = [];
  if (server && server.length > 0) {
    out.push(...thin(server.tMs, server.inFlight, 'server: in flight', server.tMs[0], max));
    out.push(...thin(server.tMs, server.queue, 'server: queued', server.tMs[0], max));
  }
  if (generator.length > 0) {
    const t = generator.map((g) => g[0]);
    const v = generator.map((g) => g[1]);
    out.push(...thin(t, v, 'generator: in flight', t[0], max));
  }
  return out;
}

/** Latency (top) and attempts in flight (bottom) over the run of a collapsed point. */
export function collapseSpec(
  title: string,
  subtitle: string,
  latency: TimelineDatum[],
  inflight: TimelineDatum[],
): TopLevelSpec {
  const panel = (values: TimelineDatum[], yTitle: string, xTitle: string) => ({
    width: CHART.width,
    height: CHART.panelHeight,
    data: { values: values as unknown as Record<string, unknown>[] },
    // A line's description would name only its first sample: no tip on these.
    mark: { type: 'line', strokeWidth: 1.5, aria: false },
    encoding: {
      x: { field: 't_s', type: 'quantitative', title: xTitle },
      y: {
        field: 'value',
        type: 'quantitative',
        title: yTitle,
        axis: { minExtent: CHART.yAxisExtent, maxExtent: CHART.yAxisExtent },
      },
      color: { field: 'series', type: 'nominal', title: null },
    },
  });
  const panels = [];
  if (latency.length > 0)
    panels.push(panel(latency, 'latency (ms)', 'intended send time, s since the first measured call'));
  if (inflight.length > 0)
    panels.push(panel(inflight, 'attempts', 's since the first sample (each side on its own clock)'));
  return {
    $schema: SCHEMA,
    title: { text: title, subtitle, anchor: 'start' },
    config: { legend: { labelLimit: 0 } },
    vconcat: panels,
    resolve: { scale: { color: 'independent' } },
  } as unknown as TopLevelSpec;
}

/** Renders a Vega-Lite spec to an SVG string in Node (no browser, no canvas); loads vega on first use. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const { renderSpecToSvg } = await import('./svg-render.ts');
  return renderSpecToSvg(spec);
}

/** A chart's file name stem, safe on every file system, e.g. `latency_ignore_hedge-no-budget`. */
export function chartName(kind: string, ...parts: string[]): string {
  const safe = (s: string) =>
    s
      .toLowerCase()
      .replace(/%/g, 'pct')
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-|-$/g, '');
  return [kind, ...parts.map(safe)].join('_');
}

/** One bar segment of the attribution chart: the mean of one part over a point's calls (all, or the tail). */
interface AttributionDatum {
  point: string;
  calls: 'all calls' | 'slowest 1 %';
  part: Component;
  order: number;
  ms: number;
}

/**
 * Mean of each part per point, over all ok calls and over the calls at or above the p99 latency. Means
 * of parts add up to the mean latency (percentiles would not), so the stacked bar is the latency.
 */
export function attributionData(points: readonly PointAnalysis[]): AttributionDatum[] {
  const out: AttributionDatum[] = [];
  for (const p of points) {
    const a = p.attribution;
    if (a === null || a.n === 0) continue;
    const point = `${configLabel(p)} ${formatLoad(p.id.load)} ${p.id.cancellation} s${p.id.seed}`;
    const p99 = percentileOf(a.latency, 99);
    const tail: number[] = [];
    for (let k = 0; k < a.n; k++) if (a.latency[k] >= p99) tail.push(k);
    const all = Array.from({ length: a.n }, (_, k) => k);
    for (const [calls, idx] of [
      ['all calls', all],
      ['slowest 1 %', tail],
    ] as const) {
      COMPONENTS.forEach((part, order) => {
        let sum = 0;
        for (const k of idx) sum += a.parts[part][k];
        out.push({ point, calls, part, order, ms: idx.length > 0 ? sum / idx.length : 0 });
      });
    }
  }
  return out;
}

/** Stacked horizontal bars: where the mean call and the mean tail call spent their time, per point. */
export function attributionSpec(title: string, data: readonly AttributionDatum[]): TopLevelSpec {
  return {
    $schema: SCHEMA,
    title: {
      text: title,
      subtitle:
        'mean of each part over all ok calls, and over the calls at or above p99 (harness parts: send lag, transit, overshoot, response delay)',
    },
    data: { values: [...data] },
    facet: { column: { field: 'calls', type: 'nominal', title: null, sort: ['all calls', 'slowest 1 %'] } },
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 320,
      height: { step: 16 },
      mark: 'bar',
      encoding: {
        y: { field: 'point', type: 'nominal', title: null, sort: null, axis: { labelLimit: 320 } },
        x: { field: 'ms', type: 'quantitative', title: 'ms', stack: 'zero' },
        color: {
          field: 'part',
          type: 'nominal',
          title: 'part',
          scale: { domain: [...COMPONENTS], scheme: 'tableau10' },
        },
        order: { field: 'order', type: 'quantitative' },
        tooltip: [
          { field: 'point', type: 'nominal' },
          { field: 'part', type: 'nominal' },
          { field: 'ms', type: 'quantitative', format: '.3f' },
        ],
      },
    },
  } as TopLevelSpec;
}
