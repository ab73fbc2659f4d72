// The load generator with a real redis-server: per-call records and the status hash as the orchestrator
// reads them, against a plain server, the real target server, and through the command line (incl. SIGTERM).

import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_FIELDS,
  type CallRecord,
  loadSummarySchema,
  pointSpecJson,
  redisKeys,
} from '../../contract/index.ts';
import type { LoadResult } from '../../loadgen/index.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import { type ModelParams, referenceConfig } from '../../model/index.ts';
import { createTargetServer } from '../../target-server/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { startWorkServer, type WorkServer } from './work-server.ts';

const MODEL: Partial<ModelParams> = { workers: 2, service: { kind: 'constant', ms: 10 } };

let redisProc: RedisProcess;
let redis: Redis;
let srv: WorkServer;

beforeAll(async () => {
  redisProc = await startRedis();
  redis = new Redis(redisProc.url);
  redis.on('error', () => {}); // reconnects by itself through the restart test
  srv = await startWorkServer((_a, res) => res.end('{}'));
});
afterAll(async () => {
  redis.disconnect();
  await srv.close();
  await redisProc.stop();
});

async function streamLines(key: string): Promise<string[]> {
  const entries = await redis.xrange(key, '-', '+');
  return entries.map(([, fields]) => {
    expect(fields[0]).toBe('r');
    return fields[1];
  });
}

