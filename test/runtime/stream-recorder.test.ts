// The stream recorder against a real redis-server: lines arrive once each, in order, as field `r`;
// a redis-server restart mid-write loses nothing; a full buffer drops and counts; URLs are redacted.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectRedis,
  createStreamRecorder,
  redactText,
  redactUrl,
  redisFromUrl,
} from '../../runtime/index.ts';
import { type RedisProcess, startRedis } from './redis-process.ts';

let server: RedisProcess;
let redis: Redis;

beforeAll(async () => {
  server = await startRedis();
  redis = await connectRedis(server.url);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

async function readAll(key: string): Promise<string[]> {
  const out: string[] = [];
  let start = '-';
  for (;;) {
    const page = await redis.xrange(key, start, '+', 'COUNT', 5000);
    for (const [, fields] of page) {
      expect(fields[0]).toBe('r');
      out.push(fields[1]!);
    }
    if (page.length < 5000) return out;
    start = `(${page[page.length - 1]![0]}`;
  }
}

describe('createStreamRecorder', () => {
  it('writes every line once, in order, in field r', async () => {
    const rec = createStreamRecorder(redis, 'test:order', { batchSize: 100, flushMs: 10 });
    const lines = Array.from({ length: 1234 }, (_, i) => `${i},1,2.5,served`);
    for (const l of lines) rec.add(l);
    expect(rec.stats().buffered).toBe(1234);
    await rec.close();
    expect(await readAll('test:order')).toEqual(lines);
    expect(rec.stats()).toEqual({ written: 1234, buffered: 0, dropped: 0, failedBatches: 0 });
  });

  it('flushes a partial batch on its timer without flush()', async () => {
    const rec = createStreamRecorder(redis, 'test:timer', { batchSize: 500, flushMs: 20 });
    rec.add('only');
    const deadline = Date.now() + 5_000;
    while ((await redis.xlen('test:timer')) === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await readAll('test:timer')).toEqual(['only']);
    await rec.close();
  });

  it('survives a redis-server restart mid-write with zero loss', async () => {
    const key = 'test:restart';
    const errors: string[] = [];
    const rec = createStreamRecorder(redis, key, {
      batchSize: 200,
      flushMs: 5,
      onError: (m) => errors.push(m),
    });
    const total = 20_000;
    let next = 0;
    // Keep adding while the server goes down and comes back, so some batches fail and are retried.
    const producer = (async () => {
      while (next < total) {
        for (let k = 0; k < 200 && next < total; k++) rec.add(`line-${next++}`);
        await new Promise((r) => setImmediate(r));
      }
    })();
    while (rec.stats().written < 2_000) await new Promise((r) => setTimeout(r, 1));
    await server.restart({ downMs: 200 });
    await producer;
    await rec.close();
    const got = await readAll(key);
    const distinct = new Set(got);
    const missing = Array.from({ length: total }, (_, i) => `line-${i}`).filter((l) => !distinct.has(l));
    expect(missing).toEqual([]);
    // A batch in flight at the moment of SHUTDOWN may have been applied without a reply; it is resent.
    expect(got.length - distinct.size).toBeLessThanOrEqual(200);
    expect(rec.stats().dropped).toBe(0);
    expect(rec.stats().failedBatches).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('bounds the buffer while Redis is unreachable and counts what it drops', async () => {
    const down = redisFromUrl('redis://127.0.0.1:1');
    const rec = createStreamRecorder(down, 'test:down', { batchSize: 10, flushMs: 5, maxBuffered: 50 });
    for (let i = 0; i < 80; i++) rec.add(`x${i}`);
    await new Promise((r) => setTimeout(r, 30));
    expect(rec.stats()).toMatchObject({ written: 0, buffered: 50, dropped: 30 });
    down.disconnect();
  });

  it('rejects bad options, naming them', () => {
    expect(() => createStreamRecorder(redis, 'k', { batchSize: 0 })).toThrow(/batchSize/);
    expect(() => createStreamRecorder(redis, 'k', { flushMs: 1.5 })).toThrow(/flushMs/);
  });
});

describe('redis URLs', () => {
  it('redacts passwords and usernames and never throws', () => {
    expect(redactUrl('redis://:s3cret@10.0.0.1:6379/2')).toBe('redis://:***@10.0.0.1:6379/2');
    expect(redactUrl('rediss://bob:pw@host:6380')).toBe('rediss://***:***@host:6380');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('not a url:pw@x')).not.toContain('pw');
    expect(redactText('auth failed for s3cret', 'redis://:s3cret@h:1')).toBe('auth failed for ***');
  });

  it('honours a password in the URL', async () => {
    const pw = 'hb-test-pass';
    await redis.config('SET', 'requirepass', pw);
    try {
      const authed = await connectRedis(`redis://:${pw}@127.0.0.1:${server.port}`);
      expect(await authed.ping()).toBe('PONG');
      authed.disconnect();
    } finally {
      const admin = await connectRedis(`redis://:${pw}@127.0.0.1:${server.port}`);
      await admin.config('SET', 'requirepass', '');
      admin.disconnect();
    }
  });

  it('refuses a non-redis URL without echoing its credentials', () => {
    expect(() => redisFromUrl('http://u:topsecret@h:1')).toThrow(/redis:\/\//);
    expect(() => redisFromUrl('http://u:topsecret@h:1')).not.toThrow(/topsecret/);
  });
});
