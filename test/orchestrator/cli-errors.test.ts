// Bad input to `hedgebench run` gets one clear error naming the field, a non-zero exit and no stack trace;
// an unreachable SSH host fails within its connect timeout, naming the host. Real CLI processes.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, rmTemp, runCli, tempDir, writeTinyMatrix } from './fixture.ts';

let dir: string;

beforeAll(() => {
  requireBuild();
  dir = tempDir();
});

afterAll(() => rmTemp(dir));

/** The one-error contract: non-zero exit, `hedgebench: CODE: …` on stderr, no stack frames, no usage dump. */
function expectOneClearError(r: { exitCode?: number; stderr: unknown }, code: string, ...mentions: string[]) {
  const stderr = String(r.stderr);
  expect(r.exitCode).not.toBe(0);
  expect(stderr).toContain(`hedgebench: ${code}: `);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toContain('Options:');
  for (const m of mentions) expect(stderr).toContain(m);
}

describe('hedgebench run with bad input', () => {
  it('names the bad field of a matrix file and creates no run folder', async () => {
    const matrix = join(dir, 'bad-matrix.json');
    writeFileSync(
      matrix,
      JSON.stringify({
        name: 'bad',
        configs: ['no hedge'],
        loads: [0.5, 'high'],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 100,
      }),
    );
    const out = join(dir, 'never');
    const r = await runCli(['run', '--matrix', matrix, '--out', out]);
    expectOneClearError(r, 'HB_MATRIX_INVALID', 'loads[1]', matrix);
    expect(existsSync(out)).toBe(false);
  });

  it('says so when the matrix file is not JSON', async () => {
    const matrix = join(dir, 'not-json.json');
    writeFileSync(matrix, '{ "name": "x", ');
    const r = await runCli(['run', '--matrix', matrix, '--out', join(dir, 'never')]);
    expectOneClearError(r, 'HB_MATRIX_INVALID', 'not valid JSON');
  });

  it('names the bad field of a hosts file (a shell metacharacter in an ssh destination)', async () => {
    const hosts = join(dir, 'bad-hosts.json');
    writeFileSync(
      hosts,
      JSON.stringify({
        target: {
          ssh: 'root@198.18.0.99;touch /tmp/hb-pwned',
          workDir: '/var/tmp/hb',
          address: '198.18.0.99',
        },
        loadgen: { ssh: 'root@198.18.0.99', workDir: '/var/tmp/hb', address: '198.18.0.99' },
        redis: { url: 'redis://198.18.0.99:6379' },
      }),
    );
    const out = join(dir, 'never');
    const r = await runCli(['run', '--matrix', writeTinyMatrix(dir), '--hosts', hosts, '--out', out]);
    expectOneClearError(r, 'HB_HOSTS_INVALID', 'target.ssh');
    expect(existsSync(out)).toBe(false);
  });

  it('rejects --calls below 10, naming the option', async () => {
    const r = await runCli(['run', '--calls', '5', '--out', join(dir, 'never')]);
    expectOneClearError(r, 'HB_RUN_OPTION', '--calls');
  });

  it('rejects a results folder it cannot write', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await runCli(['run', '--matrix', writeTinyMatrix(dir), '--out', join(file, 'run')]);
    expectOneClearError(r, 'HB_RESULTS_FOLDER', 'not writable', '--out');
  });

  it('fails within the connect timeout when the SSH host is unreachable, naming the host', async () => {
    // 198.18.0.99 is in the benchmarking range; nothing listens there.
    const hosts = join(dir, 'unreachable.json');
    const h = { ssh: 'root@198.18.0.99', workDir: '/var/tmp/hedgebench-test', address: '198.18.0.99' };
    writeFileSync(
      hosts,
      JSON.stringify({
        connectTimeoutSeconds: 2,
        target: h,
        loadgen: h,
        redis: { url: 'redis://198.18.0.99:6379' },
      }),
    );
    const t0 = Date.now();
    const r = await runCli([
      'run',
      '--matrix',
      writeTinyMatrix(dir),
      '--hosts',
      hosts,
      '--out',
      join(dir, 'ssh'),
    ]);
    const elapsed = Date.now() - t0;
    expectOneClearError(r, 'HB_SSH_UNREACHABLE', '198.18.0.99');
    // A hang guard, not a speed check: 2 s of connect timeout plus process start-up, far from "forever".
    expect(elapsed).toBeLessThan(30_000);
  });
});
