// A real run on the dilated clock, everything on this machine: points.csv speaks model milliseconds while
// raw/ keeps the wall clock's, the target held each attempt k times its model draw — over HTTP/1.1, over
// gRPC (grpc-js's own hedging delay dilated too) and across replicas — and "auto" picks the smallest k its
// measured delays fit, at least 5 when the target's event loop is stalled.
//
// What the machine's load moves (latency above the model's draws, the harness's delays) is never held to a
// fixed upper bound or compared between two runs: a row's model-time percentile is checked against the raw
// wall-clock latencies it was read from (÷ k) and against the drawn service times below it, a replica's
// holds against what it was asked to hold, and "auto"'s k against its own rule applied to what it measured.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRun, readAttemptsCsv, readCallsCsv } from '../../analysis/index.ts';
import { type Manifest, parsePointsCsv, percentileOf, rawPaths } from '../../contract/index.ts';
import {
  DEFAULT_MODEL,
  type FidelityThresholds,
  replicaServiceMs,
  replicaSetupOf,
  serviceTimeMs,
} from '../../model/index.ts';
import { autoProbeLanes, createRun, loadMatrixFile } from '../../orchestrator/index.ts';
import {
  AUTO_MARGIN,
  chooseTimeScale,
  type HarnessDelays,
} from '../../orchestrator/run/time-scale-choice.ts';
import { localRunSuite, QUIET, replicaHoldMeans } from './fixture.ts';

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

/** The ok calls' latencies of a raw calls file (measured calls only, by contract), read into model ms (÷ k). */
function okModelLatencies(path: string, k: number): { call: number[]; ms: number[] } {
  const c = readCallsCsv(path);
  const out = { call: [] as number[], ms: [] as number[] };
  for (let i = 0; i < c.n; i++) {
    if (c.outcome[i] !== 0) continue; // 0 = ok (OUTCOME_CODE)
    out.call.push(c.call[i]);
    out.ms.push(c.latencyMs[i] / k);
  }
  return out;
}

/**
 * The row's p50 is the raw latencies' p50 ÷ k: it lies between the order statistics around the median
 * (HDR's 3 significant digits either side). No bound on how late the machine made the calls.
 */
