// A small hand-built run folder for the analysis tests: manifest.json, points.csv (sim rows) and raw files
// written from deterministic synthetic calls, so every expected number can be derived by hand.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  emptySimCalls,
  formatLoad,
  formatPointsCsv,
  formatSimCallsCsv,
  formatStatusJson,
  type LoadSummary,
  type PointRow,
  RowBuilder,
  SIM_CALLS_DIR,
  type SimCalls,
  simCallsPath,
} from '../../contract/index.ts';
import { uniformOpen } from '../../model/index.ts';

/** One synthetic point of the fixture. */
export interface FixturePoint {
  config: string;
  load: number;
  calls: number;
  calibration?: boolean;
  state?: 'done' | 'failed' | 'pending';
  /** Added to every real latency (the harness's overhead), ms. */
  overheadMs?: number;
  /** Queue wait grows by this per call (ms): a collapsing point. */
  growthMs?: number;
  /** The generator's self-check result. */
  valid?: boolean;
  /** Multiplies the simulated latencies (to make a point diverge on purpose). */
  simScale?: number;
  /** Write no raw files (a failed point). */
  noRaw?: boolean;
  /** Write raw files as hedgebench wrote them before attribution (no winner write time, no response time). */
  legacy?: boolean;
}

/** A run with every verdict kind, a calibration point and a failed point (report and golden tests). */
export const VERDICT_POINTS: readonly FixturePoint[] = [
  { config: 'no hedge', load: 0.1, calls: 1000, calibration: true },
  { config: 'no hedge', load: 0.5, calls: 3000 },
  { config: 'no hedge', load: 0.95, calls: 3000, simScale: 2 },
  { config: 'hedge, default budget', load: 0.5, calls: 3000 },
  { config: 'hedge, default budget', load: 0.95, calls: 3000, growthMs: 0.5 },
  { config: 'hedge, no budget', load: 0.5, calls: 3000, state: 'failed', noRaw: true },
  // Raw files from before attribution: readers must keep reading them (the point is invalid either way).
  { config: 'hedge, no budget', load: 0.95, calls: 3000, valid: false, legacy: true },
];

export const WORKERS = 16;
const WARMUP = 0.1;

export function slugOf(p: Pick<FixturePoint, 'config' | 'load'>): string {
  return `${p.config.toLowerCase().replace(/[^a-z0-9]+/g, '-')}_${formatLoad(p.load)}_ignore_s1`;
}

/** Deterministic service time (ms) of call i: log-normal, median 10, sigma 0.25 (Box–Muller). */
export function serviceMs(i: number): number {
  const z =
    Math.sqrt(-2 * Math.log(uniformOpen(7, 3, i, 1))) * Math.cos(2 * Math.PI * uniformOpen(7, 4, i, 1));
  return 10 * Math.exp(0.25 * z);
}

interface SyntheticAttempt {
  /** When the generator wrote its request (ms from t0), and the server's enqueue, start, end, response. */
  written: number;
  enqueue: number;
  start: number;
  end: number;
  responded: number;
}

interface SyntheticCall {
  call: number;
  intended: number;
  /** Intended start → response read (the harness's parts included). */
  latency: number;
  /** The same call on a free harness: what the simulator says. */
  modelLatency: number;
  winner: number;
  attempts: SyntheticAttempt[];
}

/**
 * Synthetic calls whose harness adds `overheadMs` to every one, split as the attribution splits it: send lag
 * 10 %, request transit 40 %, response delay 10 %, response transit 40 % (no clock offset: the two transits
 * read as one round trip). Without the overhead, the model's latency: hedge wait + queue + service.
 */
function synthesize(p: FixturePoint, overheadMs: number): SyntheticCall[] {
  const out: SyntheticCall[] = [];
  const hedged = p.config !== 'no hedge';
  const [lag, req, respond, back] = [0.1, 0.4, 0.1, 0.4].map((f) => f * overheadMs);
  let t = 0;
  for (let i = 0; i < p.calls; i++) {
    t += -Math.log(uniformOpen(7, 1, i, 0)) * (10 / (p.load * WORKERS));
    const wait = (p.growthMs ?? 0) * i;
    const attempt = (after: number, service: number): SyntheticAttempt => {
      const written = t + lag + after;
      const enqueue = written + req;
      return {
        written,
        enqueue,
        start: enqueue + wait,
        end: enqueue + wait + service,
        responded: Number.NaN,
      };
    };
    const s = serviceMs(i);
    const attempts = [attempt(0, s)];
    // A hedge after 14 ms that takes 8 ms wins over a first attempt slower than 22 ms; the loser keeps its
    // worker (ignore mode) and is not answered.
    if (hedged && s > 14) attempts.push(attempt(14, 8));
    const winner = attempts.length === 2 && s > 22 ? 2 : 1;
    const w = attempts[winner - 1];
    w.responded = w.end + respond;
    out.push({
      call: i,
      intended: t,
      latency: w.responded + back - t,
      modelLatency: (winner === 2 ? 14 : 0) + wait + (winner === 2 ? 8 : s),
      winner,
      attempts,
    });
  }
  return out;
}

