// Tied points on the real clock: what `hedgebench run` (and `run --plan`) refuses before anything starts — a
// balancer whose later picks cannot be told when a call starts with more replicas than copies, a tied matrix
// over gRPC or against a foreign target — each with one error naming the field and the fix; the tied preset
// plans; and what the orchestrator sets each replica of a tied point to (its copies, every replica's URL).
// Real CLI processes (dist/), as in replica-check.test.ts.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetConfigSchema } from '../../contract/index.ts';
import { expandMatrix, parseMatrix, replicaSetupOf } from '../../model/index.ts';
import { targetConfigOf } from '../../orchestrator/point/point-targets.ts';
import { ROOT, requireBuild, rmTemp, runCli, tempDir } from './fixture.ts';

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = tempDir();
});
afterAll(() => rmTemp(dir));

const TIED = { name: 'tied, gap 1 ms', tied: { gapMs: 1, budgetPercent: 0 } };

function matrix(name: string, extra: object): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      name,
      configs: ['no hedge', TIED],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: 200,
      calibration: false,
      replicas: [2],
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

describe('hedgebench run: tied points checked before anything starts', () => {
  it('two-choices with more replicas than copies: refused naming balancer and the fix, by run and by the plan', async () => {
    const m = matrix('two-choices', { replicas: [2, 4], balancer: ['random', 'two-choices'] });
    const out = join(dir, 'never-tc');
    const r = await runCli(['run', '--matrix', m, '--out', out]);
    expectOneClearError(
      r,
      'HB_MATRIX_INVALID',
      'balancer: "two-choices" with 4 replicas cannot tie "tied, gap 1 ms" on the real clock',
      'use balancer "random"',
      'replicas ≤ copies (2',
    );
    expect(existsSync(out)).toBe(false);
    expectOneClearError(
      await runCli(['run', '--plan', '--matrix', m]),
      'HB_MATRIX_INVALID',
      'balancer: "two-choices" with 4 replicas',
    );
  });

  it('a tied matrix over gRPC, or against a foreign target: refused naming the field', async () => {
    const grpc = await runCli([
      'run',
      '--matrix',
      matrix('grpc', { transport: ['http1', 'grpc'] }),
      '--out',
      join(dir, 'never-grpc'),
    ]);
    expectOneClearError(
      grpc,
      'HB_MATRIX_INVALID',
      'transport: grpc with the tied configuration',
      'HTTP/1.1 only',
    );
    const foreign = await runCli([
      'run',
      '--matrix',
      matrix('foreign', { replicas: undefined, target: { url: 'http://127.0.0.1:9/work' } }),
      '--out',
      join(dir, 'never-foreign'),
    ]);
    expectOneClearError(foreign, 'HB_MATRIX_INVALID', 'configs[1].tied', 'a foreign target (target.url)');
  });

  it('the tied preset plans on the real clock: its points and estimate, nothing refused', async () => {
    const r = await runCli([
      'run',
      '--plan',
      '--matrix',
      join(ROOT, 'experiments', 'tied.json'),
      '--calls',
      '100',
    ]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const plan = String(r.stdout);
    expect(plan).toMatch(/estimated wall time: about/);
    expect(plan).toContain('tied, gap 1 ms|0.95|propagate|2|r=2|b=two-choices|c=0.5|x=20');
  });
});

describe('targetConfigOf a tied point', () => {
  it('every replica gets the copies and every replica’s URL; an untied point none', () => {
    const m = parseMatrix(
      {
        name: 't',
        configs: ['no hedge', TIED],
        loads: [0.5],
        cancellation: ['propagate'],
        seeds: [1],
        calls: 100,
        replicas: [2],
      },
      't.json',
    );
    const [plain, tied] = expandMatrix(m);
    const urls = ['http://127.0.0.1:4100', 'http://127.0.0.1:4101'];
    const of = (p: typeof plain, r: number) =>
      targetConfigOf(p!, replicaSetupOf(p!.dims), r, 'run', 's', urls);
    expect(of(plain, 1)).toMatchObject({ tiedCopies: 0, peers: [], replica: 1, replicas: 2 });
    const c = of(tied, 1);
    expect(c).toMatchObject({ tiedCopies: 2, peers: urls, replica: 1, replicas: 2 });
    expect(targetConfigSchema.parse(c)).toEqual(c);
  });
});
