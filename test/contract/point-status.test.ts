// The load generator's status as contract/point-status.ts declares it: the hash's progress fields, the
// summary and status.json written and read back, a merged summary of K clients, and a bad file refused.
import { describe, expect, it } from 'vitest';
import {
  formatStatusJson,
  formatSummary,
  type LoadSummary,
  parseStatusHash,
  parseStatusJson,
  progressFields,
  StatusJsonError,
  statusInflightTimelineMs,
  statusSendLagP99,
} from '../../contract/index.ts';

const SUMMARY: LoadSummary = {
  state: 'done',
  error: null,
  target: 'http://127.0.0.1:1',
  config: 'no hedge',
  load: 0.5,
  seed: 1,
  calls: 100,
  warmupCalls: 10,
  sent: 100,
  completed: 100,
  abandoned: 0,
  measured: { ok: 90, rejected: 0, failed: 0, hedged: 0, skipped: 0 },
  attemptsUnwritten: 0,
  attemptFailures: {},
  latency: { p50Ms: 10, p99Ms: 30, maxMs: 40 },
  overhead: null,
  durationMs: 1000,
  cpuCores: 0.2,
  dispatchLag: { p50Ms: 0.01, p99Ms: 0.02, maxMs: 0.03 },
  selfCheck: {
    // No sends measured: NaN, which JSON writes as null.
    sendLag: { n: 0, p50Ms: Number.NaN, p99Ms: Number.NaN, maxMs: Number.NaN, thresholdMs: 1 },
    rate: {
      targetPerS: 100,
      achievedPerS: 99,
      schedulePerS: 100,
      errorVsTarget: -0.01,
      errorVsSchedule: -0.01,
      tolerance: 0.02,
      toleranceVsTarget: 0.3,
    },
    arrivals: { test: 'anderson-darling', sampleSize: 90, statistic: 0.4, critical: 5, passed: true },
    valid: true,
    reasons: [],
  },
  inflight: { max: 4, cap: 20_000, timeline: [[0.5, 2]] },
  collapsed: false,
  collapseReason: null,
  recorder: { written: 90, dropped: 0, failedBatches: 0 },
  clock: null,
  valid: true,
  reasons: [],
};

describe('point status contract', () => {
  it('a progress update: counters as text, a NaN percentile empty, the heartbeat given', () => {
    const f = progressFields(
      { state: 'running', t: 1, sent: 3, completed: 2, inflight: 1, p99Ms: Number.NaN, sendLagP99Ms: 0.25 },
      1234,
    );
    expect(f).toEqual({
      state: 'running',
      sent: '3',
      completed: '2',
      inflight: '1',
      p99_ms: '',
      send_lag_p99_ms: '0.250',
      heartbeat_ms: '1234',
    });
  });

  it('the hash → status.json → reader keeps the summary; send lag falls back to the last progress', () => {
    const hash = {
      state: 'done',
      sent: '100',
      send_lag_p99_ms: '0.750',
      error: '',
      summary: formatSummary(SUMMARY),
    };
    const status = parseStatusHash(hash)!;
    expect(status.sent).toBe(100);
    const read = parseStatusJson(formatStatusJson(status), 'x.status.json');
    expect(read.summary?.selfCheck?.sendLag?.p99Ms).toBeNull();
    expect(statusSendLagP99(read)).toBe(0.75);
    expect(statusInflightTimelineMs(read)).toEqual([[500, 2]]);
    expect(read.summary?.measured).toEqual(SUMMARY.measured);
  });

  it('reads a summary with only some fields (the merge of K clients)', () => {
    const merged = {
      state: 'done',
      summary: { clients: 2, calls: null, selfCheck: { sendLag: { p99Ms: 0.3 } } },
    };
    const read = parseStatusJson(JSON.stringify(merged), 'm.status.json');
    expect(statusSendLagP99(read)).toBe(0.3);
  });

  it('reads a point that failed before its summary (the hash holds it empty) as one without a summary', () => {
    const status = parseStatusHash({ state: 'running', sent: '12', summary: '' })!;
    expect(status).toEqual({ state: 'running', sent: 12 });
    expect(parseStatusJson(formatStatusJson(status), 'f.status.json').summary).toBeUndefined();
    // The status.json such a point wrote before.
    const before = parseStatusJson(JSON.stringify({ state: 'running', summary: '' }), 'o.status.json');
    expect(before.summary).toBeUndefined();
    expect(before.state).toBe('running');
  });

  it('refuses a field of the wrong type with HB_STATUS_JSON_INVALID naming it', () => {
    const bad = JSON.stringify({ summary: { collapsed: 'yes' } });
    expect(() => parseStatusJson(bad, 'b.status.json')).toThrow(StatusJsonError);
    expect(() => parseStatusJson(bad, 'b.status.json')).toThrow(/b\.status\.json: field summary\.collapsed/);
    expect(() => parseStatusJson('{', 'c.status.json')).toThrow(/c\.status\.json is not valid JSON/);
  });
});
