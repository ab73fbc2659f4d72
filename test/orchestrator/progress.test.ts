// The progress line and the end-of-run summary are pure text; the reporter rewrites a terminal line and
// throttles plain output.

import { describe, expect, it } from 'vitest';
import type { PointEntry, PointRow } from '../../contract/index.ts';
import { formatProgress, formatRunSummary } from '../../orchestrator/index.ts';
import {
  formatDuration,
  ProgressReporter,
  type ProgressState,
} from '../../orchestrator/plan/progress-reporter.ts';

const state: ProgressState = {
  point: 3,
  points: 9,
  key: 'hedge, default budget|0.95|ignore|1',
  calls: 4000,
  completed: 1000,
  inflight: 17,
  p99Ms: 48.123,
  sendLagP99Ms: 0.812,
  etaPointMs: 2_600,
  etaRunMs: 65_000,
};

describe('progress', () => {
  it('shows point i/N, calls done/total, in flight, p99, send lag and the time left (point and run)', () => {
    expect(formatProgress(state)).toBe(
      '[3/9] hedge, default budget 0.95 ignore 1  1000/4000 calls (25%)  in flight 17  p99 48.1 ms  send lag p99 0.81 ms  left: point 3s, run 1m05s',
    );
    expect(formatProgress({ ...state, inflight: null, p99Ms: null, sendLagP99Ms: null })).toContain('p99 –');
    expect(formatDuration(3_725_000)).toBe('1h02m');
  });

  it('rewrites one line on a terminal and prints at most every interval otherwise', () => {
    const tty: string[] = [];
    const r1 = new ProgressReporter({ isTTY: true, columns: 200, write: (t: string) => tty.push(t) });
    r1.update(state);
    r1.update({ ...state, completed: 2000 });
    r1.message('done');
    expect(tty.every((t) => !t.slice(0, -1).includes('\n'))).toBe(true);
    expect(tty[0].startsWith('\r\x1b[2K')).toBe(true);
    expect(tty.at(-1)).toBe('done\n');

    // Lanes: one line each, redrawn together (up to the first, then every line), named by lane.
    const lanes: string[] = [];
    const r3 = new ProgressReporter({ isTTY: true, columns: 200, write: (t: string) => lanes.push(t) });
    r3.update({ ...state, lane: 0 });
    r3.update({ ...state, lane: 1, point: 4 });
    r3.update({ ...state, lane: 0, completed: 2000 });
    expect(lanes[1]).toBe(
      `\r\x1b[2K${formatProgress({ ...state, lane: 0 })}\n\r\x1b[2K${formatProgress({ ...state, lane: 1, point: 4 })}`,
    );
    expect(lanes[2].startsWith('\x1b[1A\r\x1b[2Klane 0 [3/9]')).toBe(true);
    expect(lanes[2]).toContain('\n\r\x1b[2Klane 1 [4/9]');
    // A lane's point ends: both lines are erased (bottom up), the other lane's comes back at its next update.
    r3.drop(0);
    expect(lanes.at(-1)).toBe('\r\x1b[2K\x1b[1A\r\x1b[2K');
    r3.update({ ...state, lane: 1, point: 4 });
    expect(lanes.at(-1)).toBe(`\r\x1b[2K${formatProgress({ ...state, lane: 1, point: 4 })}`);

    const plain: string[] = [];
    const r2 = new ProgressReporter({ isTTY: false, write: (t: string) => plain.push(t) }, 60_000);
    r2.update(state);
    r2.update({ ...state, completed: 2000 });
    expect(plain).toHaveLength(1);
    // Each lane prints at its own pace.
    r2.update({ ...state, lane: 1 });
    r2.update({ ...state, lane: 1 });
    expect(plain).toHaveLength(2);
    expect(plain[1].startsWith('lane 1 [3/9]')).toBe(true);
    expect(plain[0].endsWith('\n')).toBe(true);
    expect(plain[0]).not.toContain('\r');
  });
});

function row(
  source: 'sim' | 'real',
  config: string,
  load: number,
  p99: number,
  extra: Partial<PointRow> = {},
): PointRow {
  return {
    config,
    load,
    cancellation: 'ignore',
    seed: 1,
    source,
    calls: 100,
    measured_calls: 90,
    p50_ms: 10,
    p90_ms: 15,
    p99_ms: p99,
    p999_ms: p99 * 2,
    max_ms: p99 * 3,
    mean_ms: 11,
    requests_per_call: 1,
    hedge_rate: 0,
    skipped_rate: 0,
    rejected_rate: 0,
    failed_rate: 0,
    utilization: 0.5,
    collapsed: false,
    send_lag_p99_ms: null,
    valid: true,
    ...extra,
  };
}

function entry(config: string, load: number, state: PointEntry['state'], reason?: string): PointEntry {
  return {
    key: `${config}|${load.toFixed(2)}|ignore|1`,
    slug: 's',
    config,
    load,
    cancellation: 'ignore',
    seed: 1,
    calls: 100,
    calibration: false,
    state,
    reason,
  };
}

describe('formatRunSummary', () => {
  it('tabulates sim → real p99 per configuration and load, and lists failures, files and the exit status', () => {
    const text = formatRunSummary({
      name: 'quick',
      runDir: 'results/x',
      entries: [entry('no hedge', 0.5, 'done'), entry('no hedge', 0.95, 'failed', 'the target server died')],
      rows: [
        row('sim', 'no hedge', 0.5, 27.25),
        row('real', 'no hedge', 0.5, 29.5, { valid: false }),
        row('sim', 'no hedge', 0.95, 150, { collapsed: true }),
      ],
      elapsedMs: 95_000,
      exitCode: 1,
      resumeCommand: null,
    });
    expect(text).toContain('hedgebench run quick: 2 points, 1 done, 1 failed (1m35s)');
    expect(text).toMatch(/no hedge\s+27\.3 → 29\.5\*\s+collapse → failed/);
    expect(text).toContain('failed: no hedge|0.95|ignore|1: the target server died');
    expect(text).toContain('results: results/x/');
    expect(text).toContain(
      'measure them again with: hedgebench run --resume results/x --retry-invalid --retry-failed',
    );
    expect(text.trimEnd().endsWith('exit status 1')).toBe(true);
  });

  it('gives each dimension variant of a configuration its own row', () => {
    const grpc: PointEntry = {
      ...entry('no hedge', 0.5, 'done'),
      key: 'no hedge|0.50|ignore|1|t=grpc',
      dims: { transport: 'grpc' },
    };
    const text = formatRunSummary({
      name: 'grpc',
      runDir: 'results/x',
      entries: [entry('no hedge', 0.5, 'done'), grpc],
      rows: [
        row('sim', 'no hedge', 0.5, 27.25),
        row('real', 'no hedge', 0.5, 29.5),
        row('sim', 'no hedge', 0.5, 27.25, { transport: 'grpc' }),
        row('real', 'no hedge', 0.5, 41, { transport: 'grpc' }),
      ],
      elapsedMs: 1_000,
      exitCode: 0,
      resumeCommand: null,
    });
    expect(text).toMatch(/\nno hedge\s+27\.3 → 29\.5\n/);
    expect(text).toMatch(/\nno hedge · over gRPC\s+27\.3 → 41\.0\n/);
  });
});
