// A run over gRPC, everything on this machine: the target opens its gRPC port because the matrix asks for
// it, the load generators send over it (hedgebench's hedging and grpc-js's), and points.csv carries the
// transport and hedger columns for both sources.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, parseComparisonCsv, parsePointsCsv } from '../../contract/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { type RedisProcess, startRedis } from '../runtime/redis-process.ts';
import { requireBuild, rmTemp, tempDir } from './fixture.ts';

let dir: string;
let redisServer: RedisProcess;

beforeAll(async () => {
  requireBuild();
  dir = tempDir();
  redisServer = await startRedis();
});

afterAll(async () => {
  await redisServer?.stop();
  rmTemp(dir);
});

const quiet = { write: () => true };

describe('hedgebench run over gRPC, everything on this machine', () => {
  it('measures a library-hedged and a grpc-js-hedged point over gRPC', async () => {
    const matrixFile = join(dir, 'grpc.json');
    writeFileSync(
      matrixFile,
      JSON.stringify({
        name: 'grpc-tiny',
        configs: [
          'hedge, no budget',
          { name: 'grpc-js', grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } },
        ],
        transport: ['grpc'],
        loads: [0.3],
        cancellation: ['propagate'],
        seeds: [1],
        calls: 300,
        calibration: false,
      }),
    );
    const out = join(dir, 'run-g');
    const run = await createRun({
      matrixFile,
      out,
      redisUrl: redisServer.url,
      cwd: dir,
      stderr: quiet,
      stdout: quiet,
    });
    expect(run.plan).toHaveLength(2);
    const outcome = await run.execute();
    expect(outcome).toMatchObject({ exitCode: 0, done: 2, failed: 0 });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.points.map((p) => p.key)).toEqual([
      'hedge, no budget|0.30|propagate|1|t=grpc',
      'grpc-js|0.30|propagate|1|t=grpc|g=grpc-js',
    ]);
    const text = readFileSync(join(out, 'points.csv'), 'utf8');
    expect(text.split('\n')[0]!.endsWith(',transport,hedger')).toBe(true);
    const rows = parsePointsCsv(text);
    for (const source of ['sim', 'real'] as const) {
      const mine = rows.filter((r) => r.source === source);
      expect(mine.map((r) => [r.config, r.transport, r.hedger ?? null])).toEqual([
        ['hedge, no budget', 'grpc', null],
        ['grpc-js', 'grpc', 'grpc-js'],
      ]);
    }
    for (const r of rows.filter((x) => x.source === 'real')) expect(r.measured_calls).toBe(270);
    // grpc-js hedges out of the generator's sight: requests per call come from the server's records.
    const realGrpcJs = rows.find((r) => r.source === 'real' && r.hedger === 'grpc-js')!;
    expect(realGrpcJs.requests_per_call!).toBeGreaterThan(1);
    // Every grpc-js point is judged against the A6 prediction, its rows carrying both columns.
    const comparison = parseComparisonCsv(readFileSync(join(out, 'comparison.csv'), 'utf8'));
    const judged = comparison.filter((r) => r.hedger === 'grpc-js');
    expect(judged.length).toBeGreaterThan(0);
    for (const r of judged) {
      expect(r.transport).toBe('grpc');
      expect(r.verdict).toMatch(/\S/);
    }
    // The target's records of the grpc-js point: grpc-js numbered its hedges, the server recorded them.
    const slug = manifest.points[1]!.slug;
    const attempts = readFileSync(join(out, 'raw', `${slug}.attempts.csv`), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    expect(attempts.length).toBeGreaterThan(300);
    expect(attempts.some((l) => l.split(',')[1] === '2')).toBe(true);
  });
});
