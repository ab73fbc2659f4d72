// `hedgebench claims` as a user runs it (the built CLI, real processes): on a small simulation folder, on a
// run folder, and on a folder that is not a run.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIMS_HEADER, parseClaimsCsv } from '../../../contract/index.ts';
import { requireBuild, rmTemp, runCli, tempDir } from '../../orchestrator/fixture.ts';
import { VERDICT_POINTS, writeFixtureRun } from '../fixture.ts';

let dir: string;
let run: string;

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-claims-cmd-');
  run = writeFixtureRun(VERDICT_POINTS);
});

afterAll(() => {
  rmTemp(dir);
  rmSync(run, { recursive: true, force: true });
});

describe('hedgebench claims', () => {
  it('judges a small simulation, writes claims.csv and names the points it lacks', async () => {
    const matrix = join(dir, 'small.json');
    writeFileSync(
      matrix,
      JSON.stringify({
        name: 'small',
        configs: ['no hedge', 'hedge, no budget', 'hedge, default budget', '3 attempts, no budget'],
        loads: [0.5, 0.95],
        cancellation: ['ignore'],
        seeds: [1],
        calls: 3000,
        calibration: false,
      }),
    );
    const out = join(dir, 'sim');
    const sim = await runCli(['simulate', '--matrix', matrix, '--out', out, '--threads', '0']);
    expect(sim.exitCode, String(sim.stderr)).toBe(0);

    const r = await runCli(['claims', out]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const stdout = String(r.stdout);
    expect(stdout.split('\n')[0]).toMatch(/^claim\s+sim$/);
    expect(stdout).toMatch(/^1 light load: hedging works\s+holds$/m);
    expect(stdout).toContain(
      '5 sim: inconclusive: missing point `hedge, default budget, adaptive limit` 0.95 ignore seed 1',
    );
    const text = readFileSync(join(out, 'claims.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('claim,source,verdict,evidence,summary');
    expect(text.split('\n')[0]).toBe(CLAIMS_HEADER);
    expect(parseClaimsCsv(text).map((r) => `${r.claim},${r.source}`)).toEqual(
      ['1', '2', '3', '4', '5', '6', '7'].map((c) => `${c},sim`),
    );
  });

  it('judges every source of a run folder', async () => {
    const r = await runCli(['claims', run]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout).split('\n')[0]).toMatch(/^claim\s+sim\s+real$/);
    expect(parseClaimsCsv(readFileSync(join(run, 'claims.csv'), 'utf8'))).toHaveLength(7 * 2);
  });

  it('refuses a folder that is not a run with one clear error and a non-zero exit', async () => {
    const notRun = join(dir, 'not-a-run');
    mkdirSync(notRun);
    writeFileSync(join(notRun, 'notes.txt'), 'hello\n');
    const r = await runCli(['claims', notRun]);
    expect(r.exitCode).not.toBe(0);
    expect(String(r.stderr)).toContain('hedgebench: HB_RUN_FOLDER_INVALID: ');
    expect(String(r.stderr)).toContain('is not a run');
    expect(String(r.stderr)).not.toMatch(/\n\s+at /);
  });
});
