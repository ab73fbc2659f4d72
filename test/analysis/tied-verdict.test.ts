// A tied point's verdict on a run folder (analysis/judge/sim-net.ts, judgedOnReplay). Which copy of a tied call
// runs is a race the harness's µs decide, so the point is judged against the model run on its own measured
// trips, the measurement whole. The "measurement" here is the simulator behind a random network, its holds
// overshooting and its servers handing cancels between threads, written out as two target servers' raw
// files: judged against the replay every metric agrees, where the pure model's pairing cannot say; and a
// target 5 % slower than the model diverges — the replay does not absorb a wrong model.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatSummaryLine } from '../../analysis/index.ts';
import { analyzeRun } from '../../analysis/judge/run-analysis.ts';
import { judgedOnReplay } from '../../analysis/judge/sim-net.ts';
import {
  attemptFields,
  attemptLine,
  CALL_FIELDS,
  formatPointsCsv,
  pointSlug,
  tiedAttemptCells,
} from '../../contract/index.ts';
import {
  ArrivalSchedule,
  DEFAULT_MODEL,
  type Perturbation,
  type Point,
  referenceConfig,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { measureTied, TIED_POINT } from './tied-measurement.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const K = 10;
const TIED: Point = { ...TIED_POINT, dims: { ...TIED_POINT.dims, timeScale: K } };
const CALIBRATION: Point = {
  config: referenceConfig('no hedge')!,
  load: 0.1,
  cancellation: 'ignore',
  seed: 1,
  calls: 1000,
  warmupFraction: 0.1,
  model: DEFAULT_MODEL,
  dims: { timeScale: K },
};
// The servers' epoch origin; a cancel is sent a hand-off after its copy started and decided one after it
// arrived (wall ms: both points run dilated ×10, as a tied point on this machine does, so the records' µs are
// 0.1 model-µs).
const EPOCH = 1_000;
const HAND_OFF_MS = 0.04;

const CLOCK = { offsetMs: 0, uncertaintyMs: 0, rttMs: 0, samples: 32 };
const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '');

/** Raw files of point `p` as if measured (tied-measurement.ts; tied: with its peer cancels), in wall ms. */
function writeMeasured(dir: string, p: Point, perturb?: Perturbation): void {
  const slug = pointSlug(p);
  const tied = p.config.tied !== undefined;
  const { sim, records, service, effect, fate } = measureTied(p, perturb);
  const schedule = ArrivalSchedule.forPoint(p);
  const c = sim.calls!;
  const calls = Array.from(c.call, (call, i) =>
    [
      call,
      f(K * schedule.at(call)),
      '0.000',
      f(K * c.latencyMs[i]),
      'ok',
      c.attempts[i],
      c.skipped[i],
      c.winner[i],
      f(K * schedule.at(call)),
    ].join(','),
  );
  const lines = records.map((r, i) => {
    const cells = [
      r.call,
      r.attempt,
      r.enqueueMs,
      r.startMs,
      r.endMs,
      r.ended,
      r.worker,
      service[i],
      r.respondedMs,
    ] as const;
    if (!tied) return attemptLine(...cells);
    const epoch = (ms: number) => Number((EPOCH + ms).toFixed(3));
    const t = tiedAttemptCells({
      sentMs: epoch(r.startMs + HAND_OFF_MS),
      arrivedMs: fate[i] === undefined ? Number.NaN : epoch(effect[i] - HAND_OFF_MS),
      fate: fate[i],
      decidedMs: fate[i] === undefined ? Number.NaN : epoch(effect[i]),
    });
    return attemptLine(...cells, r.replica ?? 0, t);
  });
  const attemptHeader = attemptFields(tied ? 2 : 1, tied).join(',');
  writeFileSync(join(dir, 'raw', `${slug}.calls.csv`), `${[CALL_FIELDS.join(','), ...calls].join('\n')}\n`);
  writeFileSync(join(dir, 'raw', `${slug}.attempts.csv`), `${[attemptHeader, ...lines].join('\n')}\n`);
  const status = {
    state: 'done',
    summary: {
      valid: true,
      reasons: [],
      selfCheck: { sendLag: { n: 1, p50Ms: 0, p99Ms: 0, maxMs: 0, thresholdMs: 1 } },
      // The servers' clock is the generator's.
      clock: { start: CLOCK, end: CLOCK, driftMs: 0, t0AbsMs: 0 },
    },
    ...(tied ? { target_check: { replicas: [{ clockEpochMs: EPOCH }, { clockEpochMs: EPOCH }] } } : {}),
  };
  writeFileSync(join(dir, 'raw', `${slug}.status.json`), `${JSON.stringify(status)}\n`);
}

