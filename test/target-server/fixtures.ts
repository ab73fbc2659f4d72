// Test fixtures of the target-server tests: one redis-server and one undici agent per test file, servers
// that are always closed, and the attempt records of a point read back from Redis.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ATTEMPT_FIELDS, redisKeys } from '../../contract/index.ts';
import { connectRedis } from '../../runtime/index.ts';
import {
  createTargetServer,
  type PoolMode,
  type TargetServer,
  type TargetServerOptions,
} from '../../target-server/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { call, createAgent } from './http.ts';

/** The file's shared resources; set up by useFixtures(). */
export interface Fixtures {
  agent: ReturnType<typeof createAgent>;
  redisUrl: () => string;
  redis: () => Redis;
  /** Runs `body` against a fresh server (logs silenced) and closes it whatever happens. */
  withServer(options: TargetServerOptions, body: (s: TargetServer) => Promise<void>): Promise<void>;
  /**
   * For a describe block run once per pool mode: withServer in mode `pool`, and an empty Redis before each
   * test (both modes record under the same run/slug names).
   */
  inPoolMode(pool: PoolMode): Fixtures['withServer'];
  /** The attempt records of (run, slug), parsed from the stream's `r` field. */
  records(run: string, slug: string): Promise<Row[]>;
  /** Ends recording (PUT /config run=null), which flushes; returns the closed recorder's counters. */
  stopRecording(s: TargetServer): Promise<{ written: number; dropped: number }>;
}

/** One attempt record, parsed. */
export interface Row {
  call: number;
  attempt: number;
  enqueue: number;
  start: number;
  end: number;
  ended: string;
  worker: number;
  service: number;
  /** When the response was written (NaN: none was sent). */
  responded: number;
}

/** A constant service time model patch. */
export const constant = (ms: number) => ({ service: { kind: 'constant' as const, ms } });

/** Registers beforeAll/afterAll for a redis-server and an agent; call once at the top of a test file. */
export function useFixtures(): Fixtures {
  let redisServer: RedisProcess | undefined;
  let redis: Redis | undefined;
  const agent = createAgent();
  beforeAll(async () => {
    redisServer = await startRedis();
    redis = await connectRedis(redisServer.url);
  });
  afterAll(async () => {
    await agent.close();
    redis?.disconnect();
    await redisServer?.stop();
  });
  return {
    agent,
    redisUrl: () => redisServer!.url,
    redis: () => redis!,
    async withServer(options, body) {
      const server = await createTargetServer({ log: () => {}, ...options });
      try {
        await body(server);
      } finally {
        await server.close({ graceMs: 2_000 });
      }
    },
    inPoolMode(pool) {
      beforeEach(async () => {
        await redis!.flushdb();
      });
      return (options, body) => this.withServer({ pool, ...options }, body);
    },
    async records(run, slug) {
      const entries = await redis!.xrange(redisKeys(run, slug).attempts, '-', '+');
      return entries.map(([, fields]) => {
        expect(fields[0]).toBe('r');
        const f = fields[1]!.split(',');
        expect(f).toHaveLength(ATTEMPT_FIELDS.length);
        return {
          call: Number(f[0]),
          attempt: Number(f[1]),
          enqueue: Number(f[2]),
          start: f[3] === '' ? Number.NaN : Number(f[3]),
          end: Number(f[4]),
          ended: f[5]!,
          worker: Number(f[6]),
          service: Number(f[7]),
          responded: f[8] === '' ? Number.NaN : Number(f[8]),
        };
      });
    },
    async stopRecording(s) {
      const r = await call(agent, `${s.url}/config`, { method: 'PUT', body: { run: null, slug: null } });
      expect(r.status).toBe(200);
      return r.body.previous;
    },
  };
}