/** The simulated calls of a fixture point: the model's latencies × simScale, every attempt's service as busy. */
function simCallsOf(p: FixturePoint, calls: SyntheticCall[]): SimCalls {
  const warm = Math.floor(p.calls * WARMUP);
  const measured = calls.filter((c) => c.call >= warm);
  const out = emptySimCalls(measured.length);
  measured.forEach((c, j) => {
    out.call[j] = c.call;
    out.latencyMs[j] = c.modelLatency * (p.simScale ?? 1);
    out.attempts[j] = c.attempts.length;
    out.winner[j] = c.winner;
    out.busyMs[j] = c.attempts.reduce((b, a) => b + (a.end - a.start), 0);
  });
  return out;
}

/** The sim row a fixture point gets: its simulated calls through the RowBuilder. */
function simRow(p: FixturePoint, calls: SyntheticCall[]): PointRow {
  const b = new RowBuilder({
    config: p.config,
    load: p.load,
    cancellation: 'ignore',
    seed: 1,
    source: 'sim',
    calls: p.calls,
    workers: WORKERS,
  });
  const sim = simCallsOf(p, calls);
  let busy = 0;
  for (let j = 0; j < sim.n; j++) {
    b.addCall(sim.latencyMs[j], 'ok', sim.attempts[j], 0);
    busy += sim.busyMs[j];
  }
  const warm = Math.floor(p.calls * WARMUP);
  const span = calls[calls.length - 1].intended - calls[warm].intended;
  return b.finish({
    busyMs: busy,
    spanMs: span,
    collapsed: (p.growthMs ?? 0) > 0,
    sendLagP99Ms: null,
    valid: true,
  });
}

const f3 = (x: number) => x.toFixed(3);

/** Writes a run folder with the given points (seed 1, ignore mode) and returns its path. */
export function writeFixtureRun(points: readonly FixturePoint[], name = 'fixture'): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-analysis-'));
  mkdirSync(join(dir, 'raw'));
  const plain = points.filter((p) => !p.calibration);
  const matrix = {
    name,
    configs: [...new Set(plain.map((p) => p.config))],
    loads: [...new Set(plain.map((p) => p.load))],
    cancellation: ['ignore'],
    seeds: [1],
    calls: plain[0].calls,
    warmupFraction: WARMUP,
    calibration: points.some((p) => p.calibration)
      ? { load: points.find((p) => p.calibration)!.load, calls: points.find((p) => p.calibration)!.calls }
      : false,
  };
  const rows: PointRow[] = [];
  const entries = points.map((p) => {
    const slug = slugOf(p);
    const state = p.state ?? 'done';
    const calls = synthesize(p, p.overheadMs ?? 0.5);
    rows.push(simRow(p, calls));
    if (!p.noRaw) writeRaw(dir, slug, p, calls);
    // The simulated calls the verdict pairs with the measured ones, as the analysis caches them.
    mkdirSync(join(dir, SIM_CALLS_DIR), { recursive: true });
    writeFileSync(simCallsPath(dir, slug), formatSimCallsCsv(simCallsOf(p, calls)));
    return {
      key: `${p.config}|${formatLoad(p.load)}|ignore|1`,
      slug,
      config: p.config,
      load: p.load,
      cancellation: 'ignore',
      seed: 1,
      calls: p.calls,
      calibration: p.calibration === true,
      state,
      ...(state === 'failed' ? { reason: 'the load generator exited with code 1' } : {}),
    };
  });
  const manifest = {
    version: 1,
    run: name,
    createdAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:05:00.000Z',
    gitCommit: 'abc1234',
    node: 'v20.20.0',
    machine: { cpus: 2, memGiB: 4, os: 'linux', hostname: 'test' },
    matrix,
    hosts: 'local',
    points: entries,
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'points.csv'), formatPointsCsv(rows));
  return dir;
}

