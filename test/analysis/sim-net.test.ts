// sim+net on run folders. The main folder is a run "measured" through a known network: its raw files are
// the simulator's own calls and attempts behind a constant 3 ms transport, so sim+net (the simulator with
// the transport its calibration point measured) must reproduce the measurement, and sim (no network) must
// miss the extra hedges the network causes — the gap the report must call the transport, not the model.
// Also: an old-style folder gains sim+net rows with its sim and real lines kept byte for byte, and a
// calibration point with fewer than 100 calls gives no sim+net, with the count.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRunFolder, writeReport } from '../../analysis/index.ts';
import { measuredTransport } from '../../analysis/judge/net-transport.ts';
import { analyzeRun } from '../../analysis/judge/run-analysis.ts';
import { entryPoint } from '../../analysis/read/sim-calls-file.ts';
import {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  type AttemptRecord,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  formatLoad,
  formatPointsCsv,
  type PointRow,
  parseComparisonCsv,
  parsePointsCsv,
  pointSlug,
} from '../../contract/index.ts';
import {
  ArrivalSchedule,
  constantTransport,
  DEFAULT_MODEL,
  type Point,
  parseMatrix,
  referenceConfig,
  TransportSamplesError,
  warmupCalls,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { VERDICT_POINTS, writeFixtureRun } from './fixture.ts';

const D = 3;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function point(config: string, load: number, calls: number): Point {
  return {
    config: referenceConfig(config)!,
    load,
    cancellation: 'ignore',
    seed: 1,
    calls,
    warmupFraction: 0.1,
    model: DEFAULT_MODEL,
  };
}

const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '');

/** Raw files of `p` as if measured: the simulator behind a constant D ms network on every trip. */
function writeMeasured(dir: string, p: Point, withWriteTimes: boolean): void {
  const slug = pointSlug(p);
  const attempts: AttemptRecord[] = [];
  const calls: string[] = [];
  const schedule = ArrivalSchedule.forPoint(p);
  const warm = warmupCalls(p);
  runPoint(p, {
    transport: constantTransport(D),
    onAttempt: (r) => attempts.push(r),
    onCall: (s, latency) => {
      if (s.call < warm) return;
      const intended = schedule.at(s.call);
      // Attempt 1 is written at the intended time; a winning hedge at its hedge delay (20 ms) after it.
      const written = intended + (s.winner > 1 ? 20 * (s.winner - 1) : 0);
      const cells = [s.call, f(intended), '0.000', f(latency), 'ok', s.attempts, s.skipped, s.winner];
      calls.push([...cells, ...(withWriteTimes ? [f(written)] : [])].join(','));
    },
  });
  const fields = (all: readonly string[], added: readonly string[]) =>
    (withWriteTimes ? all : all.filter((c) => !added.includes(c))).join(',');
  const attemptLines = attempts.map((a) => {
    const cells = [
      a.call,
      a.attempt,
      f(a.enqueueMs),
      f(a.startMs),
      f(a.endMs),
      a.ended,
      a.worker,
      f(a.serviceMs),
    ];
    return [...cells, ...(withWriteTimes ? [f(a.respondedMs)] : [])].join(',');
  });
  writeFileSync(
    join(dir, 'raw', `${slug}.calls.csv`),
    `${[fields(CALL_FIELDS, CALL_FIELDS_ADDED), ...calls].join('\n')}\n`,
  );
  writeFileSync(
    join(dir, 'raw', `${slug}.attempts.csv`),
    `${[fields(ATTEMPT_FIELDS, ATTEMPT_FIELDS_ADDED), ...attemptLines].join('\n')}\n`,
  );
  const status = {
    state: 'done',
    summary: {
      valid: true,
      reasons: [],
      selfCheck: { sendLag: { n: 1, p50Ms: 0, p99Ms: 0, maxMs: 0, thresholdMs: 1 } },
    },
  };
  writeFileSync(join(dir, 'raw', `${slug}.status.json`), `${JSON.stringify(status)}\n`);
}

