// target-server/main.ts as a real process: one JSON `listening` line on stdout, logs on stderr, the token
// from a file (never echoed), exit 0 on SIGTERM, exit 2 with a clear message on a bad flag.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createAgent } from './http.ts';

const agent = createAgent();
const dir = mkdtempSync(join(tmpdir(), 'hb-target-main-'));
const children: ChildProcess[] = [];

afterAll(async () => {
  await agent.close();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'target-server/main.ts', ...args], {
    env: { ...process.env, HEDGEBENCH_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function listening(run: Run): Promise<{ event: string; url: string; pid: number }> {
  const end = Date.now() + 30_000;
  while (!run.out().includes('\n')) {
    if (run.child.exitCode !== null) throw new Error(`server exited ${run.child.exitCode}: ${run.err()}`);
    if (Date.now() > end) throw new Error(`no listening line in 30 s; stderr: ${run.err()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return JSON.parse(run.out().split('\n')[0]!);
}

describe('target-server main.ts', () => {
  it('prints one listening line, takes the token from a file, and exits 0 on SIGTERM', async () => {
    const token = 'file-token-7d1e0c';
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${token}\n`);
    const run = start([
      '--port',
      '0',
      '--workers',
      '2',
      '--token-file',
      tokenFile,
      '--cancellation',
      'propagate',
    ]);
    const line = await listening(run);
    expect(line).toEqual({
      event: 'listening',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      pid: run.child.pid,
    });
    expect(await call(agent, `${line.url}/health`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call(agent, `${line.url}/work?call=1&attempt=1`)).status).toBe(200);
    expect((await call(agent, `${line.url}/reset`, { method: 'POST' })).status).toBe(401);
    expect((await call(agent, `${line.url}/reset`, { method: 'POST', token })).status).toBe(200);
    const stats = await call(agent, `${line.url}/stats`);
    expect(stats.body.config).toMatchObject({ workers: 2, cancellation: 'propagate' });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.out().trim().split('\n')).toHaveLength(1);
    expect(run.err()).toContain('SIGTERM');
    expect(run.out() + run.err()).not.toContain(token);
  });

  it('takes the token from HEDGEBENCH_TOKEN', async () => {
    const run = start(['--port', '0'], { HEDGEBENCH_TOKEN: 'env-token-42' });
    const { url } = await listening(run);
    expect((await call(agent, `${url}/reset`, { method: 'POST', token: 'nope' })).status).toBe(401);
    expect((await call(agent, `${url}/reset`, { method: 'POST', token: 'env-token-42' })).status).toBe(200);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.out() + run.err()).not.toContain('env-token-42');
  });

  it('refuses a bad flag with exit code 2 and a message naming it', async () => {
    const run = start(['--port', '0', '--workers', '0']);
    expect(await run.exit).toBe(2);
    expect(run.err()).toMatch(/workers/);
    expect(run.out()).toBe('');
  });
});
