// `hedgebench run` against a service hedgebench did not build: a tiny worker-pool HTTP server this test
// starts on loopback, named by the matrix's `target.url`, with the model from a model.json beside the
// matrix. No target server may start and no control route may be called; the load goes to the URL (its
// own query kept, call and attempt added); every point gets sim and real rows with the client-side columns
// filled and the server-side ones empty; the report says why the comparison is statistical.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_METRICS, type Manifest, parseComparisonCsv, parsePointsCsv } from '../../contract/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { requireBuild, rmTemp, runLog, tempDir } from './fixture.ts';

const WORKERS = 3;
const SERVICE_MS = 4;

let dir: string;
let redisServer: RedisProcess;
let server: Server;
let port: number;
/** Every request the service got: its path and query. */
const seen: string[] = [];

beforeAll(async () => {
  requireBuild();
  dir = tempDir('hb-foreign-');
  redisServer = await startRedis();
  // A pool of WORKERS behind one FIFO queue, SERVICE_MS each: what the model.json below says it is.
  let busy = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    busy--;
    const next = queue.shift();
    if (next) next();
  };
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    const serve = () => {
      busy++;
      setTimeout(() => {
        release();
        res.end('ok');
      }, SERVICE_MS).unref();
    };
    if (busy < WORKERS) serve();
    else queue.push(serve);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await redisServer?.stop();
  rmTemp(dir);
});

function writeMatrix(name: string, url: string): string {
  writeFileSync(
    join(dir, 'model.json'),
    JSON.stringify({
      workers: WORKERS,
      medianMs: SERVICE_MS,
      sigma: 0.05,
      stragglerProb: 0,
      stragglerMinMs: 0,
      stragglerMaxMs: 0,
    }),
  );
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name,
      configs: ['no hedge', { name: 'hedge 6 ms', hedge: { delayMs: 6, budgetPercent: 0 } }],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 400,
      calibration: false,
      model: 'model.json',
      target: { url },
    }),
  );
  return path;
}

describe('hedgebench run with a foreign target', () => {
  it('refuses a target outside loopback and the lab unless --allow-any-target, before anything starts', async () => {
    const matrixFile = writeMatrix('far', 'http://10.9.8.7:8080/x');
    const out = join(dir, 'run-far');
    await expect(createRun({ matrixFile, out, cwd: dir })).rejects.toMatchObject({
      code: 'HB_RUN_OPTION',
      message: expect.stringContaining('target.url host 10.9.8.7 is outside loopback'),
    });
    expect(existsSync(out)).toBe(false);
  });

  it('loads the URL with no target server, and compares what a client sees', async () => {
    const url = `http://127.0.0.1:${port}/api/work?tenant=t1`;
    const matrixFile = writeMatrix('mine', url);
    const out = join(dir, 'run-mine');
    const lines: string[] = [];
    const run = await createRun({
      matrixFile,
      out,
      redisUrl: redisServer.url,
      cwd: dir,
      stderr: { write: (t: string) => lines.push(t) },
      stdout: { write: () => true },
    });
    const outcome = await run.execute();
    expect(outcome).toMatchObject({ exitCode: 0, done: 2, failed: 0, pending: 0 });

    // The first line: what goes where, how fast, for how long.
    expect(lines[0]).toMatch(
      new RegExp(
        `^hedgebench run: GET http://127\\.0\\.0\\.1:${port}/api/work\\?tenant=t1&call=N&attempt=K \\(bodies discarded unread\\) — 2 points .* at \\d+ calls/s .* 800 calls in all; about \\d+ s of schedules`,
      ),
    );

    // No target server: none deployed, started or asked anything; only the schedule reached the service.
    // (The target host's folder exists for the agents' lease; no bundle, token or log was put there.)
    const targetDir = join(out, 'work', 'target');
    const there = existsSync(targetDir) ? readdirSync(targetDir) : [];
    expect(there.filter((f) => /\.mjs$|^target\.(log|token)$/.test(f))).toEqual([]);
    const started = runLog(out).filter((e) => e.event === 'agents-started');
    expect(started).toHaveLength(1);
    expect(started[0].target).toBeNull();
    expect(seen.length).toBeGreaterThanOrEqual(800);
    expect(seen.every((u) => /^\/api\/work\?tenant=t1&call=\d+&attempt=\d+$/.test(u))).toBe(true);
    expect(seen.filter((u) => u.endsWith('&attempt=2')).length).toBeGreaterThan(0);

    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect((manifest.matrix as { target?: unknown }).target).toEqual({ url });
    expect((manifest.matrix as { model: { workers: number } }).model.workers).toBe(WORKERS);
    const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
    for (const p of manifest.points) {
      const mine = rows.filter(
        (r) => `${r.config}|${r.load.toFixed(2)}|${r.cancellation}|${r.seed}` === p.key,
      );
      expect(mine.map((r) => r.source).sort(), p.key).toEqual(['real', 'sim']);
      const real = mine.find((r) => r.source === 'real')!;
      // Client-side columns filled …
      for (const col of [
        'p50_ms',
        'p99_ms',
        'p999_ms',
        'requests_per_call',
        'hedge_rate',
        'rejected_rate',
      ] as const)
        expect(real[col], `${p.key} ${col}`).not.toBeNull();
      expect(real.measured_calls).toBe(360);
      // … server-side ones empty, not zero; and no server records at all.
      expect(real.utilization).toBeNull();
      expect(existsSync(join(out, 'raw', `${p.slug}.calls.csv`))).toBe(true);
      expect(existsSync(join(out, 'raw', `${p.slug}.attempts.csv`))).toBe(false);
    }
    const hedged = rows.find((r) => r.source === 'real' && r.config === 'hedge 6 ms')!;
    expect(hedged.requests_per_call).toBeGreaterThan(1);
    expect(hedged.hedge_rate).toBeGreaterThan(0);

    // The comparison: client-side metrics, utilisation replaced by the hedge rate.
    const comparison = parseComparisonCsv(readFileSync(join(out, 'comparison.csv'), 'utf8'));
    const metrics = [...new Set(comparison.map((r) => r.metric))];
    expect(metrics).toEqual([...CLIENT_METRICS]);
    expect(metrics).toContain('hedge_rate');
    expect(metrics).not.toContain('utilization');
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('## A foreign service: a statistical comparison');
    expect(report).toContain('Common random numbers do not apply');
    expect(report).toContain('Server-side columns are empty, not zero');
  }, 120_000);
});
