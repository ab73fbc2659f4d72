// The real row from raw files: every column derived by hand from a tiny point; the generator's verdicts
// and the collapse criterion carried through; bad files rejected with a coded error naming the file.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RawFileError } from '../../analysis/errors.ts';
import { readRealPoint, realRowFromRaw } from '../../analysis/judge/real-row.ts';
import { serverTimeline } from '../../analysis/read/server-timeline.ts';
import {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  type ManifestPoint,
} from '../../contract/index.ts';
import { parseMatrix } from '../../model/index.ts';

const matrix = parseMatrix({
  name: 't',
  configs: ['hedge, default budget'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 20,
  warmupFraction: 0.1,
  model: { workers: 2 },
});

const entry: ManifestPoint = {
  key: 'hedge, default budget|0.50|ignore|1',
  slug: 'p',
  config: 'hedge, default budget',
  load: 0.5,
  cancellation: 'ignore',
  seed: 1,
  calls: 20,
  calibration: false,
  state: 'done',
};

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

// Lines written the way hedgebench wrote them before attribution get that version's header.
function headerFor(lines: string[], fields: readonly string[], added: readonly string[]): string {
  const older = fields.filter((f) => !added.includes(f));
  return (lines[0]?.split(',').length === older.length ? older : fields).join(',');
}

function folder(calls: string[], attempts: string[] | null, status: unknown | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-real-row-'));
  made.push(dir);
  mkdirSync(join(dir, 'raw'));
  writeFileSync(
    join(dir, 'raw', 'p.calls.csv'),
    `${[headerFor(calls, CALL_FIELDS, CALL_FIELDS_ADDED), ...calls].join('\n')}\n`,
  );
  if (attempts)
    writeFileSync(
      join(dir, 'raw', 'p.attempts.csv'),
      `${[headerFor(attempts, ATTEMPT_FIELDS, ATTEMPT_FIELDS_ADDED), ...attempts].join('\n')}\n`,
    );
  if (status !== null) writeFileSync(join(dir, 'raw', 'p.status.json'), JSON.stringify(status));
  return dir;
}

// Calls 2..5 are measured (warm-up = floor(20 · 0.1) = 2); call 1 is a warm-up call the writer forgot.
const CALLS = [
  '1,5,0.01,9,ok,1,0,1',
  '2,10,0.02,12,ok,1,0,1',
  '3,20,0.03,30,ok,2,0,2',
  '4,30,0.04,15,rejected,1,1,0',
  '5,50,0.05,8,failed,1,0,0',
];
// Server clock: busy time of measured calls = (22−10) + (40−21) + (39−32) + (36−31) + (55−50) = 48 ms;
// call 3's second attempt was cancelled while queued (no start), call 1 is warm-up.
const ATTEMPTS = [
  '1,1,5,5,14,served,0,9',
  '2,1,10,10,22,served,0,12',
  '3,1,20,21,40,served,1,19',
  '3,2,32,32,39,cancelled-in-service,0,7',
  '3,3,33,,34,cancelled-queued,-1,5',
  '4,1,30,31,36,served,1,5',
  '5,1,50,50,55,served,0,5',
];
const STATUS = {
  state: 'done',
  summary: {
    valid: true,
    reasons: [],
    selfCheck: { sendLag: { n: 5, p50Ms: 0.02, p99Ms: 0.05, maxMs: 0.06, thresholdMs: 1 } },
    collapsed: false,
    recorder: { written: 5, dropped: 0, failedBatches: 0 },
  },
};

describe('realRowFromRaw', () => {
  it('derives every column from the measured calls and their attempts', () => {
    const row = realRowFromRaw(folder(CALLS, ATTEMPTS, STATUS), entry, matrix);
    expect(row).toMatchObject({
      config: 'hedge, default budget',
      load: 0.5,
      source: 'real',
      calls: 20,
      measured_calls: 4,
      requests_per_call: 5 / 4,
      hedge_rate: 1 / 4,
      skipped_rate: 1 / 4,
      rejected_rate: 1 / 4,
      failed_rate: 1 / 4,
      collapsed: false,
      send_lag_p99_ms: 0.05,
      valid: true,
    });
    // ok latencies 12 and 30: p50 = rank ⌈0.5·2⌉ = 1 → 12 (HDR: 3 significant digits); max 30.
    expect(row.p50_ms).toBeCloseTo(12, 1);
    expect(row.max_ms).toBeCloseTo(30, 1);
    // 48 ms busy over 2 workers × (50 − 10) ms of intended starts.
    expect(row.utilization).toBeCloseTo(48 / (2 * 40), 12);
  });

  it('carries the generator’s reasons and dropped records into valid=false', () => {
    const status = {
      ...STATUS,
      summary: {
        ...STATUS.summary,
        valid: false,
        reasons: ['send-lag p99 3 ms exceeds the threshold 1 ms'],
        recorder: { written: 5, dropped: 2 },
      },
    };
    const rp = readRealPoint(folder(CALLS, ATTEMPTS, status), entry, matrix);
    expect(rp.row.valid).toBe(false);
    expect(rp.invalidReasons).toEqual([
      'send-lag p99 3 ms exceeds the threshold 1 ms',
      '2 records were dropped by the recorder: the sample is incomplete',
    ]);
  });

  it('names the hypervisor among an invalid point’s reasons when it took 3 % of the CPU or more', () => {
    const bad = { ...STATUS, summary: { ...STATUS.summary, valid: false, reasons: ['send-lag p99 3 ms …'] } };
    const stolen = { ...entry, stealShare: 0.081 };
    const rp = readRealPoint(folder(CALLS, ATTEMPTS, bad), stolen, matrix);
    expect(rp.invalidReasons).toEqual([
      'send-lag p99 3 ms …',
      "the machine's hypervisor took 8.1 % of its CPU time while the point was measured (steal in /proc/stat): delays of the host, not of the harness; measure the point again with hedgebench run --resume DIR --retry-invalid",
    ]);
    // Below the share, or on a valid point, nothing is added: the row is the same either way.
    const little = readRealPoint(folder(CALLS, ATTEMPTS, bad), { ...entry, stealShare: 0.029 }, matrix);
    expect(little.invalidReasons).toEqual(['send-lag p99 3 ms …']);
    expect(readRealPoint(folder(CALLS, ATTEMPTS, STATUS), stolen, matrix).invalidReasons).toEqual([]);
    expect(rp.row).toEqual(little.row);
  });

  it('without status.json the point is invalid and has no send lag; without attempts no utilisation', () => {
    const rp = readRealPoint(folder(CALLS, null, null), entry, matrix);
    expect(rp.row.valid).toBe(false);
    expect(rp.row.send_lag_p99_ms).toBeNull();
    expect(rp.row.utilization).toBeNull();
    expect(rp.invalidReasons[0]).toMatch(/no status\.json/);
  });

  it('the generator’s collapse flag makes the row collapsed, with its reason', () => {
    const status = {
      ...STATUS,
      summary: { ...STATUS.summary, collapsed: true, collapseReason: 'in-flight cap 20000 reached' },
    };
    const rp = readRealPoint(folder(CALLS, ATTEMPTS, status), entry, matrix);
    expect(rp.row.collapsed).toBe(true);
    expect(rp.collapseReasons).toEqual(['in-flight cap 20000 reached']);
  });

  it('reads the load generator’s whole summary (selfCheck.sendLag, inflight.timeline in s)', () => {
    const loadResult = {
      state: 'done',
      summary: {
        state: 'done',
        error: null,
        selfCheck: {
          sendLag: { n: 4, p50Ms: 0.1, p99Ms: 0.7, maxMs: 0.9, thresholdMs: 1 },
          valid: true,
          reasons: [],
        },
        inflight: {
          max: 3,
          cap: 20000,
          timeline: [
            [0.5, 1],
            [1.25, 3],
          ],
        },
        collapsed: false,
        collapseReason: null,
        recorder: null,
        valid: true,
        reasons: [],
      },
    };
    const dir = folder(CALLS, null, loadResult);
    const rp = readRealPoint(dir, entry, matrix);
    expect(rp.row.send_lag_p99_ms).toBe(0.7);
    expect(rp.row.valid).toBe(true);
    // Without attempts.csv the generator's samples are the timeline, converted to ms.
    expect(Array.from(rp.timeline!.tMs)).toEqual([500, 1250]);
    expect(Array.from(rp.timeline!.queue)).toEqual([0, 1]);
  });

  it('a point the generator reports failed is invalid with its error', () => {
    const failed = {
      state: 'failed',
      summary: { ...STATUS.summary, state: 'failed', error: 'interrupted by SIGTERM' },
    };
    const rp = readRealPoint(folder(CALLS, ATTEMPTS, failed), entry, matrix);
    expect(rp.row.valid).toBe(false);
    expect(rp.invalidReasons).toContain('the generator reports the point failed: interrupted by SIGTERM');
  });

  it('a header that is not CALL_FIELDS is refused with HB_RAW_FILE_INVALID naming the file', () => {
    const dir = folder(CALLS, ATTEMPTS, STATUS);
    writeFileSync(join(dir, 'raw', 'p.calls.csv'), 'call,latency\n1,2\n');
    try {
      realRowFromRaw(dir, entry, matrix);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RawFileError);
      expect((e as RawFileError).code).toBe('HB_RAW_FILE_INVALID');
      expect((e as Error).message).toMatch(/p\.calls\.csv.*header/);
    }
  });
});

