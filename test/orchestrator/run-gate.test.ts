// `hedgebench run --fail-on … --json` end to end (the built CLI, a real local run of one small point): stdout
// carries one JSON document and nothing else, the text summary goes to stderr, and the exit status is 3
// exactly when the gate lists failures (HB_THRESHOLDS_FAILED on stderr), else 0.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../library/index.ts';
import {
  killProcessesMentioning,
  requireBuild,
  rmTemp,
  runCli,
  tempDir,
  writeTinyMatrix,
} from './fixture.ts';

let dir: string;

beforeAll(() => {
  requireBuild();
  dir = tempDir('hb-run-gate-');
});

afterAll(async () => {
  await killProcessesMentioning(dir);
  rmTemp(dir);
});

describe('hedgebench run --fail-on --json', () => {
  it('prints the JSON summary alone on stdout and exits 3 exactly when the gate failed', async () => {
    const matrix = writeTinyMatrix(dir, { configs: ['no hedge'], calls: 300 });
    const out = join(dir, 'run');
    const r = await runCli(
      [
        'run',
        '--matrix',
        matrix,
        '--out',
        out,
        '--fail-on',
        'diverges,invalid,collapse-mismatch,missing',
        '--json',
      ],
      {
        timeout: 180_000,
      },
    );
    const stderr = String(r.stderr);
    const j = JSON.parse(String(r.stdout));
    expect(j.runDir).toBe(out);
    expect(j.points).toEqual({ done: 1, failed: 0, pending: 0 });
    expect(j.gate.failOn).toEqual(['diverges', 'invalid', 'collapse-mismatch', 'missing']);
    expect(j.comparison.points).toBe(1);
    // The text summary went to stderr with the progress.
    expect(stderr).toContain('hedgebench run tiny: 1 points, 1 done, 0 failed');
    const failed = j.gate.failures.length > 0;
    expect(j.gate.passed).toBe(!failed);
    expect(r.exitCode).toBe(failed ? EXIT_CODES.thresholds : EXIT_CODES.ok);
    expect(j.exitCode).toBe(r.exitCode);
    expect(stderr.includes('hedgebench: HB_THRESHOLDS_FAILED: measured, but the thresholds failed')).toBe(
      failed,
    );
  });
});
