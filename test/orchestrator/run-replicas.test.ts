// Replicas on the real clock, everything on this machine: a run with replicas [1, 2] starts two target-server
// processes, prepares each point's replicas with their index, shared stragglers and the slow one, and the
// load generator balances across them. Real redis-server, target servers and load generators; a tiny matrix.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRun, readAttemptsCsv } from '../../analysis/index.ts';
import {
  ATTEMPT_FIELDS,
  attemptFields,
  type Manifest,
  parsePointsCsv,
  rawPaths,
} from '../../contract/index.ts';
import { DEFAULT_MODEL, replicaServiceMs, replicaSetupOf } from '../../model/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { localRunSuite, processesMentioning, QUIET, replicaHoldMeans, runLog } from './fixture.ts';

const suite = localRunSuite();

describe('hedgebench run with replicas, everything on this machine', () => {
  it('runs two target servers, records which replica served each attempt, and shows the slow one', async () => {
    const matrixFile = join(suite.dir, 'replicas.json');
    writeFileSync(
      matrixFile,
      JSON.stringify({
        name: 'replicas-tiny',
        configs: ['no hedge', 'hedge, no budget'],
        loads: [0.3],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 300,
        calibration: false,
        replicas: [1, 2],
        correlation: [1],
        slowReplica: [2],
      }),
    );
    const out = join(suite.dir, 'run-r');
    const run = await createRun({
      matrixFile,
      out,
      redisUrl: suite.redisUrl,
      cwd: suite.dir,
      stderr: QUIET,
      stdout: QUIET,
    });
    // no hedge × R{1, 2}, hedge × R{1, 2}: correlation changes only the hedged ones.
    expect(run.plan.map((p) => p.key)).toEqual([
      'no hedge|0.30|ignore|1|s=2',
      'no hedge|0.30|ignore|1|r=2|s=2',
      'hedge, no budget|0.30|ignore|1|c=1|s=2',
      'hedge, no budget|0.30|ignore|1|r=2|c=1|s=2',
    ]);
    const outcome = await run.execute();
    expect(outcome).toMatchObject({ done: 4, failed: 0, pending: 0, interrupted: null });

    // Two target servers ran, each with its own working directory, log and (spent, deleted) token.
    const started = runLog(out).find((e) => e.event === 'agents-started')!;
    expect(started.targets).toHaveLength(2);
    expect(new Set(started.targets as string[]).size).toBe(2);
    for (const name of ['target', 'target-1']) {
      expect(readFileSync(join(out, 'work', name, `${name}.log`), 'utf8')).toMatch(/listening/i);
      expect(existsSync(join(out, 'work', name, `${name}.token`))).toBe(false);
    }

    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    const params = { ...DEFAULT_MODEL };
    for (const p of manifest.points) {
      const setup = replicaSetupOf(p.dims);
      const path = join(out, 'raw', `${p.slug}.attempts.csv`);
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      // One replica: the attempts file has today's columns; several: the replica column at the end.
      expect(lines[0]).toBe(attemptFields(setup.replicas).join(','));
      if (setup.replicas === 1) expect(lines[0]).toBe(ATTEMPT_FIELDS.join(','));
      const a = readAttemptsCsv(path);
      expect(a.replica === undefined).toBe(setup.replicas === 1);
      // Each target drew the replica model's service time: shared stragglers, replica 0 twice as slow.
      for (let i = 0; i < a.n; i++) {
        const r = a.replica?.[i] ?? 0;
        const want = replicaServiceMs(params, setup, p.seed, a.call[i], a.attempt[i], r);
        expect(Math.abs(a.serviceMs[i] - want)).toBeLessThan(0.001);
      }
      if (setup.replicas === 2) {
        const served = new Set(a.replica);
        expect([...served].sort()).toEqual([0, 1]);
        // hedgeTo other: a call's attempts never share a replica.
        const byCall = new Map<number, number[]>();
        for (let i = 0; i < a.n; i++)
          byCall.set(a.call[i], [...(byCall.get(a.call[i]) ?? []), a.replica![i]]);
        for (const rs of byCall.values()) expect(new Set(rs).size).toBe(rs.length);
        const status = JSON.parse(readFileSync(join(out, 'raw', `${p.slug}.status.json`), 'utf8'));
        expect(status.target_recorder.replicas).toHaveLength(2);
        expect(status.target_recorder.dropped).toBe(0);
        expect(status.target_check.replicas).toHaveLength(2);
      }
    }

    // points.csv: replica dims at the end; the R = 1 rows leave the replicas column empty.
    const csv = readFileSync(join(out, 'points.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/,valid,replicas,correlation,slow_replica$/);
    const rows = parsePointsCsv(csv.join('\n'));
    expect(rows.filter((r) => r.source === 'real')).toHaveLength(4);

    // Per-replica use: each replica's mean hold is what it was asked to hold (the drawn service times of the
    // measured calls' attempts it started, the slow one's doubled, checked above) or more: the timer's overshoot.
    // Which calls land on which replica is the balancer's luck, so the two replicas' means are not compared.
    const analysis = analyzeRun(out);
    const replicated = analysis.points.filter((p) => p.replicas !== null);
    expect(replicated.map((p) => p.key)).toEqual([
      'no hedge|0.30|ignore|1|r=2|s=2',
      'hedge, no budget|0.30|ignore|1|r=2|c=1|s=2',
    ]);
    for (const p of replicated) {
      const slug = manifest.points.find((m) => m.key === p.key)!.slug;
      const means = replicaHoldMeans(rawPaths(out, slug), 2);
      const [slow, fast] = p.replicas!;
      expect(slow.slow).toBe(true);
      expect(fast.slow).toBe(false);
      for (const r of p.replicas!) {
        expect(r.meanHoldMs!).toBeGreaterThanOrEqual(means.askedMs[r.replica] - 0.01);
        // The overshoot above it is the machine's; the mean itself is the records' (end − start) mean.
        expect(r.meanHoldMs!).toBeCloseTo(means.heldMs[r.replica], 6);
        expect(r.utilization!).toBeGreaterThan(0);
      }
    }
    expect(analysis.points.filter((p) => p.replicas === null)).toHaveLength(2);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('## Replicas');
    expect(report).toContain('the slow one is replica 0 (service × 2)');

    expect(await suite.redis.keys(`hb:${manifest.run}:*`)).toEqual([]);
    expect(await processesMentioning(out)).toEqual([]);
  }, 180_000);
});
