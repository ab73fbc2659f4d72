// A batch Redis applied but whose reply never arrived is sent again by the recorder, so the stream holds
// it twice; the drain writes each call, and each (call, attempt), once. The fault is real: a TCP relay in
// front of a real redis-server forwards one pipelined batch and cuts the connection before the replies.

import { readFileSync } from 'node:fs';
import { createServer, type Server, Socket } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisKeys } from '../../contract/index.ts';
import { drainPoint } from '../../orchestrator/point/drain.ts';
import { SeenRecords } from '../../orchestrator/point/seen-records.ts';
import { connectRedis, createStreamRecorder } from '../../runtime/index.ts';
import { rmTemp, tempDir } from '../orchestrator/fixture.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { csvLines } from './fixture.ts';

let redisServer: RedisProcess;
let relay: Server;
let relayPort: number;
let dir: string;
/** When set, the next chunk carrying an XADD is forwarded and then the client's connection is cut. */
let cutNextBatch = false;
let cuts = 0;

beforeAll(async () => {
  redisServer = await startRedis();
  dir = tempDir('hb-rel-dedupe-');
  relay = createServer((client) => {
    const upstream = new Socket();
    let cutting = false;
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (d) => {
      upstream.write(d);
      if (cutNextBatch && d.toString('latin1').toLowerCase().includes('xadd')) {
        cutNextBatch = false;
        cutting = true;
        cuts++;
        // Long enough for Redis to apply the batch; its replies are never relayed.
        setTimeout(close, 200);
      }
    });
    upstream.on('data', (d) => {
      if (!cutting) client.write(d);
    });
    for (const s of [client, upstream]) {
      s.on('error', close);
      s.on('close', close);
    }
    upstream.connect(redisServer.port, '127.0.0.1');
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  relayPort = (relay.address() as { port: number }).port;
});

afterAll(async () => {
  relay?.close();
  await redisServer?.stop();
  rmTemp(dir);
});

/** Records `lines` through the relay with one batch cut mid-reply; returns how many entries the stream got. */
async function recordWithCut(redis: Redis, key: string, lines: string[]): Promise<number> {
  const rec = createStreamRecorder(redis, key, { batchSize: 100, flushMs: 10 });
  cutNextBatch = true;
  for (const l of lines) rec.add(l);
  await rec.close();
  expect(rec.stats()).toMatchObject({ written: lines.length, dropped: 0 });
  expect(rec.stats().failedBatches).toBeGreaterThan(0);
  return redis.xlen(key);
}

describe('a batch retried after a lost reply', () => {
  it('lands twice in Redis and once on disk', async () => {
    const redis = await connectRedis(`redis://127.0.0.1:${relayPort}`);
    try {
      const k = redisKeys('dup', 'p');
      const calls = Array.from({ length: 300 }, (_, i) => `${i},${i}.000,0.010,12.500,ok,2,0,1`);
      // Two attempts per call: the key of an attempt is (call, attempt), not call alone.
      const attempts = Array.from(
        { length: 300 },
        (_, j) => `${j >> 1},${(j % 2) + 1},1.0,1.1,2.0,served,0,1.000`,
      );
      const inCalls = await recordWithCut(redis, k.calls, calls);
      const inAttempts = await recordWithCut(redis, k.attempts, attempts);
      expect(cuts).toBe(2);
      // The fault is real: Redis holds more entries than lines were recorded.
      expect(inCalls).toBeGreaterThan(300);
      expect(inAttempts).toBeGreaterThan(300);

      const to = {
        calls: join(dir, 'p.calls.csv'),
        attempts: join(dir, 'p.attempts.csv'),
        status: join(dir, 'p.status.json'),
      };
      const r = await drainPoint(redis, 'dup', 'p', to);
      expect(r.calls).toBe(300);
      expect(r.attempts).toBe(300);
      expect(r.duplicates).toEqual({ calls: inCalls - 300, attempts: inAttempts - 300 });
      expect(csvLines(to.calls)).toEqual(calls);
      expect(csvLines(to.attempts)).toEqual(attempts);
      expect(JSON.parse(readFileSync(to.status, 'utf8')).duplicates_removed).toEqual(r.duplicates);
    } finally {
      redis.disconnect();
    }
  });
});

describe('SeenRecords', () => {
  it('says "new" exactly for keys not seen before, whatever the keys (property)', () => {
    const callText = fc.oneof(
      fc.nat({ max: 5_000 }).map(String),
      fc.constantFrom('', '-1', '1.5', 'x', '134217728', '4294967295', '1e3'),
    );
    const attemptText = fc.oneof(fc.integer({ min: 1, max: 20 }).map(String), fc.constantFrom('0', '', 'a'));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(callText, attemptText), { maxLength: 300 }),
        fc.boolean(),
        (keys, withAttempt) => {
          const seen = new SeenRecords();
          const model = new Set<string>();
          for (const [c, a] of keys) {
            const key = withAttempt ? `${c},${a}` : c;
            expect(seen.addLine(`${key},rest,of,line`, withAttempt)).toBe(!model.has(key));
            model.add(key);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
