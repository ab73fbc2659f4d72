// The one latency-metric table: every metric names a points.csv column that the row builder fills with the
// metric's own percentile and points.csv writes with the metric's decimals, so nothing can disagree with it.

import { describe, expect, it } from 'vitest';
import {
  formatPointRow,
  isLatencyMetric,
  LATENCY_METRICS,
  latencyMetric,
  latencyMetricOfColumn,
  POINTS_HEADER,
  perLatencyMetric,
  RowBuilder,
} from '../../contract/index.ts';

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

  it('fills each column with its percentile and writes it with its decimals', () => {
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
    for (const m of LATENCY_METRICS) {
      expect(row[m.column]).toBe(b.latency.percentile(m.percentile));
      const cell = cells[head.indexOf(m.column)];
      expect(cell).toBe(row[m.column]!.toFixed(m.decimals));
    }
  });
});
