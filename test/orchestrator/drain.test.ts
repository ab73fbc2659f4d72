// Draining a point from a real Redis: order and completeness of the raw files, the status hash parsed,
// the keys deleted only after every file is on disk.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_FIELDS, CALL_FIELDS, redisKeys } from '../../contract/index.ts';
import { drainPoint } from '../../orchestrator/point/drain.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { rmTemp, tempDir } from './fixture.ts';

let redisServer: RedisProcess;
let redis: Redis;
let dir: string;

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
  dir = tempDir();
});

afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
  rmTemp(dir);
});

async function fill(run: string, slug: string, calls: number): Promise<void> {
  const k = redisKeys(run, slug);
  const p = redis.pipeline();
  for (let i = 0; i < calls; i++) {
    p.xadd(k.calls, '*', 'r', `${i},${i}.000,0.010,12.500,ok,1,0,1`);
    p.xadd(k.attempts, '*', 'r', `${i},1,${i}.1,${i}.2,${i}.9,served,${i % 16},10.0`);
  }
  p.hset(k.status, {
    state: 'done',
    sent: String(calls),
    summary: JSON.stringify({ valid: true, measured: { ok: calls } }),
  });
  await p.exec();
}

const paths = (name: string) => ({
  calls: join(dir, `${name}.calls.csv`),
  attempts: join(dir, `${name}.attempts.csv`),
  status: join(dir, `${name}.status.json`),
});

describe('drainPoint', () => {
  it('writes every record in stream order under the contract headers, then deletes the keys', async () => {
    await fill('r1', 'p1', 12_345); // more than two XRANGE chunks
    const to = paths('p1');
    const r = await drainPoint(redis, 'r1', 'p1', to, { target_recorder: { dropped: 0 } });
    expect(r).toMatchObject({ calls: 12_345, attempts: 12_345 });
    const calls = readFileSync(to.calls, 'utf8').split('\n');
    expect(calls[0]).toBe(CALL_FIELDS.join(','));
    expect(calls).toHaveLength(12_345 + 2); // header + lines + final newline
    expect(calls.slice(1, -1).map((l) => Number(l.split(',')[0]))).toEqual([...Array(12_345).keys()]);
    expect(readFileSync(to.attempts, 'utf8').split('\n')[0]).toBe(ATTEMPT_FIELDS.join(','));
    const status = JSON.parse(readFileSync(to.status, 'utf8'));
    expect(status).toMatchObject({
      state: 'done',
      sent: 12_345,
      summary: { valid: true },
      target_recorder: { dropped: 0 },
    });
    const k = redisKeys('r1', 'p1');
    expect(await redis.exists(k.calls, k.attempts, k.status)).toBe(0);
  });

  it('keeps the keys when a file cannot be written', async () => {
    await fill('r2', 'p2', 10);
    const to = { ...paths('p2'), attempts: join(dir, 'no-such-folder', 'p2.attempts.csv') };
    await expect(drainPoint(redis, 'r2', 'p2', to)).rejects.toThrow();
    const k = redisKeys('r2', 'p2');
    expect(await redis.exists(k.calls, k.attempts, k.status)).toBe(3);
    expect(await redis.xlen(k.calls)).toBe(10);
    // No half-written temp file is left next to the calls file either.
    expect(existsSync(`${to.calls}.tmp-${process.pid}`)).toBe(false);
  });

  it('writes an empty file (header only) for a point that recorded nothing', async () => {
    const to = paths('p3');
    const r = await drainPoint(redis, 'r3', 'p3', to);
    expect(r).toEqual({ calls: 0, attempts: 0, duplicates: { calls: 0, attempts: 0 }, status: null });
    expect(readFileSync(to.calls, 'utf8')).toBe(`${CALL_FIELDS.join(',')}\n`);
  });
});
