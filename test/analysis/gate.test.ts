// The gate: a real `hedgebench compare` (the built CLI, a child process) on the analysis fixture exits 3
// when a verdict named by --fail-on (or the matrix's failOn) occurs, 0 when nothing is gated; --json puts
// one JSON document alone on stdout; sim and real rows of different calls are warned about.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPointsCsv, parsePointsCsv } from '../../contract/index.ts';
import { EXIT_CODES } from '../../library/index.ts';
import { requireBuild, runCli } from '../orchestrator/fixture.ts';
import { VERDICT_POINTS, writeFixtureRun } from './fixture.ts';

let dir: string;

beforeAll(() => {
  requireBuild();
  dir = writeFixtureRun(VERDICT_POINTS);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hedgebench compare --fail-on', () => {
  it('exits 0 without a gate, although the fixture has a divergence', async () => {
    const r = await runCli(['compare', dir]);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/diverges [1-9]/);
  });

  it('exits 3 (measured, thresholds failed) on --fail-on diverges, naming the verdict', async () => {
    const r = await runCli(['compare', dir, '--fail-on', 'diverges']);
    expect(r.exitCode).toBe(EXIT_CODES.thresholds);
    expect(String(r.stderr)).toContain('hedgebench: HB_THRESHOLDS_FAILED: ');
    expect(String(r.stderr)).toMatch(/diverges \d+/);
    expect(String(r.stderr)).not.toMatch(/\n\s+at /);
  });

  it('passes a gate on a verdict that does not occur (collapse-mismatch)', async () => {
    const r = await runCli(['compare', dir, '--fail-on', 'collapse-mismatch']);
    expect(r.exitCode).toBe(0);
  });

  it('--json prints one JSON document on stdout and nothing else', async () => {
    const r = await runCli(['compare', dir, '--fail-on', 'diverges,invalid', '--json']);
    expect(r.exitCode).toBe(EXIT_CODES.thresholds);
    const j = JSON.parse(String(r.stdout));
    expect(j.gate.passed).toBe(false);
    expect(j.gate.failOn).toEqual(['diverges', 'invalid']);
    expect(j.gate.failures.length).toBe(j.comparison.verdicts.diverges + j.comparison.verdicts.invalid);
    expect(
      j.gate.failures.some(
        (f: { config: string; load: number }) => f.config === 'no hedge' && f.load === 0.95,
      ),
    ).toBe(true);
    expect(j.comparison.points).toBe(VERDICT_POINTS.filter((p) => !p.calibration).length);
  });

  it("uses the matrix's failOn when no flag is given", async () => {
    const gated = writeFixtureRun(VERDICT_POINTS, 'gated');
    try {
      const path = join(gated, 'manifest.json');
      const m = JSON.parse(readFileSync(path, 'utf8'));
      m.matrix.failOn = ['diverges'];
      writeFileSync(path, JSON.stringify(m));
      expect((await runCli(['compare', gated])).exitCode).toBe(EXIT_CODES.thresholds);
      // The flag overrides the matrix.
      expect((await runCli(['compare', gated, '--fail-on', 'collapse-mismatch'])).exitCode).toBe(0);
    } finally {
      rmSync(gated, { recursive: true, force: true });
    }
  });

  it('refuses an unknown verdict before reading the folder', async () => {
    const r = await runCli(['compare', join(dir, 'no-such-run'), '--fail-on', 'diverge']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain(
      'hedgebench: HB_FAIL_ON: --fail-on "diverge": "diverge" is not a verdict',
    );
  });

  it('warns (stderr and --json) when sim and real rows were made with different calls', async () => {
    const other = writeFixtureRun(VERDICT_POINTS, 'mixed');
    try {
      const path = join(other, 'points.csv');
      const rows = parsePointsCsv(readFileSync(path, 'utf8')).map((r) =>
        r.source === 'sim' && r.config === 'no hedge' ? { ...r, calls: 200 } : r,
      );
      writeFileSync(path, formatPointsCsv(rows));
      const r = await runCli(['compare', other, '--json']);
      expect(r.exitCode).toBe(0);
      expect(String(r.stderr)).toMatch(
        /warning: no hedge at load 0\.50 .*simulated row has 200 calls, the real one 3000/,
      );
      const j = JSON.parse(String(r.stdout));
      expect(j.warnings.length).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