/** A run folder: the calibration point, then the tied point measured as `perturb` makes its target. */
function writeTiedRun(perturb?: Perturbation): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-tied-verdict-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'raw'));
  writeMeasured(dir, CALIBRATION);
  writeMeasured(dir, TIED, perturb);
  const entry = (p: Point, calibration: boolean) => ({
    key: `${p.config.name}|0.${String(p.load).slice(2).padEnd(2, '0')}|ignore|1${calibration ? '' : '|r=2'}|x=10`,
    slug: pointSlug(p),
    config: p.config.name,
    load: p.load,
    cancellation: 'ignore',
    seed: 1,
    dims: p.dims,
    calls: p.calls,
    calibration,
    state: 'done',
  });
  const matrix = {
    name: 'tied-verdict',
    configs: [TIED.config],
    loads: [TIED.load],
    replicas: [2],
    timeScale: [K],
    cancellation: ['ignore'],
    seeds: [1],
    calls: TIED.calls,
    warmupFraction: 0.1,
    calibration: { load: CALIBRATION.load, calls: CALIBRATION.calls },
  };
  const manifest = {
    version: 1,
    run: 'tied-verdict',
    createdAt: '2026-12-07T00:00:00.000Z',
    matrix,
    hosts: 'local',
    points: [entry(CALIBRATION, true), entry(TIED, false)],
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'points.csv'), formatPointsCsv([CALIBRATION, TIED].map((p) => runPoint(p).row)));
  return dir;
}

describe('a tied point is judged against the model run on its own measured trips', () => {
  it('every metric agrees with the replay; the summary says the point was judged so', () => {
    const a = analyzeRun(writeTiedRun());
    const p = a.points.find((x) => x.id.config === TIED.config.name)!;
    expect(p.invalidReasons).toEqual([]);
    expect(judgedOnReplay(p)).toBe(true);
    expect(a.summary.replayed).toBe(1);
    expect(formatSummaryLine(a.summary)).toContain(
      '(1 with sim and real, 1 tied of them judged against their replayed trips)',
    );
    for (const r of p.rows) expect(r.verdict, r.metric).toBe('agrees');
    // The verdict's sim column is the replay's, and its lines are sim+net's.
    expect(p.rows.find((r) => r.metric === 'p50')!.sim).toBe(p.simNet!.p50_ms);
    expect(p.rows.map((r) => r.verdict)).toEqual(p.simNetRows.map((r) => r.verdict));
    // The pure model ran other copies of the same calls: paired with it, the tail cannot be told apart.
    const p999 = p.diffs!['p99.9']!;
    expect(p999.high - p999.low).toBeGreaterThan(
      10 * (p.simNetDiffs!['p99.9']!.high - p.simNetDiffs!['p99.9']!.low),
    );
  });

  it('a target 5 % slower than the model diverges through the replay', () => {
    const a = analyzeRun(writeTiedRun({ serviceFactor: 1.05 }));
    const p = a.points.find((x) => x.id.config === TIED.config.name)!;
    expect(judgedOnReplay(p)).toBe(true);
    expect(p.rows.find((r) => r.metric === 'p50')!.verdict).toBe('diverges');
  });
});