describe('records in Redis', () => {
  it('writes one CSV line per call scheduled after warm-up, and a done status with the summary', async () => {
    const records: CallRecord[] = [];
    const result = await createLoadGenerator({
      target: srv.url,
      config: referenceConfig('hedge, default budget')!,
      load: 1,
      calls: 300,
      seed: 3,
      warmupFraction: 0.1,
      model: MODEL,
      redisUrl: redisProc.url,
      run: 'r1',
      slug: 'p1',
      onCall: (r) => records.push(r),
    }).run();
    const keys = redisKeys('r1', 'p1');
    const lines = await streamLines(keys.calls);
    expect(lines.length).toBe(270);
    const calls = lines.map((l) => Number(l.split(',')[0])).sort((a, b) => a - b);
    expect(calls).toEqual(Array.from({ length: 270 }, (_, i) => 30 + i));
    for (const l of lines) expect(l.split(',').length).toBe(CALL_FIELDS.length);
    // The stream holds exactly what the generator measured, field by field.
    const byCall = new Map(records.map((r) => [r.call, r]));
    for (const l of lines) {
      const [call, intended, lag, latency, outcome, attempts, skipped, winner] = l.split(',');
      const r = byCall.get(Number(call))!;
      expect(Number(intended)).toBeCloseTo(r.intendedMs, 3);
      expect(Number(lag)).toBeCloseTo(r.sendLagMs, 3);
      expect(Number(latency)).toBeCloseTo(r.latencyMs, 3);
      expect([outcome, Number(attempts), Number(skipped), Number(winner)]).toEqual([
        r.outcome,
        r.attempts,
        r.skipped,
        r.winner,
      ]);
    }
    const status = await redis.hgetall(keys.status);
    expect(status.state).toBe('done');
    expect(status.sent).toBe('300');
    expect(status.completed).toBe('300');
    expect(Number(status.heartbeat_ms)).toBeGreaterThan(Date.now() - 60_000);
    const summary = JSON.parse(status.summary) as LoadResult;
    expect(summary.recorder).toEqual({ written: 270, dropped: 0, failedBatches: 0 });
    expect(summary.measured.ok + summary.measured.rejected + summary.measured.failed).toBe(270);
    expect(summary.selfCheck.sendLag.n).toBe(270);
    expect(summary).toEqual(JSON.parse(JSON.stringify(result)));
    // What it wrote is the contract's summary, every field of it (strict: no top-level field it does not declare).
    expect(loadSummarySchema.strict().safeParse(summary).success).toBe(true);
  });

  it('refuses to run a point whose calls stream already holds records', async () => {
    const g = createLoadGenerator({
      target: srv.url,
      config: referenceConfig('no hedge')!,
      load: 1,
      calls: 50,
      seed: 3,
      model: MODEL,
      redisUrl: redisProc.url,
      run: 'r1',
      slug: 'p1',
    });
    await expect(g.run()).rejects.toThrow(/already holds 270 records/);
  });

  it('against the real target server: every attempt the generator sent is accounted for on the server', async () => {
    const target = await createTargetServer({
      workers: 16,
      seed: 1,
      cancellation: 'propagate',
      log: () => {},
    });
    try {
      const records: CallRecord[] = [];
      const result = await createLoadGenerator({
        target: target.url,
        config: referenceConfig('hedge, no budget')!,
        load: 0.3, // ~340 calls/s on the reference model
        calls: 400,
        seed: 1,
        warmupFraction: 0,
        redisUrl: redisProc.url,
        run: 'r2',
        slug: 'real',
        onCall: (r) => records.push(r),
      }).run();
      expect(result.measured.ok).toBe(400);
      expect(await redis.xlen(redisKeys('r2', 'real').calls)).toBe(400);
      const attempts = records.reduce((s, r) => s + r.attempts, 0);
      const hedged = records.filter((r) => r.attempts === 2).length;
      // 2 % of attempts are 100–300 ms stragglers, far above the 20 ms hedge delay.
      expect(hedged).toBeGreaterThan(0);
      for (let i = 0; i < 100 && target.stats().inFlight > 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      const s = target.stats();
      // A hedge cancelled while its connection was still opening never reached the server; it is counted.
      expect(s.submitted).toBe(attempts - result.attemptsUnwritten);
      expect(result.attemptsUnwritten).toBeLessThanOrEqual(hedged);
      expect(s.served + s.cancelledQueued + s.cancelledInService).toBe(s.submitted);
      expect(s.cancelRequests).toBeGreaterThan(0);
      expect(s.cancelRequests).toBeLessThanOrEqual(hedged);
    } finally {
      await target.close({ graceMs: 500 });
    }
  });
});

describe('Redis outages', () => {
  // Each outage starts at a call the test names (its onCall hook), not after a sleep or a poll that a slow
  // machine can outrun, and the test checks that calls ended after Redis went: the outage provably fell
  // inside the point.
  it('a short outage loses no record: the recorder buffers and writes after the restart', async () => {
    let ended = 0;
    let down = false;
    let endedWhileDown = 0;
    let outage: Promise<void> | null = null;
    const g = createLoadGenerator({
      target: srv.url,
      config: referenceConfig('no hedge')!,
      load: 1,
      calls: 500, // ~2.5 s at 200/s
      seed: 4,
      model: MODEL,
      redisUrl: redisProc.url,
      run: 'r3',
      slug: 'outage',
      onCall: () => {
        ended++;
        if (down) endedWhileDown++;
        // The 100th of 450 measured calls: ~1.7 s of the point still to come, the outage 0.5 s.
        if (ended === 100) {
          outage = redisProc.restart({
            downMs: 500,
            onDown: () => {
              down = true;
            },
            onUp: () => {
              down = false;
            },
          });
        }
      },
    });
    const result = await g.run();
    await outage;
    expect(endedWhileDown).toBeGreaterThan(0);
    expect(result.state).toBe('done');
    expect(result.recorder?.dropped).toBe(0);
    expect(result.recorder?.written).toBe(450);
    // A batch cut by the outage is written again whole, so a few records may be in the stream twice (the
    // orchestrator's drain writes each once); every measured call is there.
    const key = redisKeys('r3', 'outage').calls;
    const entries = await redis.xrange(key, '-', '+');
    expect(entries.length).toBeGreaterThanOrEqual(450);
    expect(new Set(entries.map(([, f]) => f[1]!.split(',')[0])).size).toBe(450);
  });

  it('Redis gone for good: the point fails with HB_REDIS_UNUSABLE instead of reporting good data', async () => {
    const lone = await startRedis();
    try {
      let ended = 0;
      let endedAtStop = -1;
      let stopped: Promise<void> | null = null;
      const g = createLoadGenerator({
        target: srv.url,
        config: referenceConfig('no hedge')!,
        load: 1,
        calls: 300,
        seed: 4,
        model: MODEL,
        redisUrl: lone.url,
        run: 'r4',
        slug: 'gone',
        flushTimeoutMs: 500,
        onCall: () => {
          ended++;
          // The 50th of 270 measured calls: Redis goes with most of the point still to come.
          if (ended === 50)
            stopped = lone.stop().then(() => {
              endedAtStop = ended;
            });
        },
      });
      const running = g.run();
      await expect(running).rejects.toMatchObject({ code: 'HB_REDIS_UNUSABLE' });
      await stopped;
      // Redis was gone before the point's last call ended.
      expect(endedAtStop).toBeGreaterThanOrEqual(50);
      expect(endedAtStop).toBeLessThan(270);
    } finally {
      await lone.stop();
    }
  });
});

function runCli(args: string[]): {
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  kill: () => void;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'loadgen/main.ts', ...args], {
    cwd: new URL('../..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return {
    done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))),
    kill: () => child.kill('SIGTERM'),
  };
}

