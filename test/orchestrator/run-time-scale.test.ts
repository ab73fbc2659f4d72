// A real run on the dilated clock, everything on this machine: points.csv speaks model milliseconds while
// raw/ keeps the wall clock's, the target held each attempt k times its model draw — over HTTP/1.1, over
// gRPC (grpc-js's own hedging delay dilated too) and across replicas — and "auto" picks a larger k when the
// target's event loop is stalled than when it is not.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRun, readAttemptsCsv, readCallsCsv } from '../../analysis/index.ts';
import { type Manifest, parsePointsCsv, rawPaths } from '../../contract/index.ts';
import { DEFAULT_MODEL, serviceTimeMs } from '../../model/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { localRunSuite, QUIET } from './fixture.ts';

const suite = localRunSuite('hb-x-');

function matrix(name: string, extra: object): string {
  const file = join(suite.dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      configs: ['hedge, no budget'],
      loads: [0.3],
      cancellation: ['ignore'],
      seeds: [3],
      calls: 300,
      ...extra,
    }),
  );
  return file;
}

async function run(file: string, out: string) {
  const r = await createRun({
    matrixFile: file,
    out: join(suite.dir, out),
    redisUrl: suite.redisUrl,
    cwd: suite.dir,
    stderr: QUIET,
    stdout: QUIET,
  });
  const outcome = await r.execute();
  const manifest = JSON.parse(readFileSync(join(r.runDir, 'manifest.json'), 'utf8')) as Manifest;
  return { runDir: r.runDir, outcome, manifest };
}

describe('hedgebench run at time scale 5', () => {
  it('writes model-time rows from wall-clock raw files', async () => {
    const { runDir, outcome, manifest } = await run(
      matrix('x5', { timeScale: [5], calibration: false }),
      'run-x5',
    );
    expect(outcome).toMatchObject({ exitCode: 0, done: 1 });
    const entry = manifest.points[0];
    expect(entry.key).toBe('hedge, no budget|0.30|ignore|3|x=5');
    const rows = parsePointsCsv(readFileSync(join(runDir, 'points.csv'), 'utf8'));
    const real = rows.find((r) => r.source === 'real')!;
    const sim = rows.find((r) => r.source === 'sim')!;
    expect(real.time_scale).toBe(5);
    // The model's median is 10 ms: model-time p50 sits near it, wall-clock p50 near 50 ms.
    expect(real.p50_ms).toBeGreaterThan(9);
    expect(real.p50_ms).toBeLessThan(15);
    expect(sim.p50_ms).toBeGreaterThan(9);
    expect(sim.p50_ms).toBeLessThan(12);

    const paths = rawPaths(runDir, entry.slug);
    const calls = readCallsCsv(paths.calls);
    // One known call: the slowest, whose raw latency is k × the row's max (HDR's 3 digits).
    let slowest = 0;
    for (let i = 1; i < calls.n; i++) if (calls.latencyMs[i] > calls.latencyMs[slowest]) slowest = i;
    expect(calls.latencyMs[slowest] / 5).toBeCloseTo(real.max_ms!, 0);
    // And the target held its attempts for k × the model's draw (wall-clock ms in raw/).
    const attempts = readAttemptsCsv(paths.attempts);
    const j = attempts.ended.indexOf('served');
    const drawn = serviceTimeMs(DEFAULT_MODEL, 3, attempts.call[j], attempts.attempt[j]);
    expect(attempts.serviceMs[j]).toBeCloseTo(5 * drawn, 3);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/This run was dilated: time scale 5/);
  }, 120_000);
});

/** Per call, the wall-clock ms between the server's arrival of attempt 1 and of attempt 2 (hedged calls only). */
function hedgeGapsMs(path: string): number[] {
  const a = readAttemptsCsv(path);
  const first = new Map<number, number>();
  for (let i = 0; i < a.n; i++) if (a.attempt[i] === 1) first.set(a.call[i], a.enqueueMs[i]);
  const gaps: number[] = [];
  for (let i = 0; i < a.n; i++) {
    const t1 = first.get(a.call[i]);
    if (a.attempt[i] === 2 && t1 !== undefined) gaps.push(a.enqueueMs[i] - t1);
  }
  return gaps;
}

