// Secrets and exposure of a real `hedgebench run` (everything on this machine, the orchestrator's own
// password-protected Redis): while it runs, the agents listen on 127.0.0.1 only, no process shows the
// token or the Redis password on its command line, and the live target refuses its control routes
// without the token; once it ends, no file of the run folder and no line of output holds either secret.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../orchestrator/agents/agent-registry.ts';
import {
  killProcessesMentioning,
  processesMentioning,
  requireBuild,
  rmTemp,
  runCli,
  tempDir,
  until,
} from '../orchestrator/fixture.ts';
import { filesContaining, filesUnder, writeMatrix } from './fixture.ts';

let dir: string;

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-rel-secrets-');
});

afterAll(async () => {
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

function agents(out: string): AgentRecord[] {
  const path = join(out, 'agents.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as AgentRecord[]) : [];
}

/** Local addresses (ip:port) a process listens on, from `ss -ltnp`. */
async function listening(pid: number): Promise<string[]> {
  const r = await execa('ss', ['-Hltnp'], { reject: false });
  return String(r.stdout)
    .split('\n')
    .filter((l) => l.includes(`pid=${pid},`))
    .map((l) => l.trim().split(/\s+/)[3]!);
}

/**
 * The command line of a process, its arguments joined by spaces; empty when it exited after it was listed
 * (a short-lived helper of the run: gone, it shows nothing to anyone).
 */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

describe('secrets of a real run', () => {
  it('binds to loopback only, keeps the token and the Redis password off command lines, files and output', async () => {
    // One point of about 9 s, long enough to look around while it runs.
    const matrix = writeMatrix(dir, 'secrets', { calls: 800, config: 'no hedge', loads: [0.3] });
    const out = join(dir, 'secrets');
    const running = runCli(['run', '--matrix', matrix, '--out', out], { cwd: dir });

    const tokenFile = join(out, 'work', 'target', 'target.token');
    const conf = join(out, 'work', 'redis', 'redis.conf');
    await until(
      () =>
        existsSync(tokenFile) &&
        ['redis', 'target', 'loadgen'].every((r) => agents(out).some((a) => a.role === r && a.pid > 0)),
      90_000,
      'the run to start its agents and a point',
    );
    const token = readFileSync(tokenFile, 'utf8').trim();
    const password = /requirepass (\S+)/.exec(readFileSync(conf, 'utf8'))![1]!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(password.length).toBeGreaterThanOrEqual(32);
    // Secret files are readable by their owner only.
    for (const f of [tokenFile, conf]) expect(statSync(f).mode & 0o077).toBe(0);

    const live = agents(out);
    const pid = (role: string) => live.find((a) => a.role === role && a.pid > 0)!.pid;
    // Agents bind the host's address only: loopback in the embedded default; the generator listens nowhere.
    for (const role of ['target', 'redis']) {
      const addrs = await listening(pid(role));
      expect(addrs.length, role).toBeGreaterThan(0);
      for (const a of addrs) expect(a, role).toMatch(/^127\.0\.0\.1:\d+$/);
    }
    expect(await listening(pid('loadgen'))).toEqual([]);
    // No command line of the run shows a secret (`ps` is readable by every local user).
    for (const p of await processesMentioning(out)) {
      const cmd = commandLine(p);
      expect(cmd).not.toContain(token);
      expect(cmd).not.toContain(password);
    }
    for (const role of ['target', 'redis', 'loadgen']) {
      expect(commandLine(pid(role))).not.toContain(password);
    }

    // The live target: control routes refuse a missing or wrong token, and the reply does not echo it.
    const started = readFileSync(join(out, 'run.log'), 'utf8');
    const targetUrl = /"target":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(started)![1]!;
    for (const auth of [undefined, 'Bearer wrong', `Bearer ${token.slice(0, 63)}`, token]) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (auth) headers.authorization = auth;
      const put = await fetch(`${targetUrl}/config`, { method: 'PUT', headers, body: '{"workers":1}' });
      expect(put.status, String(auth)).toBe(401);
      expect(await put.text()).not.toContain(token);
      const reset = await fetch(`${targetUrl}/reset`, { method: 'POST', headers });
      expect(reset.status, String(auth)).toBe(401);
      await reset.arrayBuffer();
    }

    const r = await running;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    // Nothing of the run holds either secret: logs of every agent, raw files, CSVs, manifest, report.
    const files = filesUnder(out).map((f) => f.slice(out.length + 1));
    expect(files).toEqual(
      expect.arrayContaining(['run.log', 'manifest.json', 'points.csv', 'work/target/target.log']),
    );
    expect(files.some((f) => f.startsWith('work/loadgen/'))).toBe(true);
    expect(filesContaining(out, token)).toEqual([]);
    expect(filesContaining(out, password)).toEqual([]);
    expect(`${r.stdout}${r.stderr}`).not.toContain(token);
    expect(`${r.stdout}${r.stderr}`).not.toContain(password);
    // The spent secrets' files are gone.
    expect(existsSync(tokenFile)).toBe(false);
    expect(existsSync(conf)).toBe(false);
  }, 150_000);
});