describe('the command line', () => {
  const common = (run: string) => [
    '--target',
    srv.url,
    '--config',
    'hedge, default budget',
    '--load',
    '1',
    '--seed',
    '1',
    '--model',
    JSON.stringify(MODEL),
    '--redis',
    redisProc.url,
    '--run',
    run,
    '--point',
    'cli',
  ];

  it('runs a point, prints the summary as one JSON line on stdout, progress on stderr, and exits 0', async () => {
    const { done } = runCli([...common('c1'), '--calls', '200']);
    const { code, stdout, stderr } = await done;
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBe(1);
    const summary = JSON.parse(lines[0]) as LoadResult;
    expect(summary.state).toBe('done');
    expect(summary.sent).toBe(200);
    expect(stderr).toMatch(/loadgen: t=/);
    expect(await redis.xlen(redisKeys('c1', 'cli').calls)).toBe(180);
  });

  it('runs the same point from one --spec (as the orchestrator starts it), and refuses --spec beside point flags', async () => {
    const point = { target: srv.url, load: 1, calls: 200, seed: 1, model: MODEL, run: 'c3', slug: 'cli' };
    const spec = pointSpecJson({ ...point, config: referenceConfig('hedge, default budget')! });
    const { code, stdout } = await runCli(['--spec', spec, '--redis', redisProc.url, '--quiet']).done;
    expect(code).toBe(0);
    expect((JSON.parse(stdout.trim()) as LoadResult).sent).toBe(200);
    expect(await redis.xlen(redisKeys('c3', 'cli').calls)).toBe(180);
    const both = await runCli(['--spec', spec, '--calls', '10']).done;
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /HB_USAGE: give the point either as --spec or as flags, not both: drop --calls/,
    );
    const bad = await runCli(['--spec', spec.replace('"load":1', '"load":7')]).done;
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /HB_POINT_SPEC_INVALID: invalid point spec:\n {2}- load = 7 is invalid: must be ≤ 2/,
    );
  });

  it('on SIGTERM stops, flushes the records, marks the status failed "interrupted" and exits non-zero', async () => {
    const { done, kill } = runCli([...common('c2'), '--calls', '100000', '--warmup', '0']);
    const keys = redisKeys('c2', 'cli');
    for (let i = 0; i < 500; i++) {
      if (Number((await redis.hget(keys.status, 'completed')) ?? 0) > 50) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    kill();
    const { code, stdout } = await done;
    expect(code).toBe(1);
    const summary = JSON.parse(stdout.trim()) as LoadResult;
    expect(summary.state).toBe('failed');
    expect(summary.error).toBe('interrupted');
    const status = await redis.hgetall(keys.status);
    expect(status.state).toBe('failed');
    expect(status.error).toBe('interrupted');
    const measured = summary.measured.ok + summary.measured.rejected + summary.measured.failed;
    expect(measured).toBeGreaterThan(0);
    expect(await redis.xlen(keys.calls)).toBe(measured);
  });
});
