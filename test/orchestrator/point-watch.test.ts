// Watching a point through a real Redis status hash: done, failed, a stale heartbeat, a dead generator,
// a dead target, the time budget, an interruption.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusHash } from '../../contract/index.ts';
import {
  type GeneratorWatch,
  type WatchCommon,
  type WatchOutcome,
  watchGenerators,
} from '../../orchestrator/point/point-watch.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';

let redisServer: RedisProcess;
let redis: Redis;
let n = 0;

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
});

afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
});

/** The watch of a point with one load generator (most cases below need no more). */
interface WatchOptions extends WatchCommon {
  statusKey: string;
  loadgenAlive: () => Promise<boolean>;
  loadgenLog: () => Promise<string>;
}

function watchPoint(o: WatchOptions): Promise<WatchOutcome> {
  return watchGenerators({
    ...o,
    generators: [{ statusKey: o.statusKey, alive: o.loadgenAlive, log: o.loadgenLog }],
  });
}

function options(o: Partial<WatchOptions> = {}): WatchOptions {
  return {
    redis,
    statusKey: `watch:${++n}`,
    loadgenAlive: async () => true,
    targetAlive: async () => true,
    loadgenLog: async () => 'log tail',
    signal: new AbortController().signal,
    onStatus: () => {},
    timeoutMs: 20_000,
    staleMs: 800,
    startupMs: 800,
    pollMs: 50,
    aliveEveryMs: 100,
    ...o,
  };
}

/** Writes a heartbeat every 100 ms until stopped, as a live generator does. */
function heartbeat(key: string, extra: Record<string, string> = {}): () => void {
  let i = 0;
  const t = setInterval(() => {
    redis
      .hset(key, { state: 'running', sent: String(++i), heartbeat_ms: String(Date.now()), ...extra })
      .catch(() => {}); // the test may end (and disconnect) first
  }, 100);
  return () => clearInterval(t);
}

describe('watchPoint', () => {
  it('reports progress and ends when the status says done', async () => {
    const o = options();
    const seen: string[] = [];
    const stop = heartbeat(o.statusKey);
    setTimeout(() => {
      stop();
      redis.hset(o.statusKey, { state: 'done' }).catch(() => {}); // the test may end (and disconnect) first
    }, 500);
    const r = await watchPoint({ ...o, onStatus: (s) => seen.push(s.state ?? '') });
    expect(r).toEqual({ kind: 'done' });
    expect(seen).toContain('running');
  });

  it('fails with the generator’s own error', async () => {
    const o = options();
    await redis.hset(o.statusKey, { state: 'failed', error: 'Redis unusable' });
    expect(await watchPoint(o)).toEqual({
      kind: 'failed',
      reason: expect.stringContaining('Redis unusable'),
    });
  });

  it('fails a point whose heartbeat stops while the process lives (a hung generator)', async () => {
    const o = options();
    const stop = heartbeat(o.statusKey);
    setTimeout(stop, 300);
    const r = await watchPoint(o);
    stop();
    // Where it stopped and its log are in the reason: a hang leaves nothing else behind.
    expect(r).toEqual({
      kind: 'failed',
      reason: expect.stringMatching(
        /stale heartbeat; sent \d+, completed \?, in flight \?; log: log tail\)$/,
      ),
    });
  });

  it('fails at once when the generator process is gone and the status is not done', async () => {
    const o = options({ staleMs: 60_000 });
    const stop = heartbeat(o.statusKey);
    let alive = true;
    setTimeout(() => {
      alive = false;
    }, 300);
    const r = await watchPoint({ ...o, loadgenAlive: async () => alive });
    stop();
    expect(r).toEqual({ kind: 'failed', reason: expect.stringMatching(/exited before finishing.*log tail/) });
  });

  it('fails when the target server dies', async () => {
    const o = options({ staleMs: 60_000 });
    const stop = heartbeat(o.statusKey);
    const r = await watchPoint({ ...o, targetAlive: async () => false });
    stop();
    expect(r).toEqual({ kind: 'failed', reason: expect.stringContaining('target server died') });
  });

  it('fails when the generator never writes a status', async () => {
    expect(await watchPoint(options())).toEqual({
      kind: 'failed',
      reason: expect.stringContaining('wrote no status'),
    });
  });

  it('fails at the time budget even while progress continues', async () => {
    const o = options({ timeoutMs: 600 });
    const stop = heartbeat(o.statusKey);
    const r = await watchPoint(o);
    stop();
    expect(r).toEqual({ kind: 'failed', reason: expect.stringContaining('timed out') });
  });

  it('stops when the run is interrupted', async () => {
    const o = options({ staleMs: 60_000 });
    const stop = heartbeat(o.statusKey);
    const ac = new AbortController();
    setTimeout(() => ac.abort('interrupted by SIGINT'), 300);
    const r = await watchPoint({ ...o, signal: ac.signal });
    stop();
    expect(r).toEqual({ kind: 'interrupted', reason: 'interrupted by SIGINT' });
  });
});

