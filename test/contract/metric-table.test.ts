// The one metric table: every metric names a points.csv column that the row builder fills (a latency with
// its own percentile), points.csv and comparison.csv write it with the metric's decimals, its margin cap is
// model/margins.ts's and its unit results/README.md's, so nothing can disagree with it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_METRICS,
  type ComparisonRow,
  formatComparisonRow,
  formatPointRow,
  formatPointsCsv,
  isLatencyMetric,
  LATENCY_METRICS,
  latencyMetric,
  latencyMetricOfColumn,
  METRIC_TABLE,
  METRICS,
  metricOfColumn,
  metricSpec,
  OPTIONAL_POINT_COLUMNS,
  POINTS_HEADER,
  type PointRow,
  perLatencyMetric,
  RowBuilder,
} from '../../contract/index.ts';
import { isRelativeMargin, MARGIN_CAPS, type MarginMetric } from '../../model/index.ts';
import { pointRow } from '../analysis/fixture.ts';

const COMPARED = [...new Set<string>([...METRICS, ...CLIENT_METRICS])];

describe('METRIC_TABLE', () => {
  it('has one entry per name and per column, each column one points.csv writes', () => {
    const columns = [...POINTS_HEADER.split(','), ...OPTIONAL_POINT_COLUMNS];
    expect(new Set(METRIC_TABLE.map((m) => m.name)).size).toBe(METRIC_TABLE.length);
    expect(new Set(METRIC_TABLE.map((m) => m.column)).size).toBe(METRIC_TABLE.length);
    for (const m of METRIC_TABLE) {
      expect(columns, m.name).toContain(m.column);
      expect(metricSpec(m.name)).toBe(m);
      expect(metricOfColumn(m.column)).toBe(m);
    }
    expect(metricOfColumn('load')).toBeUndefined();
    for (const name of COMPARED) expect(METRIC_TABLE.map((m) => m.name)).toContain(name);
  });

  it('names every margin cap of model/margins.ts, and only a latency has a relative margin', () => {
    const withCap: string[] = [];
    for (const m of METRIC_TABLE) {
      if (!('marginCap' in m)) continue;
      const name = m.name as MarginMetric;
      withCap.push(name);
      expect(m.marginCap, name).toBe(MARGIN_CAPS[name]);
      expect(isRelativeMargin(name), name).toBe(m.unit === 'ms');
    }
    expect(withCap.sort()).toEqual(Object.keys(MARGIN_CAPS).sort());
    expect(withCap).toEqual(COMPARED.filter((m) => m !== 'collapse').sort());
  });

  it('gives each metric the unit results/README.md gives its points.csv column', () => {
    const doc = readFileSync(new URL('../../results/README.md', import.meta.url), 'utf8');
    const start = doc.indexOf('## points.csv');
    const section = doc.slice(start, doc.indexOf('\n## ', start));
    const unitOf = new Map<string, string>();
    for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
      const cells = line.split('|');
      for (const c of cells[1].matchAll(/`([a-z0-9_]+)`/g)) unitOf.set(c[1], cells[2].trim());
    }
    for (const m of METRIC_TABLE) expect(unitOf.get(m.column), m.column).toBe(m.unit ?? '');
  });

  it('points.csv and comparison.csv write a metric with the same decimals', () => {
    const third = 1 / 3;
    const numeric = METRIC_TABLE.filter((m) => m.unit !== null);
    const row: PointRow = {
      ...pointRow('real'),
      // A name without a comma, so that splitting the line at commas finds the cells.
      config: 'c',
      ...(Object.fromEntries(numeric.map((m) => [m.column, third])) as Partial<PointRow>),
    };
    const head = formatPointsCsv([row]).split('\n')[0].split(',');
    const cells = formatPointRow(row).split(',');
    for (const m of numeric) {
      expect(cells[head.indexOf(m.column)], m.column).toBe(third.toFixed(m.decimals));
    }
    for (const name of COMPARED.filter((m) => m !== 'collapse')) {
      const line: ComparisonRow = {
        config: 'c',
        load: 0.5,
        cancellation: 'ignore',
        seed: 1,
        metric: name as ComparisonRow['metric'],
        sim: third,
        real: null,
        realCiLow: null,
        realCiHigh: null,
        allowance: null,
        diff: null,
        diffCiLow: null,
        diffCiHigh: null,
        margin: null,
        verdict: 'missing',
      };
      const sim = formatComparisonRow(line).split(',')[5];
      expect(sim, name).toBe(third.toFixed(metricSpec(line.metric).decimals));
    }
    // One digit for the hedge rate in both files: five.
    expect(metricSpec('hedge_rate').decimals).toBe(5);
  });
});

describe('LATENCY_METRICS', () => {
  it('names p50, p99 and p99.9, in that order', () => {
    expect(LATENCY_METRICS.map((m) => m.name)).toEqual(['p50', 'p99', 'p99.9']);
    expect(perLatencyMetric((m) => m.percentile)).toEqual({ p50: 50, p99: 99, 'p99.9': 99.9 });
  });

  it('looks up by name and by column, and tells a latency metric from a rate', () => {
    for (const m of LATENCY_METRICS) {
      expect(latencyMetric(m.name)).toBe(m);
      expect(latencyMetricOfColumn(m.column)).toBe(m);
      expect(isLatencyMetric(m.name)).toBe(true);
    }
    expect(isLatencyMetric('requests_per_call')).toBe(false);
    expect(isLatencyMetric('p90')).toBe(false);
  });

  it('fills each percentile column with its percentile and writes it with its decimals', () => {
    const b = new RowBuilder({
      config: 'c',
      load: 0.5,
      cancellation: 'ignore',
      seed: 1,
      source: 'sim',
      calls: 1000,
      workers: 1,
    });
    for (let i = 1; i <= 1000; i++) b.addCall(i, 'ok', 1, 0);
    const row = b.finish({ busyMs: 1, spanMs: 1, collapsed: false, sendLagP99Ms: null, valid: true });
    const cells = formatPointRow(row).split(',');
    const head = POINTS_HEADER.split(',');
    for (const m of METRIC_TABLE) {
      if (!('percentile' in m)) continue;
      expect(row[m.column as keyof PointRow]).toBe(b.latency.percentile(m.percentile));
      const cell = cells[head.indexOf(m.column)];
      expect(cell).toBe((row[m.column as keyof PointRow] as number).toFixed(m.decimals));
    }
  });
});
