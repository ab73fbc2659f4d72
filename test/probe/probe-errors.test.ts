// The probe fits a service's own failures (probe/fit-errors.ts): against hedgebench's target server on
// loopback, set to fail 5 % of attempts fast (1 ms, HTTP 503), the share of non-2xx answers at low load is
// model.errorProb — exactly the share the target's counter-based draw fails among the requests sent — their
// latency above the floor model.errorMs; model.json carries both, `recommend` reads them and weighs
// first-completion against first-success. A service that fails by itself shows no knee by failing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptFails, DEFAULT_MODEL } from '../../model/index.ts';
import { fitErrors } from '../../probe/fit-errors.ts';
import {
  createProbe,
  formatRecommendation,
  PROBE_FILES,
  type ProbeResult,
  readModelFile,
  recommend,
  writeProbe,
} from '../../probe/index.ts';
import { tooManyFailures } from '../../probe/ramp.ts';
import { createTargetServer, type TargetServer } from '../../target-server/index.ts';

const ERROR_PROB = 0.05;
const LOW_LOAD = 600;
const SEED = 1;

let server: TargetServer;
let result: ProbeResult;
const out = mkdtempSync(join(tmpdir(), 'hb-probe-errors-'));

beforeAll(async () => {
  server = await createTargetServer({
    workers: 2,
    seed: SEED,
    model: { medianMs: 10, errorProb: ERROR_PROB, errorMs: 1 },
    log: () => {},
  });
  // attempt=1 always, call={n}: request n is call n's first attempt, so the target fails exactly the n the
  // model's draw fails (the same draw the simulator makes).
  result = await createProbe({
    target: `${server.url}/work?call={n}&attempt=1`,
    floorUrl: `${server.url}/healthz`,
    lowLoadRequests: LOW_LOAD,
    stepSeconds: 1.5,
    maxRate: 400,
    maxSeconds: 120,
  }).run();
  await writeProbe(out, result);
}, 150_000);

afterAll(async () => {
  await server?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('probe of a service that fails 5 % of requests fast', () => {
  it('fits errorProb as the share of non-2xx answers at low load, and errorMs as their latency', () => {
    const model = { ...DEFAULT_MODEL, errorProb: ERROR_PROB };
    let failing = 0;
    for (let n = 0; n < LOW_LOAD; n++) if (attemptFails(model, SEED, n, 1)) failing++;
    process.stderr.write(
      `probe of a failing target: ${failing} of ${LOW_LOAD} failing by the draw; fitted ${JSON.stringify(result.model)}, knee ${result.knee}\n`,
    );
    expect(result.lowLoad.n + (result.errors?.failed ?? 0)).toBe(LOW_LOAD);
    expect(result.errors?.failed).toBe(failing);
    expect(result.errors?.statuses).toBe(`HTTP 503 ×${failing}`);
    expect(result.model.errorProb).toBe(Number((failing / LOW_LOAD).toFixed(5)));
    expect(Math.abs(result.model.errorProb! - ERROR_PROB)).toBeLessThan(0.025);
    // The target holds a failing attempt 1 ms; the rest is loopback and the HTTP stack, within a few ms here.
    expect(result.model.errorMs).toBeGreaterThanOrEqual(0);
    expect(result.model.errorMs).toBeLessThan(5);
    expect(result.model.errorMs!).toBeLessThan(result.model.medianMs / 2);
  });

  it('ramped past its own failures to a knee of the queue', () => {
    expect(result.steps.length).toBeGreaterThan(2);
    expect(result.knee).not.toMatch(/^\d+ of \d+ requests failed/);
  });

  it('writes errorProb and errorMs to model.json, the report says so, and recommend weighs the winner rule', () => {
    const model = readModelFile(join(out, PROBE_FILES.model));
    expect(model).toEqual(result.model);
    expect(model).toMatchObject({ errorProb: result.model.errorProb, errorMs: result.model.errorMs });
    const report = readFileSync(join(out, PROBE_FILES.report), 'utf8');
    expect(report).toContain(`| errorProb | ${model.errorProb} (`);
    const r = recommend({
      model,
      load: 0.5,
      maxRequestsPerCall: 1.1,
      calls: 4000,
      delaysMs: [20],
      budgets: [10],
      percentiles: [],
      shapes: false,
    });
    expect(r.baseline.failedRate).toBeGreaterThan(0);
    expect(r.candidates.map((c) => c.config.name)).toContain('hedge 20 ms, budget 10 %, first completion');
    expect(formatRecommendation(r)).toContain('calls failed');
  });
});

describe('the error fit and the ramp’s failure sign', () => {
  it('counts only answers with a status, and takes the floor off their latency', () => {
    const fit = fitErrors(
      { latencies: [10, 11, 12], failedLatencies: [1.5, 1.7], reasons: { 'HTTP 503': 2, timeout: 4 } },
      0.5,
    );
    expect(fit).toEqual({ errorProb: 0.4, errorMs: 1, failed: 2, answers: 5, statuses: 'HTTP 503 ×2' });
    expect(fitErrors({ latencies: [10], failedLatencies: [], reasons: { timeout: 1 } }, 0.5)).toBeNull();
  });

  it('a step fails too often only beyond the service’s own share; without one, as before', () => {
    // Before failures were fitted: more than max(1, 1 % of sent).
    expect(tooManyFailures({ failed: 5, sent: 1000 }, 0)).toBe(false);
    expect(tooManyFailures({ failed: 11, sent: 1000 }, 0)).toBe(true);
    // 5 % of 1 000 = 50 expected, 3 sd ≈ 20.7, + 10: a knee from 81 failures.
    expect(tooManyFailures({ failed: 70, sent: 1000 }, 0.05)).toBe(false);
    expect(tooManyFailures({ failed: 85, sent: 1000 }, 0.05)).toBe(true);
  });
});
