// LocalHost (the embedded default): real child processes and files in a temporary run folder.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkNode,
  createLocalHost,
  type Host,
  isRedisUrl,
  openHosts,
} from '../../../orchestrator/hosts/index.ts';

let run: string;
let host: Host;
beforeAll(async () => {
  run = await mkdtemp(join(tmpdir(), 'hb-local-'));
  host = createLocalHost({ name: 'target', workDir: join(run, 'work', 'target') });
});
afterAll(() => rm(run, { recursive: true, force: true }));

async function waitFor(cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

describe('LocalHost', () => {
  it('runs argv in workDir without a shell, with stdin and exit codes', async () => {
    const r = await host.exec(['sh', '-c', 'pwd; echo err >&2; exit 3']);
    expect(r).toEqual({ stdout: `${host.workDir}\n`, stderr: 'err\n', exitCode: 3 });
    expect((await host.exec(['cat'], { input: 'in' })).stdout).toBe('in');
    expect((await host.exec(['echo', '$(touch pwned)', '`x`'])).stdout).toBe('$(touch pwned) `x`\n');
    expect(existsSync(join(host.workDir, 'pwned'))).toBe(false);
    expect((await host.exec(['no-such-program-hb'])).exitCode).toBe(127);
    await expect(host.exec(['sleep', '5'], { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'HB_HOST_TIMEOUT',
    });
    await expect(host.exec([])).rejects.toMatchObject({ code: 'HB_HOST_ARGUMENT' });
  });

  it('starts a detached process with env and a log, then stops it', async () => {
    const script =
      'console.log("up", process.env.HB_X); process.on("SIGTERM", () => { console.log("term"); process.exit(0); }); setInterval(() => {}, 1000);';
    const { pid } = await host.start([process.execPath, '-e', script], { name: 'agent', env: { HB_X: 'y' } });
    expect(await host.isAlive(pid)).toBe(true);
    await waitFor(async () => (await host.readFile('agent.log').catch(() => '')).includes('up y'));
    await host.stop(pid);
    expect(await host.isAlive(pid)).toBe(false);
    expect(await host.readFile('agent.log')).toContain('term');
    await host.stop(pid); // already gone: no error
    await expect(host.start(['no-such-program-hb'], { name: 'missing' })).rejects.toMatchObject({
      code: 'HB_HOST_COMMAND',
      message: expect.stringContaining('host target: could not start missing'),
    });
  });

  it('escalates to SIGKILL after the timeout', async () => {
    const { pid } = await host.start(['sh', '-c', 'trap "" TERM; while :; do sleep 1; done'], {
      name: 'stubborn',
    });
    await host.stop(pid, { timeoutMs: 200 });
    expect(await host.isAlive(pid)).toBe(false);
  });

  it('writes files with their mode, reads them, and refuses names outside workDir', async () => {
    const p = await host.writeFile('secret/token', 'tok', 0o600);
    expect(p).toBe(join(host.workDir, 'secret/token'));
    expect((await stat(p)).mode & 0o777).toBe(0o600);
    expect(await host.readFile('secret/token')).toBe('tok');
    expect(await host.writeFile('data/.keep', '')).toBe(join(host.workDir, 'data/.keep'));
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', '.', 'a//b', '-rf', 'a b', 'a;b', '$(x)', '']) {
      await expect(host.writeFile(bad, 'x')).rejects.toMatchObject({ code: 'HB_HOST_ARGUMENT' });
    }
  });

  it('uploads, keeps the mode, and skips an unchanged file', async () => {
    const src = join(run, 'bundle.mjs');
    await writeFile(src, 'console.log(1)\n');
    await chmod(src, 0o755);
    const dst = await host.upload(src, 'bundle.mjs');
    expect(await readFile(dst, 'utf8')).toBe('console.log(1)\n');
    expect((await stat(dst)).mode & 0o777).toBe(0o755);
    const before = (await stat(dst)).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await host.upload(src, 'bundle.mjs');
    expect((await stat(dst)).mtimeMs).toBe(before);
    await writeFile(src, 'console.log(2)\n');
    await host.upload(src, 'bundle.mjs');
    expect(await readFile(dst, 'utf8')).toBe('console.log(2)\n');
  });

  it('checks Node: this one passes, a missing or old one fails naming the host', async () => {
    expect(await checkNode(host, process.execPath)).toBe(process.version);
    await expect(checkNode(host, 'no-such-node-hb')).rejects.toMatchObject({
      code: 'HB_NODE_MISSING',
      message: expect.stringContaining('host target'),
    });
    const old = join(run, 'old-node');
    await writeFile(old, '#!/bin/sh\necho v18.19.0\n');
    await chmod(old, 0o755);
    await expect(checkNode(host, old)).rejects.toMatchObject({
      code: 'HB_NODE_MISSING',
      message: expect.stringContaining('v18.19.0 is too old'),
    });
  });
});

describe('openHosts without a hosts file', () => {
  it('puts every role on this machine with its own workDir under the run folder', async () => {
    const hosts = await openHosts(undefined, run);
    expect(hosts.mode).toBe('local');
    expect(isRedisUrl(hosts.redis)).toBe(false);
    const dirs = [hosts.target.workDir, hosts.loadgen.workDir, (hosts.redis as Host).workDir];
    expect(new Set(dirs).size).toBe(3);
    for (const d of dirs) expect(d.startsWith(join(run, 'work'))).toBe(true);
    expect(hosts.target.address).toBe('127.0.0.1');
    expect(hosts.describe()).toMatchObject({ mode: 'local' });
    await hosts.close();
  });
});