/** A run folder: calibration `no hedge` 0.10, then `no hedge` and `hedge, default budget` at 0.50. */
function writeNetworkRun(withWriteTimes: boolean, declareNetwork = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-simnet-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'raw'));
  const cal = point('no hedge', 0.1, 1000);
  const plain = [point('no hedge', 0.5, 4000), point('hedge, default budget', 0.5, 4000)];
  const rows: PointRow[] = [];
  const entries = [cal, ...plain].map((p, i) => {
    writeMeasured(dir, p, withWriteTimes);
    rows.push(runPoint(p).row);
    return {
      key: `${p.config.name}|${formatLoad(p.load)}|ignore|1`,
      slug: pointSlug(p),
      config: p.config.name,
      load: p.load,
      cancellation: 'ignore',
      seed: 1,
      calls: p.calls,
      calibration: i === 0,
      state: 'done',
    };
  });
  const matrix = {
    name: 'net',
    configs: ['no hedge', 'hedge, default budget'],
    loads: [0.5],
    cancellation: ['ignore'],
    seeds: [1],
    calls: 4000,
    warmupFraction: 0.1,
    calibration: { load: 0.1, calls: 1000 },
    // A 3 ms network fails the default transit check (2 ms): this run declares its network.
    ...(declareNetwork ? { fidelity: { transitP99Ms: 10 } } : {}),
  };
  const manifest = {
    version: 1,
    run: 'net',
    createdAt: '2025-01-01T00:00:00.000Z',
    matrix,
    hosts: 'local',
    points: entries,
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'points.csv'), formatPointsCsv(rows));
  return dir;
}