function writeRaw(dir: string, slug: string, p: FixturePoint, calls: SyntheticCall[]): void {
  const warm = Math.floor(p.calls * WARMUP);
  const legacyFiles = p.legacy === true;
  const cell = (x: number) => (Number.isNaN(x) ? '' : f3(x));
  const callLines = calls
    .filter((c) => c.call >= warm)
    .map((c) => {
      const fields = [c.call, f3(c.intended), f3(c.attempts[0].written - c.intended), f3(c.latency), 'ok'];
      fields.push(c.attempts.length, 0, c.winner);
      if (!legacyFiles) fields.push(f3(c.attempts[c.winner - 1].written));
      return fields.join(',');
    });
  const header = (fields: readonly string[], added: readonly string[]) =>
    legacyFiles ? legacy(fields, added) : fields.join(',');
  writeFileSync(
    join(dir, 'raw', `${slug}.calls.csv`),
    `${[header(CALL_FIELDS, CALL_FIELDS_ADDED), ...callLines].join('\n')}\n`,
  );
  const attemptLines = calls.flatMap((c) =>
    c.attempts.map((a, k) => {
      const fields = [c.call, k + 1, f3(a.enqueue), f3(a.start), f3(a.end), 'served', k, f3(a.end - a.start)];
      if (!legacyFiles) fields.push(cell(a.responded));
      return fields.join(',');
    }),
  );
  writeFileSync(
    join(dir, 'raw', `${slug}.attempts.csv`),
    `${[header(ATTEMPT_FIELDS, ATTEMPT_FIELDS_ADDED), ...attemptLines].join('\n')}\n`,
  );
  const collapsed = (p.growthMs ?? 0) > 0;
  // The generator samples in flight in seconds since its t0 (LoadSummary.inflight.timeline).
  const timeline = calls
    .filter((_, i) => i % 10 === 0)
    .map((c): [number, number] => [Math.round(c.intended) / 1000, collapsed ? c.call : 3]);
  const measured = calls.length - warm;
  const reasons = p.valid === false ? ['send-lag p99 2.5 ms exceeds the threshold 1 ms'] : [];
  const summary: LoadSummary = {
    state: 'done',
    error: null,
    target: 'http://127.0.0.1:1',
    config: p.config,
    load: p.load,
    seed: 1,
    calls: p.calls,
    warmupCalls: warm,
    sent: p.calls,
    completed: p.calls,
    abandoned: 0,
    measured: { ok: measured, rejected: 0, failed: 0, hedged: 0, skipped: 0 },
    attemptsUnwritten: 0,
    attemptFailures: {},
    latency: { p50Ms: null, p99Ms: null, maxMs: null },
    overhead: null,
    durationMs: 1000,
    cpuCores: 0.1,
    dispatchLag: { p50Ms: 0.01, p99Ms: 0.02, maxMs: 0.03 },
    selfCheck: {
      sendLag: { n: measured, p50Ms: 0.05, p99Ms: 0.4, maxMs: 1.2, thresholdMs: 1 },
      rate: {
        targetPerS: 100,
        achievedPerS: 100,
        schedulePerS: 100,
        errorVsTarget: 0,
        errorVsSchedule: 0,
        tolerance: 0.02,
        toleranceVsTarget: 0.02,
      },
      arrivals: { test: 'anderson-darling', sampleSize: 100, statistic: 0.5, critical: 5, passed: true },
      valid: p.valid ?? true,
      reasons,
    },
    inflight: { max: collapsed ? p.calls : 3, cap: 20_000, timeline },
    collapsed,
    collapseReason: collapsed ? 'in-flight attempts reached the cap 20000' : null,
    recorder: { written: calls.length, dropped: 0, failedBatches: 0 },
    clock: null,
    valid: p.valid ?? true,
    reasons,
  };
  writeFileSync(join(dir, 'raw', `${slug}.status.json`), formatStatusJson({ state: 'done', summary }));
}

// The header of a raw file as hedgebench wrote it before attribution.
function legacy(fields: readonly string[], added: readonly string[]): string {
  return fields.filter((f) => !added.includes(f)).join(',');
}

/** A points.csv row of the study's shape with the given overrides (hand-made verdict cases). */
export function pointRow(source: 'sim' | 'real', over: Partial<PointRow> = {}): PointRow {
  return {
    config: 'hedge, default budget',
    load: 0.5,
    cancellation: 'ignore',
    seed: 1,
    source,
    calls: 1000,
    measured_calls: 900,
    p50_ms: 10,
    p90_ms: 15,
    p99_ms: 40,
    p999_ms: 120,
    max_ms: 250,
    mean_ms: 11,
    requests_per_call: 1.05,
    hedge_rate: 0.05,
    skipped_rate: 0,
    rejected_rate: 0,
    failed_rate: 0,
    utilization: 0.52,
    collapsed: false,
    send_lag_p99_ms: source === 'real' ? 0.3 : null,
    valid: true,
    ...over,
  };
}