describe('watchGenerators: the K load generators of a `clients: K` point', () => {
  function generators(k: number, alive: () => boolean = () => true): GeneratorWatch[] {
    const base = ++n;
    return Array.from({ length: k }, (_, i) => ({
      statusKey: `watch:${base}:${i}`,
      alive: async () => alive() || i === 0,
      log: async () => `log of client ${i}`,
    }));
  }

  it('shows their summed progress and ends only when every one is done', async () => {
    const gens = generators(2);
    const stops = gens.map((g) => heartbeat(g.statusKey, { completed: '10', inflight: '2' }));
    const seen: StatusHash[] = [];
    // Client 0 is done early; the point goes on until client 1 is done too.
    setTimeout(() => {
      stops[0]!();
      redis.hset(gens[0]!.statusKey, { state: 'done' }).catch(() => {});
    }, 300);
    setTimeout(() => {
      stops[1]!();
      redis.hset(gens[1]!.statusKey, { state: 'done' }).catch(() => {});
    }, 900);
    const { statusKey: _k, loadgenAlive: _a, loadgenLog: _l, ...common } = options();
    const r = await watchGenerators({ ...common, generators: gens, onStatus: (s) => seen.push(s) });
    expect(r).toEqual({ kind: 'done' });
    const both = seen.find((s) => s.completed === '20');
    expect(both?.inflight).toBe('4');
    expect(seen.some((s) => s.state === 'running')).toBe(true);
    expect(seen.at(-1)?.state).toBe('done');
  });

  it('fails the point with the failing client’s reason and log; a dead client is named too', async () => {
    const gens = generators(3);
    // Clients 0 and 1 run on; client 2 failed (no heartbeat of its own overwrites that).
    const stops = gens.slice(0, 2).map((g) => heartbeat(g.statusKey));
    await redis.hset(gens[2]!.statusKey, { state: 'failed', error: 'Redis unusable' });
    const { statusKey: _k, loadgenAlive: _a, loadgenLog: _l, ...common } = options();
    const r = await watchGenerators({ ...common, generators: gens });
    expect(r).toEqual({
      kind: 'failed',
      reason: 'the load generator of client 2 (of 3) failed: Redis unusable (log: log of client 2)',
    });

    let alive = true;
    const dying = generators(2, () => alive);
    const more = dying.map((g) => heartbeat(g.statusKey));
    setTimeout(() => {
      alive = false;
    }, 300);
    const { statusKey: _k2, loadgenAlive: _a2, loadgenLog: _l2, ...common2 } = options({ staleMs: 60_000 });
    const r2 = await watchGenerators({ ...common2, generators: dying });
    for (const stop of [...stops, ...more]) stop();
    expect(r2).toEqual({
      kind: 'failed',
      reason: expect.stringMatching(
        /^the load generator of client 1 \(of 2\) exited before finishing.*log of client 1/,
      ),
    });
  });
});