describe('sim+net on a run measured through a known 3 ms network', () => {
  for (const withWriteTimes of [true, false]) {
    const origin = withWriteTimes ? 'attribution' : 'residence';
    it(`measures the transport from the calibration point (${origin}): ${D} ms each way`, () => {
      const dir = writeNetworkRun(withWriteTimes);
      const a = analyzeRun(dir);
      const m = measuredTransport(a.calibrationPoint!.raw!, a.calibrationPoint!.entry.slug);
      expect(m.origin).toBe(origin);
      expect(m.samples).toBe(900);
      for (const dir of ['request', 'response'] as const) {
        const d = m.transport[dir];
        expect(d.kind).toBe('empirical');
        const s = (d as { samplesMs: Float64Array }).samplesMs;
        // The raw files keep 3 decimals: each sample is D within their rounding.
        expect(s[0]).toBeGreaterThan(D - 0.002);
        expect(s[s.length - 1]).toBeLessThan(D + 0.002);
      }
    });
  }

  it('sim+net agrees with the measurement on every metric; sim misses the hedges the network adds, and the report says the gap is the transport', async () => {
    const dir = writeNetworkRun(true);
    const before = readFileSync(join(dir, 'points.csv'), 'utf8');
    const r = await writeReport(dir);
    const a = r.analysis;
    expect(a.simNet.rows.map((x) => `${x.config} ${x.load}`)).toEqual([
      'no hedge 0.1',
      'no hedge 0.5',
      'hedge, default budget 0.5',
    ]);
    const hedged = a.points.find((p) => p.id.config === 'hedge, default budget')!;
    // The measured latency is the network's 2D on top of the same queue: sim+net's p50 is real's.
    expect(Math.abs(hedged.simNet!.p50_ms! - hedged.real!.p50_ms!)).toBeLessThan(0.02);
    for (const p of a.points) {
      for (const row of p.simNetRows) expect(row.verdict, `${p.key} ${row.metric}`).toBe('agrees');
    }
    const rpc = (rows: typeof hedged.rows) => rows.find((x) => x.metric === 'requests_per_call')!;
    expect(rpc(hedged.rows).verdict).toBe('diverges');
    expect(rpc(hedged.simNetRows).verdict).toBe('agrees');
    expect(rpc(hedged.rows).real!).toBeGreaterThan(rpc(hedged.rows).sim! + 0.05);

    // points.csv: the sim lines exactly as they were, then the sim+net rows.
    const after = readFileSync(join(dir, 'points.csv'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(parsePointsCsv(after).filter((x) => x.source === 'sim+net')).toHaveLength(3);
    const net = parseComparisonCsv(readFileSync(join(dir, 'comparison-net.csv'), 'utf8'));
    expect(net).toHaveLength(7 + 2 * 7);

    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain('## The network in the simulator (sim+net)');
    const line = md
      .split('\n')
      .find((l) => l.includes('hedge, default budget 0.50') && l.includes('requests_per_call'));
    expect(line).toContain('the gap is the transport, not the model');
    expect(line).toContain('diverges / agrees');

    // Compare again: same bytes, the sim+net rows replaced, not added twice.
    const csv = readFileSync(join(dir, 'comparison.csv'), 'utf8');
    compareRunFolder(dir);
    expect(readFileSync(join(dir, 'points.csv'), 'utf8')).toBe(after);
    expect(readFileSync(join(dir, 'comparison.csv'), 'utf8')).toBe(csv);
  });
});

describe('sim+net on other folders', () => {
  it('an invalid point (the network fails the transit check) is still read, by the rules on its numbers', async () => {
    const dir = writeNetworkRun(true, false);
    const r = await writeReport(dir);
    const hedged = r.analysis.points.find((p) => p.id.config === 'hedge, default budget')!;
    expect(hedged.real!.valid).toBe(false);
    expect(hedged.simNetRows.every((x) => x.verdict === 'invalid')).toBe(true);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    const line = md
      .split('\n')
      .find((l) => l.includes('hedge, default budget 0.50') && l.includes('| requests_per_call |'));
    expect(line).toContain('(invalid: rules applied to its numbers)');
    expect(line).toContain('the gap is the transport, not the model');
  });

  it('an old folder gains sim+net rows; its sim and real lines stay byte for byte', () => {
    const dir = writeFixtureRun(VERDICT_POINTS);
    dirs.push(dir);
    compareRunFolder(dir, { rewritePoints: true });
    const first = readFileSync(join(dir, 'points.csv'), 'utf8');
    const old = first
      .split('\n')
      .filter((l) => !l.includes(',sim+net,'))
      .join('\n');
    compareRunFolder(dir);
    const second = readFileSync(join(dir, 'points.csv'), 'utf8');
    expect(second).toBe(first);
    // Without --rewrite-points the non-sim+net lines are kept as written.
    writeFileSync(join(dir, 'points.csv'), old);
    compareRunFolder(dir);
    expect(readFileSync(join(dir, 'points.csv'), 'utf8')).toBe(first);
  });

  it('a calibration point with fewer than 100 calls gives no sim+net, and says how many it had', () => {
    const points = VERDICT_POINTS.map((p) => (p.calibration ? { ...p, calls: 110 } : p));
    const dir = writeFixtureRun(points);
    dirs.push(dir);
    const a = analyzeRun(dir);
    let err: unknown;
    try {
      measuredTransport(a.calibrationPoint!.raw!, a.calibrationPoint!.entry.slug);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TransportSamplesError);
    expect((err as TransportSamplesError).count).toBe(99);
    const r = compareRunFolder(dir);
    expect(r.analysis.simNet.rows).toHaveLength(0);
    expect(r.simNetLine).toMatch(
      /^sim\+net: none \(no transport: HB_TRANSPORT_TOO_FEW_SAMPLES: .*99 samples, at least 100/,
    );
    expect(readFileSync(join(dir, 'comparison.txt'), 'utf8')).toContain(r.simNetLine);
    expect(existsSync(join(dir, 'comparison-net.csv'))).toBe(false);
  });

  it("simulates each entry as the matrix planned it: a swept hedge delay is the point's own", () => {
    const matrix = parseMatrix({
      name: 'sweep',
      configs: ['no hedge', 'hedge, default budget'],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      delaysMs: [5, 40],
      calls: 2000,
    });
    const entry = (config: string, dims?: { delayMs: number }) =>
      ({
        key: '',
        slug: '',
        config,
        load: 0.5,
        cancellation: 'ignore',
        seed: 1,
        calls: 2000,
        state: 'done',
        ...(dims ? { dims } : {}),
      }) as never;
    expect(entryPoint(entry('hedge, default budget', { delayMs: 40 }), matrix)?.config.hedge?.delayMs).toBe(
      40,
    );
    expect(entryPoint(entry('hedge, default budget', { delayMs: 5 }), matrix)?.config.hedge?.delayMs).toBe(5);
    expect(entryPoint(entry('no hedge'), matrix)?.config.hedge).toBeUndefined();
    expect(entryPoint(entry('hedge, no budget'), matrix)).toBeNull();
  });
});
