// `hedgebench run --durable-redis`: the redis-server the orchestrator starts is stopped mid-point and
// started again on the same port with the same command line (a restart, as an operator or a supervisor
// would do it). Its append-only file keeps what was written; the point loses nothing.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, redisKeys } from '../../contract/index.ts';
import type { AgentRecord } from '../../orchestrator/agents/agent-registry.ts';
import { isLocalPidAlive } from '../../orchestrator/hosts/local-host.ts';
import { loadMatrixFile, planPoints } from '../../orchestrator/index.ts';
import {
  killProcessesMentioning,
  requireBuild,
  rmTemp,
  runCli,
  tempDir,
  until,
} from '../orchestrator/fixture.ts';
import { csvLines, filesContaining, untilProgress, writeMatrix } from './fixture.ts';

let dir: string;
let client: Redis | undefined;

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-rel-durable-');
});

afterAll(async () => {
  client?.disconnect();
  // The redis-server this test started again is not the orchestrator's to stop: stop it here.
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

function agents(out: string): AgentRecord[] {
  const path = join(out, 'agents.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AgentRecord[]) : [];
}

describe('hedgebench run --durable-redis', () => {
  it('loses nothing when its redis-server is restarted mid-point', async () => {
    const matrix = writeMatrix(dir, 'durable', { calls: 1200 });
    const out = join(dir, 'durable');
    const [pp] = planPoints(await loadMatrixFile(matrix));
    const running = runCli(['run', '--matrix', matrix, '--out', out, '--durable-redis'], { cwd: dir });

    // The orchestrator's redis-server: its pid from agents.json, its port from its process title, its
    // password from the 0600 config file in the run's redis folder.
    await until(
      () => agents(out).some((a) => a.role === 'redis' && a.pid > 0),
      60_000,
      'the run to start redis-server',
    );
    const pid = agents(out).find((a) => a.role === 'redis' && a.pid > 0)!.pid;
    // redis-server rewrites its title to `redis-server ADDR:PORT` only once it listens: wait for that.
    const portOf = () => Number(/127\.0\.0\.1:(\d+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1]);
    await until(() => Number.isInteger(portOf()), 10_000, 'redis-server to show its port in its title');
    const port = portOf();
    const redisDir = join(out, 'work', 'redis');
    const conf = join(redisDir, 'redis.conf');
    const password = /requirepass (\S+)/.exec(readFileSync(conf, 'utf8'))![1]!;
    client = new Redis({
      port,
      host: '127.0.0.1',
      password,
      retryStrategy: () => 50,
      maxRetriesPerRequest: 1,
    });
    client.on('error', () => {});
    const redis = client;
    expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    const key = redisKeys(basename(out), pp.slug).status;
    await untilProgress(running, async () => Number(await redis.hget(key, 'completed')), 400);

    const before = await redis.hgetall(key);
    process.kill(pid, 'SIGTERM');
    await until(async () => !(await isLocalPidAlive(pid)), 10_000, 'redis-server to stop');
    await sleep(1_000);
    // The same server again: same config file, port, address and data folder (so the same AOF).
    const argv = [
      conf,
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
    ].concat(['--dir', join(redisDir, 'data')]);
    const again = spawn('redis-server', argv, { cwd: redisDir, detached: true, stdio: 'ignore' });
    again.unref();
    const r = await running;

    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.points[0]!.state).toBe('done');
    expect(before.state).toBe('running');
    expect(Number(before.completed)).toBeLessThan(1200);
    const status = JSON.parse(readFileSync(join(out, 'raw', `${pp.slug}.status.json`), 'utf8'));
    const m = status.summary.measured as { ok: number; rejected: number; failed: number };
    const calls = csvLines(join(out, 'raw', `${pp.slug}.calls.csv`));
    expect(m.ok + m.rejected + m.failed).toBe(1080);
    expect(calls).toHaveLength(1080);
    expect(new Set(calls.map((l) => l.split(',')[0])).size).toBe(1080);
    // The run's own Redis password: in no file of the run folder (its config file is deleted at the end).
    expect(filesContaining(out, password)).toEqual([]);
    if (again.pid) process.kill(again.pid, 'SIGKILL');
  }, 150_000);
});
