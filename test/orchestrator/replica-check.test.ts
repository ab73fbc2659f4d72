// Replica settings the real clock cannot honour (more replicas than target hosts, replicas over gRPC) stop
// `hedgebench run` before anything starts, with one clear error naming the field; settings that change
// nothing are allowed and said in the plan output. Real CLI processes (dist/), as in cli-errors.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireBuild, rmTemp, runCli, tempDir } from './fixture.ts';

let dir: string;

beforeAll(() => {
  requireBuild();
  dir = tempDir();
});

afterAll(() => rmTemp(dir));

function matrix(name: string, extra: object): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name,
      configs: ['no hedge', 'hedge, no budget'],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 200,
      calibration: false,
      ...extra,
    }),
  );
  return path;
}

function expectOneClearError(r: { exitCode?: number; stderr: unknown }, code: string, ...mentions: string[]) {
  const stderr = String(r.stderr);
  expect(r.exitCode).not.toBe(0);
  expect(stderr).toContain(`hedgebench: ${code}: `);
  expect(stderr).not.toMatch(/\n\s+at /);
  for (const m of mentions) expect(stderr).toContain(m);
}

describe('hedgebench run: replica settings checked before anything starts', () => {
  it('replicas above the target hosts of the hosts file: one error naming replicas, no run folder', async () => {
    const hosts = join(dir, 'hosts.json');
    const h = { ssh: 'root@198.18.0.99', workDir: '/var/tmp/hedgebench-test', address: '198.18.0.99' };
    writeFileSync(
      hosts,
      JSON.stringify({ target: h, loadgen: h, redis: { url: 'redis://198.18.0.99:6379' } }),
    );
    const out = join(dir, 'never-hosts');
    const r = await runCli([
      'run',
      '--matrix',
      matrix('four', { replicas: [1, 4] }),
      '--hosts',
      hosts,
      '--out',
      out,
    ]);
    expectOneClearError(r, 'HB_MATRIX_INVALID', 'replicas: 4 is above the 1 target host', hosts);
    expect(existsSync(out)).toBe(false);
  });

  it('replicas above a list of target hosts: the error counts them and says how to add more', async () => {
    const hosts = join(dir, 'hosts-two.json');
    const h = (n: number) => ({
      ssh: `root@198.18.0.${n}`,
      workDir: '/var/tmp/hedgebench-test',
      address: `198.18.0.${n}`,
    });
    writeFileSync(
      hosts,
      JSON.stringify({ target: [h(2), h(5)], loadgen: h(3), redis: { url: 'redis://198.18.0.99:6379' } }),
    );
    const out = join(dir, 'never-two');
    const r = await runCli([
      'run',
      '--matrix',
      matrix('four-of-two', { replicas: [4] }),
      '--hosts',
      hosts,
      '--out',
      out,
    ]);
    expectOneClearError(
      r,
      'HB_MATRIX_INVALID',
      'replicas: 4 is above the 2 target hosts',
      'HB_LAB_TARGETS=4',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('replicas over gRPC: one error naming replicas and the transport, no run folder', async () => {
    const out = join(dir, 'never-grpc');
    const r = await runCli([
      'run',
      '--matrix',
      matrix('grpc', { replicas: [1, 2], transport: ['http1', 'grpc'] }),
      '--out',
      out,
    ]);
    expectOneClearError(r, 'HB_MATRIX_INVALID', 'replicas: 2 with transport grpc', 'HTTP/1.1 only');
    expect(existsSync(out)).toBe(false);
  });

  it('the replicas preset plans on the real clock: its points, estimate and notes, nothing refused', async () => {
    const r = await runCli(['run', '--plan', '--matrix', join(ROOT, 'experiments', 'replicas.json')]);
    expect(r.exitCode).toBe(0);
    const plan = String(r.stdout);
    expect(plan).toMatch(/estimated wall time: about/);
    expect(plan).toContain('hedge, default budget|0.85|propagate|1|r=4|b=least-outstanding|c=1');
    expect(String(r.stderr)).toContain('note: balancer has no effect on the points with 1 replica');
  });

  it('correlation outside [0, 1] and an unknown balancer: errors naming each field', async () => {
    const out = join(dir, 'never-fields');
    const r = await runCli([
      'run',
      '--matrix',
      matrix('bad', { correlation: [2], balancer: ['nearest'] }),
      '--out',
      out,
    ]);
    expectOneClearError(
      r,
      'HB_MATRIX_INVALID',
      'correlation[0]: must be in [0, 1]',
      'balancer[0]: "nearest"',
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('hedgebench simulate with replicas', () => {
  it('hedgeTo with one replica runs, with a note that it has no effect; replica columns at the end', async () => {
    const out = join(dir, 'sim');
    const r = await runCli([
      'simulate',
      '--matrix',
      matrix('sim', { replicas: [1, 2], hedgeTo: ['other', 'any'], correlation: [0, 1] }),
      '--threads',
      '0',
      '--out',
      out,
    ]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toContain('note: hedgeTo has no effect on the points with 1 replica');
    const lines = readFileSync(join(out, 'points.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/,valid,replicas,hedge_to,correlation$/);
    // no hedge: R1, R2; hedged: R1 × c{0,1}, R2 × hedgeTo{other,any} × c{0,1}.
    expect(lines).toHaveLength(1 + 2 + 2 + 4);
    expect(lines.some((l) => l.startsWith('"hedge, no budget",') && l.endsWith(',2,any,1'))).toBe(true);
    const evidence = JSON.parse(readFileSync(join(out, 'sim-evidence.json'), 'utf8')) as {
      points: { key: string; replicas?: { utilization: number }[] }[];
    };
    const two = evidence.points.find((p) => p.key === 'no hedge|0.50|ignore|1|r=2')!;
    expect(two.replicas).toHaveLength(2);
    for (const rep of two.replicas!) expect(rep.utilization).toBeGreaterThan(0.2);
  });
});