describe('serverTimeline and the collapse criterion', () => {
  it('counts what each arrival sees: queued until start, in flight until end', () => {
    const dir = folder(CALLS, ATTEMPTS, STATUS);
    const rp = readRealPoint(dir, entry, matrix);
    const tl = rp.timeline!;
    // Arrivals of measured attempts at 10, 20, 30, 32, 33, 50; each sees the state just before it. At 10
    // the warm-up call (5–14) is in flight; at 32 call 3 #1 (20–40) and call 4 (30–36); at 33 also call 3
    // #2 (32–39). Every attempt started on arrival, so nothing ever queued.
    expect(Array.from(tl.tMs)).toEqual([10, 20, 30, 32, 33, 50]);
    expect(Array.from(tl.inFlight)).toEqual([1, 1, 1, 2, 3, 0]);
    expect(Array.from(tl.queue)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(rp.collapse?.collapsed).toBe(false);
  });

  it('a queue that grows through the run is a collapse, even when the generator did not say so', () => {
    const calls: string[] = [];
    const attempts: string[] = [];
    // One arrival per ms; service 1 ms but a single worker that falls behind by 0.5 ms per call.
    for (let i = 2; i < 400; i++) {
      const start = i + 0.5 * i;
      calls.push(`${i},${i},0,${start + 1 - i},ok,1,0,1`);
      attempts.push(`${i},1,${i},${start},${start + 1},served,0,1`);
    }
    const big = { ...entry, calls: 400 };
    const rp = readRealPoint(folder(calls, attempts, STATUS), big, matrix);
    expect(rp.collapse?.collapsed).toBe(true);
    expect(rp.row.collapsed).toBe(true);
    expect(rp.collapseReasons[0]).toMatch(/^server records: the queue never drained/);
  });

  it('thins to at most 5000 samples', () => {
    const n = 12_000;
    const a = {
      n,
      call: Float64Array.from({ length: n }, (_, i) => i),
      attempt: new Float64Array(n).fill(1),
      enqueueMs: Float64Array.from({ length: n }, (_, i) => i),
      startMs: Float64Array.from({ length: n }, (_, i) => i),
      endMs: Float64Array.from({ length: n }, (_, i) => i + 0.5),
      ended: Array(n).fill('served'),
      worker: new Float64Array(n),
      serviceMs: new Float64Array(n).fill(0.5),
      respondedMs: new Float64Array(n).fill(Number.NaN),
    };
    const tl = serverTimeline(a, () => true);
    expect(tl.length).toBeLessThanOrEqual(5000);
    expect(Math.max(...tl.inFlight)).toBe(0);
  });
});
