// Redis crashes (SIGKILL) and comes back on the same port in the middle of a real `hedgebench run`
// point. With a durable Redis, every measured call reaches raw/ exactly once; when the outage outlasts
// the agents' buffers, the point is failed and the reason gives the exact number of records lost.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, redisKeys } from '../../contract/index.ts';
import { loadMatrixFile, planPoints } from '../../orchestrator/index.ts';
import { killProcessesMentioning, requireBuild, rmTemp, runCli, tempDir } from '../orchestrator/fixture.ts';
import {
  csvLines,
  type DurableRedis,
  filesContaining,
  startDurableRedis,
  untilProgress,
  writeMatrix,
} from './fixture.ts';

let dir: string;
const servers: DurableRedis[] = [];

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-rel-restart-');
});

afterAll(async () => {
  await killProcessesMentioning(dir);
  for (const s of servers) await s.stop();
  rmTemp(dir);
});

interface Status {
  state: string;
  completed: number;
  summary: {
    completed: number;
    measured: { ok: number; rejected: number; failed: number };
    recorder: { written: number; dropped: number };
  };
  duplicates_removed: { calls: number; attempts: number };
}

/** Starts `hedgebench run` on `redis`, crashes Redis once the point is well under way, restarts it after `downMs`. */
async function runWithCrash(
  redis: DurableRedis,
  name: string,
  o: { calls: number; crashAfter: number; downMs: number; env?: Record<string, string> },
) {
  const matrix = writeMatrix(dir, name, { calls: o.calls });
  const out = join(dir, name);
  const [pp] = planPoints(await loadMatrixFile(matrix));
  const key = redisKeys(basename(out), pp.slug).status;
  const running = runCli(['run', '--matrix', matrix, '--out', out, '--redis', redis.url], {
    cwd: dir,
    env: o.env,
  });
  await untilProgress(running, async () => Number(await redis.client.hget(key, 'completed')), o.crashAfter);
  const before = await redis.client.hgetall(key);
  await redis.kill('SIGKILL');
  await sleep(o.downMs);
  await redis.start();
  const r = await running;
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
  const status = JSON.parse(readFileSync(join(out, 'raw', `${pp.slug}.status.json`), 'utf8')) as Status;
  return {
    r,
    out,
    before,
    entry: manifest.points[0]!,
    status,
    calls: csvLines(join(out, 'raw', `${pp.slug}.calls.csv`)),
    attempts: csvLines(join(out, 'raw', `${pp.slug}.attempts.csv`)),
  };
}

const measured = (s: Status) =>
  s.summary.measured.ok + s.summary.measured.rejected + s.summary.measured.failed;

describe('Redis restarted in the middle of a point', () => {
  it('loses no call record and writes each record once (durable Redis, crash, 1.5 s down)', async () => {
    const password = randomBytes(12).toString('hex');
    const redis = await startDurableRedis(password);
    servers.push(redis);
    const x = await runWithCrash(redis, 'crash', { calls: 1200, crashAfter: 400, downMs: 1_500 });

    expect(x.r.stderr, String(x.r.stderr)).not.toMatch(/\n\s+at /);
    expect(x.r.exitCode, String(x.r.stderr)).toBe(0);
    // The crash happened mid-point, and the point went on to its end afterwards.
    expect(x.before.state).toBe('running');
    expect(Number(x.before.completed)).toBeLessThan(1200);
    expect(x.status.summary.completed).toBe(1200);
    expect(x.entry.state).toBe('done');

    // Zero lost: one line per measured call, each call once; each (call, attempt) once.
    expect(measured(x.status)).toBe(1080);
    expect(x.calls).toHaveLength(1080);
    expect(new Set(x.calls.map((l) => l.split(',')[0])).size).toBe(1080);
    const attemptKeys = x.attempts.map((l) => l.split(',').slice(0, 2).join(','));
    expect(new Set(attemptKeys).size).toBe(attemptKeys.length);
    expect(x.attempts.length).toBeGreaterThanOrEqual(1200);
    expect(x.status.summary.recorder.dropped).toBe(0);
    expect(x.status.duplicates_removed).toBeDefined();

    // The Redis password in --redis is nowhere in the run folder or the command's output.
    expect(filesContaining(x.out, password)).toEqual([]);
    expect(`${x.r.stdout}${x.r.stderr}`).not.toContain(password);
  }, 150_000);

  it('fails the point with the exact count of lost records when the outage outlasts the buffer', async () => {
    const redis = await startDurableRedis();
    servers.push(redis);
    // Every agent keeps at most 100 records while Redis is away; 3 s of calls at ~140/s overflow that.
    const x = await runWithCrash(redis, 'overflow', {
      calls: 1200,
      crashAfter: 300,
      downMs: 3_000,
      env: { HEDGEBENCH_RECORDER_MAX_BUFFERED: '100' },
    });

    expect(x.r.stderr).not.toMatch(/\n\s+at /);
    expect(x.r.exitCode).toBe(1);
    expect(x.entry.state).toBe('failed');
    const lost = Number(/(\d+) call records were not written to Redis/.exec(x.entry.reason ?? '')?.[1]);
    expect(lost, x.entry.reason).toBeGreaterThan(0);
    // Never silently short: what is on disk plus what the reason says was lost is every measured call.
    expect(x.calls.length + lost).toBe(measured(x.status));
    expect(new Set(x.calls.map((l) => l.split(',')[0])).size).toBe(x.calls.length);
    expect(x.status.summary.recorder).toMatchObject({ dropped: lost, written: x.calls.length });
  }, 150_000);

  it('fails the point with the count of lost records when a memory-only Redis comes back empty', async () => {
    const redis = await startDurableRedis(undefined, { durable: false });
    servers.push(redis);
    const x = await runWithCrash(redis, 'amnesia', { calls: 1200, crashAfter: 400, downMs: 500 });

    expect(x.r.stderr).not.toMatch(/\n\s+at /);
    expect(x.r.exitCode).toBe(1);
    expect(x.entry.state).toBe('failed');
    const m = /(\d+) of (\d+) call records lost \(on disk (\d+)\)/.exec(x.entry.reason ?? '');
    expect(m, x.entry.reason).not.toBeNull();
    const [lost, expected, onDisk] = m!.slice(1).map(Number);
    expect(expected).toBe(measured(x.status));
    expect(onDisk).toBe(x.calls.length);
    expect(lost).toBe(expected! - onDisk!);
    expect(lost).toBeGreaterThan(0);
  }, 150_000);
});
