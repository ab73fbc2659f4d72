// What the new policies add to the files, only where a point uses them: points.csv's hedged_on_error_rate
// (after `valid`, before the dimensions, in files where some row has a value), calls.csv's hedged_on_error
// (last, for points that count it; older files still read), attempts.csv's `failed` end, a `delay_ms` cell
// `p95` read back as text beside numeric ones, and the real row recomputed from such a calls file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAttemptsCsv, readCallsCsv } from '../../analysis/index.ts';
import { realRowFromRaw } from '../../analysis/judge/real-row.ts';
import {
  ATTEMPT_FIELDS,
  attemptLine,
  CALL_FIELDS,
  CALL_HEDGED_ON_ERROR_FIELD,
  callFields,
  callLine,
  entryKey,
  formatPointsCsv,
  type ManifestPoint,
  type PointRow,
  PUSHBACK_HEADER,
  parseManifest,
  parsePointsCsv,
  parsePushbackMs,
} from '../../contract/index.ts';
import { parseMatrix } from '../../model/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'hb-policies-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, header: readonly string[], lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[header.join(','), ...lines].join('\n')}\n`);
  return path;
}

const row = (over: Partial<PointRow>): PointRow => ({
  config: 'h',
  load: 0.5,
  cancellation: 'ignore',
  seed: 1,
  source: 'sim',
  calls: 100,
  measured_calls: 90,
  p50_ms: 10,
  p90_ms: 12,
  p99_ms: 30,
  p999_ms: 40,
  max_ms: 50,
  mean_ms: 11,
  requests_per_call: 1.1,
  hedge_rate: 0.1,
  skipped_rate: 0,
  rejected_rate: 0,
  failed_rate: 0.01,
  utilization: 0.5,
  collapsed: false,
  send_lag_p99_ms: null,
  valid: true,
  ...over,
});

describe('points.csv: hedged_on_error_rate', () => {
  it('is written only when some row has a value, after valid and before the dimensions, and reads back', () => {
    const plain = formatPointsCsv([row({}), row({ seed: 2 })]);
    expect(plain.split('\n')[0]).toMatch(/,valid$/);
    const mixed = [row({ hedged_on_error_rate: 0.04, delay_ms: 'p95' }), row({ seed: 2, delay_ms: 20 })];
    const text = formatPointsCsv(mixed);
    const [header, a, b] = text.split('\n');
    expect(header).toMatch(/,valid,hedged_on_error_rate,delay_ms$/);
    expect(a).toMatch(/,true,0\.04000,p95$/);
    expect(b).toMatch(/,true,,20$/);
    const back = parsePointsCsv(text);
    expect(back[0].hedged_on_error_rate).toBe(0.04);
    expect(back[1].hedged_on_error_rate).toBeNull();
    // A percentile delay reads back as its text, a fixed one as a number.
    expect(back.map((r) => r.delay_ms)).toEqual(['p95', 20]);
    expect(formatPointsCsv(back)).toBe(text);
    // A file without the column reads as before: no such field.
    expect(parsePointsCsv(plain)[0]).not.toHaveProperty('hedged_on_error_rate');
  });
});

describe('a percentile delay in the manifest', () => {
  it('reads back as its text, keyed `|d=p95`', () => {
    const entry = {
      key: 'hedge, no budget|0.50|ignore|1|d=p95',
      slug: 'hedge-no-budget_0.50_ignore_s1_dp95',
      config: 'hedge, no budget',
      load: 0.5,
      cancellation: 'ignore',
      seed: 1,
      dims: { delayMs: 'p95' },
      calls: 10,
      state: 'pending',
    };
    const r = parseManifest({
      run: 'r',
      matrix: {},
      points: [entry, { ...entry, key: 'x|d=5', dims: { delayMs: 5 } }],
    });
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.manifest.points.map(entryKey)).toEqual([entry.key, 'hedge, no budget|0.50|ignore|1|d=5']);
  });
});

describe('calls.csv: hedged_on_error', () => {
  it('is the last cell of a point that counts it, and absent otherwise', () => {
    expect(callLine(7, 1, 0, 5, 'failed', 1, 0, 0, Number.NaN)).toBe('7,1.000,0.000,5.000,failed,1,0,0,');
    expect(callLine(7, 1, 0, 5, 'ok', 2, 0, 2, 3, 1)).toBe('7,1.000,0.000,5.000,ok,2,0,2,3.000,1');
    expect(callFields(false)).toBe(CALL_FIELDS);
    expect(callFields(true)).toEqual([...CALL_FIELDS, CALL_HEDGED_ON_ERROR_FIELD]);
  });

  it('reads back from a file with the column, and a file without it has none', () => {
    const withIt = readCallsCsv(
      file('a.calls.csv', callFields(true), [
        callLine(0, 1, 0, 20, 'ok', 2, 0, 2, 3, 1),
        callLine(1, 2, 0, 5, 'ok', 1, 0, 1, 2, 0),
      ]),
    );
    expect([...withIt.hedgedOnError!]).toEqual([1, 0]);
    expect([...withIt.winnerWrittenMs]).toEqual([3, 2]);
    const without = readCallsCsv(file('b.calls.csv', CALL_FIELDS, [callLine(0, 1, 0, 20, 'ok', 2, 0, 2, 3)]));
    expect(without.hedgedOnError).toBeUndefined();
  });
});

describe('attempts.csv: a failed attempt', () => {
  it('ends `failed` and reads back so (no new column: files without failures are as they were)', () => {
    const a = readAttemptsCsv(
      file('a.attempts.csv', ATTEMPT_FIELDS, [
        attemptLine(0, 1, 0, 0, 1, 'failed', 0, 1, 1.2),
        attemptLine(0, 2, 20, 20, 30, 'served', 1, 10, 30.1),
      ]),
    );
    expect(a.ended).toEqual(['failed', 'served']);
  });
});

describe('the pushback header', () => {
  it('names hedgebench, and reads back only a finite number > 0', () => {
    expect(PUSHBACK_HEADER).toBe('hedgebench-pushback-ms');
    expect(parsePushbackMs('250')).toBe(250);
    expect(parsePushbackMs(['12.5'])).toBe(12.5);
    for (const bad of ['0', '-5', 'soon', '', undefined, 'Infinity'])
      expect(parsePushbackMs(bad)).toBeUndefined();
  });
});

describe('the real row of a point that counts hedges on error', () => {
  const matrix = parseMatrix({
    name: 't',
    configs: [{ name: 'now', hedge: { delayMs: 20, loneFailure: 'hedge-now' } }, 'hedge, default budget'],
    loads: [0.5],
    cancellation: ['ignore'],
    seeds: [1],
    calls: 10,
    warmupFraction: 0,
    model: { workers: 2, errorProb: 0.1 },
  });
  const entry = (config: string, slug: string): ManifestPoint => ({
    key: `${config}|0.50|ignore|1`,
    slug,
    config,
    load: 0.5,
    cancellation: 'ignore',
    seed: 1,
    calls: 4,
    calibration: false,
    state: 'done',
  });
  mkdirSync(join(dir, 'run', 'raw'), { recursive: true });
  const runDir = join(dir, 'run');
  const lines = [
    callLine(0, 1, 0, 12, 'ok', 2, 0, 2, 2, 1),
    callLine(1, 5, 0, 10, 'ok', 1, 0, 1, 5, 0),
    callLine(2, 9, 0, 31, 'ok', 2, 0, 2, 29, 0),
    callLine(3, 13, 0, 2, 'failed', 2, 0, 0, Number.NaN, 1),
  ];

  it('has the rate of calls that hedged on a failure, from the calls file', () => {
    writeFileSync(
      join(runDir, 'raw', 'a.calls.csv'),
      `${[callFields(true).join(','), ...lines].join('\n')}\n`,
    );
    const r = realRowFromRaw(runDir, entry('now', 'a'), matrix);
    expect(r.hedged_on_error_rate).toBe(0.5);
    expect(r.hedge_rate).toBe(0.75);
    expect(r.failed_rate).toBe(0.25);
  });

  it('is unknown (empty) when the calls file has no such column', () => {
    const old = lines.map((l) => l.slice(0, l.lastIndexOf(',')));
    writeFileSync(join(runDir, 'raw', 'b.calls.csv'), `${[CALL_FIELDS.join(','), ...old].join('\n')}\n`);
    expect(realRowFromRaw(runDir, entry('now', 'b'), matrix).hedged_on_error_rate).toBeNull();
  });

  it('has a value for a hedged configuration whose model fails attempts, even without hedge-now', () => {
    writeFileSync(
      join(runDir, 'raw', 'c.calls.csv'),
      `${[callFields(true).join(','), ...lines].join('\n')}\n`,
    );
    expect(realRowFromRaw(runDir, entry('hedge, default budget', 'c'), matrix).hedged_on_error_rate).toBe(
      0.5,
    );
  });
});
