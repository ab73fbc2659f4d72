// The matrix runner and `hedgebench simulate`: results do not depend on the number of threads, the same
// matrix and seed give a byte-identical points.csv, and a bad matrix gets an error naming the field.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPointsCsv, POINTS_HEADER } from '../../contract/index.ts';
import { expandMatrix, parseMatrix } from '../../model/index.ts';
import { packageRoot, readMatrixFile, runPoints, SimWorkerError } from '../../simulator/index.ts';
import { requireBuild } from '../orchestrator/fixture.ts';

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), 'hb-sim-'));
const spec = {
  name: 'tiny',
  configs: ['no hedge', 'hedge, no budget', 'hedge, default budget, adaptive limit'],
  loads: [0.5, 0.95],
  cancellation: ['ignore', 'propagate'],
  seeds: [3],
  calls: 2000,
};

beforeAll(() => {
  // The worker threads and the CLI run the bundles that `npm test` builds first. Building them here
  // again would replace dist/ under the CLI tests running beside this file.
  requireBuild();
  writeFileSync(join(dir, 'tiny.json'), JSON.stringify(spec));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runPoints', () => {
  it('gives the same results in this thread, on one worker and on three, in the points order', async () => {
    const points = expandMatrix(parseMatrix(spec));
    const seen: number[] = [];
    const inProcess = await runPoints(points, { threads: 0, onPoint: (_r, done) => seen.push(done) });
    const one = await runPoints(points, { threads: 1 });
    const three = await runPoints(points, { threads: 3 });
    const csv = (rs: typeof one) => formatPointsCsv(rs.map((r) => r.row));
    expect(csv(one)).toBe(csv(inProcess));
    expect(csv(three)).toBe(csv(inProcess));
    expect(three.map((r) => r.key)).toEqual(inProcess.map((r) => r.key));
    expect(three.map((r) => r.collapse)).toEqual(inProcess.map((r) => r.collapse));
    expect(seen).toEqual(points.map((_, i) => i + 1));
  });

  it('says how to build the worker when its bundle is missing', async () => {
    const points = expandMatrix(parseMatrix(spec)).slice(0, 1);
    const missing = pathToFileURL(join(dir, 'no-such-worker.mjs'));
    await expect(runPoints(points, { threads: 1, workerUrl: missing })).rejects.toThrow(SimWorkerError);
    await expect(runPoints(points, { threads: 1, workerUrl: missing })).rejects.toThrow(/npm run build/);
  });
});

describe('hedgebench simulate', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'dist', 'hedgebench.mjs'), 'simulate', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });

  it('prints the tables, writes points.csv, and writes the same bytes on a second run', () => {
    const a = cli('--matrix', 'tiny.json', '--out', 'a', '--threads', '2');
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout).toContain('simulated, cancellation ignore: p99 / p99.9 ms');
    expect(a.stdout).toContain(
      'simulated, cancellation propagate: requests per call · rejected % · utilisation',
    );
    expect(a.stderr).toMatch(/\[12\/12\]/);
    const csvA = readFileSync(join(dir, 'a', 'points.csv'), 'utf8');
    const lines = csvA.trimEnd().split('\n');
    expect(lines[0]).toBe(POINTS_HEADER);
    expect(lines).toHaveLength(13);
    expect(lines[1]).toMatch(/^no hedge,0\.50,ignore,3,sim,2000,1800,/);
    const b = cli('--matrix', 'tiny.json', '--out', 'b', '--threads', '1');
    expect(b.status, b.stderr).toBe(0);
    expect(readFileSync(join(dir, 'b', 'points.csv'), 'utf8')).toBe(csvA);
    expect(readFileSync(join(dir, 'b', 'sim-evidence.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'a', 'sim-evidence.json'), 'utf8'),
    );
  });

  const simRows = (out: string) =>
    readFileSync(join(dir, out, 'points.csv'), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1);

  it('applies --calls and --seed', () => {
    const r = cli('--matrix', 'tiny.json', '--out', 'c', '--calls', '1000', '--seed', '9', '--threads', '0');
    expect(r.status, r.stderr).toBe(0);
    const rows = simRows('c');
    expect(rows).toHaveLength(12);
    expect(rows.every((l) => l.includes(',9,sim,1000,900,'))).toBe(true);
  });

  it('simulates the seeds a --seed range and list name, each point of each', () => {
    const r = cli(
      '--matrix',
      'tiny.json',
      '--out',
      'seeds',
      '--calls',
      '100',
      '--seed',
      '3-4,9',
      '--threads',
      '0',
    );
    expect(r.status, r.stderr).toBe(0);
    const seeds = simRows('seeds').map((l) => /,(?:ignore|propagate),(\d+),sim,/.exec(l)?.[1]);
    expect(seeds).toHaveLength(36);
    expect([...new Set(seeds)].sort()).toEqual(['3', '4', '9']);
    expect(seeds.filter((s) => s === '4')).toHaveLength(12);
  });

  it('simulates experiments/quick.json without --matrix, as run does', () => {
    const r = cli('--out', 'quick', '--calls', '20', '--threads', '0');
    expect(r.status, r.stderr).toBe(0);
    const rows = simRows('quick');
    expect(rows).toHaveLength(8);
    expect(rows[0]).toMatch(/^no hedge,0\.50,ignore,1,sim,20,18,/);
  });

  it('refuses an --out that already holds a simulation before simulating, leaving it as it was', () => {
    const before = readFileSync(join(dir, 'a', 'points.csv'), 'utf8');
    const r = cli('--matrix', 'tiny.json', '--out', 'a', '--calls', '100', '--threads', '0');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('HB_SIM_OPTION: --out');
    expect(r.stderr).not.toMatch(/\[1\/12\]/);
    expect(readFileSync(join(dir, 'a', 'points.csv'), 'utf8')).toBe(before);
  });

  it('rejects a bad matrix with the field and the fix', () => {
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ ...spec, loads: [0.5, 'high'], cancellation: ['drop'] }),
    );
    const r = cli('--matrix', 'bad.json', '--out', 'd');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('HB_MATRIX_INVALID');
    expect(r.stderr).toMatch(/loads\[1\]: must be number, got string/);
    expect(r.stderr).toMatch(/cancellation\[0\]: must be 'ignore' or 'propagate'/);
    expect(() => readMatrixFile(join(dir, 'nope.json'))).toThrow(/nope\.json cannot be read \(ENOENT\)/);
    writeFileSync(join(dir, 'broken.json'), '{ "name": ');
    expect(() => readMatrixFile(join(dir, 'broken.json'))).toThrow(/not valid JSON/);
  });
});