function expectP50ReadFromRaw(p50: number, modelMs: readonly number[]): void {
  const s = [...modelMs].sort((x, y) => x - y);
  const mid = Math.ceil(s.length / 2);
  expect(p50).toBeGreaterThanOrEqual(s[Math.max(0, mid - 2)] * 0.999 - 0.001);
  expect(p50).toBeLessThanOrEqual(s[Math.min(s.length - 1, mid)] * 1.001 + 0.001);
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
    // The model's median is 10 ms: the simulated p50 sits near it.
    expect(sim.p50_ms).toBeGreaterThan(9);
    expect(sim.p50_ms).toBeLessThan(12);
    const paths = rawPaths(runDir, entry.slug);
    // The real p50 is in model ms: the raw wall-clock latencies ÷ 5 …
    const ok = okModelLatencies(paths.calls, 5);
    expectP50ReadFromRaw(real.p50_ms!, ok.ms);
    // … and no call beats what the target was asked to hold: its first attempt's draw, or the 20 ms hedge
    // delay before a second attempt could start (model ms); model ms read again ÷ 5 would fall below it.
    const asked = ok.call.map((c) => Math.min(serviceTimeMs(DEFAULT_MODEL, 3, c, 1), 20));
    expect(real.p50_ms!).toBeGreaterThanOrEqual(percentileOf(asked, 50) * 0.999);

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
    const paths = rawPaths(runDir, manifest.points[0].slug);
    // Median 10 ms: at least that in model time (the latency's upper side depends on the machine's load),
    // read from the raw wall-clock latencies ÷ 5.
    expect(real.p50_ms).toBeGreaterThan(8);
    expectP50ReadFromRaw(real.p50_ms!, okModelLatencies(paths.calls, 5).ms);
    // Each target held k × its replica's draw (wall ms in raw/): replica 0's twice the other's.
    const setup = replicaSetupOf(manifest.points[0].dims);
    const a = readAttemptsCsv(paths.attempts);
    for (let i = 0; i < a.n; i++) {
      const want = replicaServiceMs(DEFAULT_MODEL, setup, 3, a.call[i], a.attempt[i], a.replica![i]);
      expect(Math.abs(a.serviceMs[i] - 5 * want)).toBeLessThan(0.005);
    }
    // Mean hold in model ms: what each replica was asked to hold (the draws of the measured calls' attempts
    // it started, ÷ 5) plus the timer's overshoot — not 5 × it, nor ÷ 5 again. Which calls land on which
    // replica is the balancer's luck, so the two replicas' means are not compared with each other.
    const means = replicaHoldMeans(paths, 2, 5);
    const [p] = analyzeRun(runDir).points;
    const [slow, fast] = p.replicas!;
    expect(slow.slow).toBe(true);
    expect(fast.slow).toBe(false);
    for (const r of p.replicas!) {
      expect(r.meanHoldMs!).toBeGreaterThanOrEqual(means.askedMs[r.replica] - 0.01);
      expect(r.meanHoldMs!).toBeCloseTo(means.heldMs[r.replica], 6);
    }
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
    rows.forEach((r, i) => {
      // Median 10 ms: at least that in model time, read from the raw wall-clock latencies ÷ 5 (the upper
      // side is the machine's load).
      expect(r.p50_ms).toBeGreaterThan(8);
      expectP50ReadFromRaw(
        r.p50_ms!,
        okModelLatencies(rawPaths(runDir, manifest.points[i].slug).calls, 5).ms,
      );
      // Hedged at 20 model-ms, the stragglers (100–300 ms) are cut to about 20 + a fresh draw.
      expect(r.requests_per_call!).toBeGreaterThan(1);
    });
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
  it('picks the smallest k its measured delays fit: k ≥ 5 against a target whose event loop stalls', async () => {
    // A 200 ms stall of the target's event loop every 250 ms holds most responses up to 200 ms, so their
    // delay's p99 is near 200 ms: above 0.8 × 100 ms × 2, no k below 5 fits it. What the quiet target's
    // delays are is the machine's; its k is only held to the rule (on a quiet machine 1 or 2).
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
    // Each run's k is the rule applied to the delays it recorded, measured on the lanes the run may use (its
    // point and its calibration point: 2 lanes on 2 cores) …
    const lanes = await autoProbeLanes(await loadMatrixFile(join(suite.dir, 'auto-q.json')), {}, undefined);
    for (const r of [quiet, stalled]) {
      const c = r.manifest.timeScaleChoice!;
      expect(c.lanes).toBe(lanes);
      const rule = chooseTimeScale(c.delays as unknown as HarnessDelays, auto.fidelity as FidelityThresholds);
      expect([c.k, c.readingK]).toEqual([rule.k, rule.readingK]);
      if (lanes > 1) expect(c.reason).toMatch(`the worst of ${lanes} lanes measured at once`);
      expect(r.outcome.exitCode).toBe(0);
    }
    // … and the stall was measured for what it was asked to be, which the rule cannot fit below k = 5.
    const ks = stalled.manifest.timeScaleChoice!.k;
    expect(stalled.manifest.timeScaleChoice!.delays.responseDelayP99Ms).toBeGreaterThan(
      2 * AUTO_MARGIN * 100,
    );
    expect(ks).toBeGreaterThanOrEqual(5);
    expect(stalled.manifest.timeScaleChoice!.reason).toMatch(new RegExp(`^time scale ${ks}: `));
    // The report says the run was dilated and that "auto" chose it, with the evidence.
    expect(readFileSync(join(stalled.runDir, 'report.md'), 'utf8')).toContain(
      `"auto" chose it before the points (manifest.json \`timeScaleChoice\`): time scale ${ks}: `,
    );
    // The chosen k is the run's: its points carry it.
    expect(stalled.manifest.points.every((p) => (p.dims?.timeScale ?? 1) === ks)).toBe(true);
  }, 300_000);
});