describe('replicas and gRPC at time scale 5', () => {
  it('reads two replicas back in model time, the slow one twice as slow, beside the simulation', async () => {
    const { runDir, outcome, manifest } = await run(
      matrix('x5-r', {
        timeScale: [5],
        calibration: false,
        replicas: [2],
        correlation: [0],
        slowReplica: [2],
      }),
      'run-x5-r',
    );
    expect(outcome).toMatchObject({ exitCode: 0, done: 1 });
    expect(manifest.points[0].key).toBe('hedge, no budget|0.30|ignore|3|r=2|s=2|x=5');
    const real = parsePointsCsv(readFileSync(join(runDir, 'points.csv'), 'utf8')).find(
      (r) => r.source === 'real',
    )!;
    expect(real.time_scale).toBe(5);
    // Median 10 ms: at least that in model time (the latency's upper side depends on the machine's load;
    // the holds below, the target's own service times, do not).
    expect(real.p50_ms).toBeGreaterThan(8);
    const [p] = analyzeRun(runDir).points;
    const [slow, fast] = p.replicas!;
    expect(slow.slow).toBe(true);
    // Mean hold in model ms: the fast replica near the model's mean service time (≈ 14 ms), not 5 × it.
    expect(fast.meanHoldMs!).toBeGreaterThan(8);
    expect(fast.meanHoldMs!).toBeLessThan(30);
    expect(slow.meanHoldMs! / fast.meanHoldMs!).toBeGreaterThan(1.4);
    const report = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(report).toMatch(/\| replica \| attempts \| utilisation \| sim utilisation \|/);
    expect(report).toMatch(/This run was dilated: time scale 5/);
  }, 120_000);

  it("dilates the library's hedge delay and grpc-js's hedgingDelay alike over gRPC", async () => {
    const { runDir, outcome, manifest } = await run(
      matrix('x5-g', {
        timeScale: [5],
        calibration: false,
        transport: ['grpc'],
        configs: [
          'hedge, no budget',
          { name: 'grpc-js', grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } },
        ],
      }),
      'run-x5-g',
    );
    expect(outcome).toMatchObject({ exitCode: 0, done: 2 });
    const rows = parsePointsCsv(readFileSync(join(runDir, 'points.csv'), 'utf8')).filter(
      (r) => r.source === 'real',
    );
    expect(rows.map((r) => [r.hedger ?? null, r.time_scale])).toEqual([
      [null, 5],
      ['grpc-js', 5],
    ]);
    for (const r of rows) {
      expect(r.p50_ms).toBeGreaterThan(8);
      expect(r.p50_ms).toBeLessThan(20);
      // Hedged at 20 model-ms, the stragglers (100–300 ms) are cut to about 20 + a fresh draw.
      expect(r.requests_per_call!).toBeGreaterThan(1);
    }
    // Both hedgers sent their hedge 20 model-ms = 100 wall-ms after the first attempt. The server's arrivals
    // add each attempt's transit (tens of ms apart on a busy machine), so the median gap is what is held.
    for (const entry of manifest.points) {
      const gaps = hedgeGapsMs(rawPaths(runDir, entry.slug).attempts).sort((x, y) => x - y);
      expect(gaps.length).toBeGreaterThan(0);
      expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThan(60);
    }
  }, 120_000);
});

describe('timeScale "auto"', () => {
  it('picks a larger k against a target whose event loop stalls than against a quiet one', async () => {
    // Thresholds loose enough that a quiet target keeps k = 1 or 2 even on a loaded machine, while a
    // 200 ms stall of the target's event loop (every 250 ms) cannot fit them below k = 5.
    const auto = {
      timeScale: 'auto',
      calls: 100,
      calibration: { load: 0.1, calls: 150 },
      fidelity: { transitP99Ms: 100, responseDelayP99Ms: 100, holdOvershootP99Ms: 50, sendLagP99Ms: 50 },
    };
    const quiet = await run(matrix('auto-q', auto), 'run-auto-q');
    process.env.HEDGEBENCH_TEST_STALL_MAIN_MS = '200';
    process.env.HEDGEBENCH_TEST_STALL_EVERY_MS = '250';
    let stalled: Awaited<ReturnType<typeof run>>;
    try {
      stalled = await run(matrix('auto-s', auto), 'run-auto-s');
    } finally {
      delete process.env.HEDGEBENCH_TEST_STALL_MAIN_MS;
      delete process.env.HEDGEBENCH_TEST_STALL_EVERY_MS;
    }
    const kq = quiet.manifest.timeScaleChoice!.k;
    const ks = stalled.manifest.timeScaleChoice!.k;
    expect(ks).toBeGreaterThan(kq);
    expect(ks).toBeGreaterThanOrEqual(5);
    expect(stalled.manifest.timeScaleChoice!.delays.responseDelayP99Ms).toBeGreaterThan(100);
    expect(stalled.manifest.timeScaleChoice!.reason).toMatch(new RegExp(`^time scale ${ks}: `));
    // The chosen k is the run's: its points carry it.
    expect(stalled.manifest.points.every((p) => (p.dims?.timeScale ?? 1) === ks)).toBe(true);
    expect(stalled.outcome.exitCode).toBe(0);
  }, 300_000);
});
