// The summary tables: one per cancellation mode, configs × loads, `p99 / p99.9` or `collapse`.

import { describe, expect, it } from 'vitest';
import type { PointRow } from '../../contract/index.ts';
import { formatSimTables, latencyCell } from '../../simulator/index.ts';

function row(
  config: string,
  load: number,
  cancellation: 'ignore' | 'propagate',
  extra: Partial<PointRow> = {},
): PointRow {
  return {
    config,
    load,
    cancellation,
    seed: 1,
    source: 'sim',
    calls: 100,
    measured_calls: 90,
    p50_ms: 10,
    p90_ms: 14,
    p99_ms: 28.04,
    p999_ms: 201.6,
    max_ms: 300,
    mean_ms: 12,
    requests_per_call: 1.0234,
    hedge_rate: 0.02,
    skipped_rate: 0,
    rejected_rate: 0.0123,
    failed_rate: 0,
    utilization: 0.512,
    collapsed: false,
    send_lag_p99_ms: null,
    valid: true,
    ...extra,
  };
}

describe('formatSimTables', () => {
  it('prints one latency and one load table per cancellation mode, rows = configs, columns = loads', () => {
    const text = formatSimTables([
      row('no hedge', 0.5, 'ignore'),
      row('no hedge', 0.3, 'ignore'),
      row('hedge, no budget', 0.5, 'ignore', { collapsed: true }),
      row('no hedge', 0.5, 'propagate'),
    ]);
    const lines = text.split('\n');
    expect(lines[0]).toBe('simulated, cancellation ignore: p99 / p99.9 ms');
    expect(lines[1]).toMatch(/^config\s+0\.30\s+0\.50$/);
    expect(lines[3]).toMatch(/^no hedge\s+28\.0 \/ 202\s+28\.0 \/ 202$/);
    expect(lines[4]).toMatch(/^hedge, no budget\s+–\s+collapse$/);
    expect(text).toContain('simulated, cancellation ignore: requests per call · rejected % · utilisation');
    expect(text).toContain('1.02 · 1.2 % · 0.51');
    expect(text).toContain('simulated, cancellation propagate: p99 / p99.9 ms');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('splits tables by seed when there are several, and says when a cell has no data', () => {
    const text = formatSimTables([
      row('no hedge', 0.5, 'ignore'),
      { ...row('no hedge', 0.5, 'ignore'), seed: 2 },
    ]);
    expect(text).toContain('cancellation ignore, seed 1');
    expect(text).toContain('cancellation ignore, seed 2');
    expect(latencyCell(undefined)).toBe('–');
    expect(latencyCell(row('x', 1, 'ignore', { p99_ms: null }))).toBe('–');
  });
});
