// The embedded default end to end: real redis-server, real target server and load generator processes
// on this machine, a tiny matrix; every point gets a sim and a real row, raw files, and no Redis key or
// agent process outlives the run.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attribute,
  readAttemptsCsv,
  readCallsCsv,
  readStatusJson,
  residualMs,
} from '../../analysis/index.ts';
import {
  ATTEMPT_FIELDS,
  CALL_FIELDS,
  type Manifest,
  OUTCOME_CODE,
  parsePointsCsv,
} from '../../contract/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { CLOCK_TIMEOUT_MS } from '../../runtime/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import {
  processesMentioning,
  requireBuild,
  rmTemp,
  runLog,
  tempDir,
  until,
  writeTinyMatrix,
} from './fixture.ts';

let dir: string;
let redisServer: RedisProcess;
let redis: Redis;

beforeAll(async () => {
  requireBuild();
  dir = tempDir();
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
});

afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
  rmTemp(dir);
});

const quiet = { write: () => true };

describe('hedgebench run, everything on this machine', () => {
  it('measures and simulates every point, writes raw files, and leaves no key and no agent behind', async () => {
    const matrixFile = writeTinyMatrix(dir, { cancellation: ['ignore', 'propagate'] });
    const out = join(dir, 'run-a');
    const run = await createRun({
      matrixFile,
      out,
      redisUrl: redisServer.url,
      cwd: dir,
      stderr: quiet,
      stdout: quiet,
    });
    expect(run.plan).toHaveLength(4);
    const running = run.execute();
    // The run's secrets, read while they exist: the token file goes away at the end.
    const tokenFile = join(out, 'work', 'target', 'target.token');
    await until(() => existsSync(tokenFile), 30_000, 'the token file');
    const token = readFileSync(tokenFile, 'utf8').trim();
    const outcome = await running;

    expect(outcome).toMatchObject({ exitCode: 0, done: 4, failed: 0, pending: 0, interrupted: null });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.points.map((p) => p.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(manifest.hosts).toBe('local');
    expect(manifest.finishedAt).toBeDefined();
    expect((manifest.matrix as { calls: number }).calls).toBe(300);

    const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
    for (const p of manifest.points) {
      const mine = rows.filter(
        (r) => `${r.config}|${r.load.toFixed(2)}|${r.cancellation}|${r.seed}` === p.key,
      );
      expect(mine.map((r) => r.source).sort()).toEqual(['real', 'sim']);
      const real = mine.find((r) => r.source === 'real')!;
      expect(real.measured_calls).toBe(270); // 300 calls, the first 10 % not measured

      const calls = readFileSync(join(out, 'raw', `${p.slug}.calls.csv`), 'utf8')
        .trim()
        .split('\n');
      expect(calls[0]).toBe(CALL_FIELDS.join(','));
      expect(calls).toHaveLength(1 + 270);
      const attempts = readFileSync(join(out, 'raw', `${p.slug}.attempts.csv`), 'utf8')
        .trim()
        .split('\n');
      expect(attempts[0]).toBe(ATTEMPT_FIELDS.join(','));
      expect(attempts.length).toBeGreaterThan(270);
      const status = JSON.parse(readFileSync(join(out, 'raw', `${p.slug}.status.json`), 'utf8'));
      expect(status.state).toBe('done');
      // The target's own check of the point travels with it.
      expect(status.target_check.holdErrorMs.count).toBeGreaterThanOrEqual(300);
      expect(status.target_check.responseDelayMs.count).toBeGreaterThan(0);

      // Attribution: every ok call splits into parts that add up to its measured latency (3-decimal files).
      const raw = (ext: string) => join(out, 'raw', `${p.slug}.${ext}`);
      const c = readCallsCsv(raw('calls.csv'));
      const st = readStatusJson(raw('status.json'));
      const at = attribute(c, readAttemptsCsv(raw('attempts.csv')), st);
      const ok = c.outcome.filter((o) => o === OUTCOME_CODE.ok).length;
      expect(at.missing).toBe(0);
      // The generator measured the clock offset to the target at both ends of the point.
      expect(at.offset).not.toBeNull();
      // Its uncertainty is what the two measurements say: half the best round trip of each (got within the
      // exchange's time bound), plus half the drift between them. How short this machine's round trips
      // are is its own (bench/), not held to a fixed bound here.
      const { start, end } = st!.summary!.clock!;
      for (const m of [start!, end!]) {
        expect(m.samples).toBeGreaterThan(0);
        expect(Math.abs(m.uncertaintyMs - m.rttMs / 2)).toBeLessThan(0.002);
        expect(m.rttMs).toBeLessThanOrEqual(CLOCK_TIMEOUT_MS);
      }
      const drift = Math.abs(end!.offsetMs - start!.offsetMs);
      expect(at.offset!.uncertaintyMs).toBeCloseTo(
        Math.max(start!.uncertaintyMs, end!.uncertaintyMs) + drift / 2,
        3,
      );
      expect(at.n).toBe(ok);
      for (let k = 0; k < at.n; k++) expect(Math.abs(residualMs(at, k))).toBeLessThan(0.01);
      // Nothing the harness adds can be negative beyond the 1 µs rounding of the files (transit aside,
      // which the clock offset's uncertainty may tip either way). The response delay spans two threads of
      // the target: the pool thread's clock is shifted onto the main thread's, a few µs off at most.
      expect(Math.min(...at.parts.overshoot)).toBeGreaterThanOrEqual(-0.002);
      expect(Math.min(...at.parts.response_delay)).toBeGreaterThanOrEqual(-0.05);
      expect(Math.min(...at.transit)).toBeGreaterThan(0);
      // Each way of the trip takes time; the offset can misplace it by at most its uncertainty.
      const slack = at.offset!.uncertaintyMs + 0.002;
      expect(Math.min(...at.parts.request_transit)).toBeGreaterThan(-slack);
      expect(Math.min(...at.parts.response_transit)).toBeGreaterThan(-slack);
    }
    expect(existsSync(join(out, 'comparison.csv'))).toBe(true);
    const attribution = readFileSync(join(out, 'attribution.csv'), 'utf8').trim().split('\n');
    expect(attribution[0]).toBe('config,load,cancellation,seed,part,n,p50_ms,p99_ms,p999_ms,max_ms,mean_ms');
    // 4 points × (8 parts + latency, transit, latency without harness, sim latency).
    expect(attribution).toHaveLength(1 + 4 * 12);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Where the time went (attribution)');

    // Drained, then deleted: not one key of the run is left in Redis.
    expect(await redis.keys(`hb:${manifest.run}:*`)).toEqual([]);
    // Every agent was stopped (their command lines name the run folder).
    expect(await processesMentioning(out)).toEqual([]);
    // The token never reaches the run's files, and the spent token file is deleted.
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(tokenFile)).toBe(false);
    for (const f of ['manifest.json', 'points.csv', 'run.log', 'agents.json', 'work/target/target.log']) {
      expect(readFileSync(join(out, f), 'utf8')).not.toContain(token);
    }
    const events = runLog(out).map((e) => e.event);
    expect(events.filter((e) => e === 'point-done')).toHaveLength(4);
    expect(events.at(-1)).toBe('run-end');
  });

  it('refuses a folder that holds a finished run, saying it is finished (not "use --resume")', async () => {
    const matrixFile = writeTinyMatrix(dir);
    const refused = createRun({ matrixFile, out: join(dir, 'run-a'), cwd: dir });
    await expect(refused).rejects.toMatchObject({
      code: 'HB_RUN_OPTION',
      message: expect.stringContaining('holds a finished run (4 points: 4 done, 0 failed)'),
    });
    await expect(refused).rejects.toMatchObject({ message: expect.not.stringContaining('--resume') });
  });
});
