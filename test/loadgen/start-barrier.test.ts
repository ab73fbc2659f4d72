// The start barrier of K load generators sharing a point, on a real redis-server: nobody sends before all
// K are ready, the K write one calls stream and a status hash each, and a generator whose partners never
// come gives up with HB_BARRIER_TIMEOUT instead of measuring alone.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallRecord, redisKeys } from '../../contract/index.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import { type ModelParams, referenceConfig } from '../../model/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { startWorkServer, type WorkServer } from './work-server.ts';

const MODEL: Partial<ModelParams> = { workers: 2, service: { kind: 'constant', ms: 10 } };

let redisProc: RedisProcess;
let redis: Redis;
let srv: WorkServer;

beforeAll(async () => {
  redisProc = await startRedis();
  redis = new Redis(redisProc.url);
  srv = await startWorkServer();
});
afterAll(async () => {
  redis.disconnect();
  await srv.close();
  await redisProc.stop();
});

function generator(slug: string, client: number, extra: object = {}) {
  const records: CallRecord[] = [];
  /** Date.now() when each call ended. */
  const endedAt: number[] = [];
  const g = createLoadGenerator({
    target: srv.url,
    config: referenceConfig('hedge, default budget')!,
    load: 1, // 200 calls/s with this model: 100 calls take 0.5 s
    calls: 100,
    seed: 2,
    warmupFraction: 0,
    model: MODEL,
    warmRequests: 0,
    clockSamples: 0,
    redisUrl: redisProc.url,
    run: 'barrier',
    slug,
    client,
    clients: 2,
    onCall: (r) => {
      records.push(r);
      endedAt.push(Date.now());
    },
    ...extra,
  });
  return { g, records, endedAt };
}

describe('the start barrier of two load generators', () => {
  it('holds the first one until the second is ready; both write their calls to one stream', async () => {
    const a = generator('both', 0);
    const running = a.g.run();
    // The second one comes 1.5 s later: longer than the first one's whole schedule.
    await new Promise((r) => setTimeout(r, 1_500));
    const secondCreatedAt = Date.now();
    const b = generator('both', 1);
    const [ra, rb] = await Promise.all([running, b.g.run()]);
    expect(ra.state).toBe('done');
    expect(rb.state).toBe('done');
    // The first one sent nothing before the second existed: every one of its calls ended after that.
    expect(a.records.map((r) => r.call).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => 2 * i),
    );
    expect(b.records.map((r) => r.call).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => 2 * i + 1),
    );
    expect(Math.min(...a.endedAt)).toBeGreaterThanOrEqual(secondCreatedAt);
    const keys = redisKeys('barrier', 'both');
    const lines = await redis.xrange(keys.calls, '-', '+');
    const calls = lines.map(([, f]) => Number(f[1]!.split(',')[0])).sort((x, y) => x - y);
    expect(calls).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const c of [0, 1]) {
      const h = await redis.hgetall(keys.clientStatus(c, 2));
      expect(h.state).toBe('done');
      expect(JSON.parse(h.summary!).client).toBe(c);
    }
    expect(await redis.exists(keys.status)).toBe(0);
    expect(await redis.get(keys.ready)).toBe('2');
    expect(await redis.llen(keys.go)).toBe(0);
  });

  it('gives up with HB_BARRIER_TIMEOUT when its partner never comes', async () => {
    const a = generator('alone', 0, { barrierTimeoutMs: 1_500 });
    await expect(a.g.run()).rejects.toMatchObject({
      code: 'HB_BARRIER_TIMEOUT',
      message: expect.stringMatching(/1 of 2 load generators of the point were ready after 2 s/),
    });
    expect(await redis.xlen(redisKeys('barrier', 'alone').calls)).toBe(0);
  });
});
