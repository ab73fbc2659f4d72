// Lanes that starve each other: on one machine, lanes of a dilated run (chosen by `--lanes auto`, the default
// when every point is dilated) keep every point's self-checks passing. Before dilation, two or three lanes
// here made every point invalid (send lag, transit and hold overshoot). `npm test` runs this file alone,
// after the others, since another test file's load on the same cores is not what it judges. It runs at
// k = 20: at k = 10, one full suite in six here (2026-12-02 06:48) read one point's send-lag p99 at 13.9 ms
// against 10, a few sends of 540 held up by the machine, not by the other lane (starved lanes read 38 ms
// and more); at k = 20 the same bounds are 20 ms wall. A point measured while the hypervisor took
// STEAL_NOTE_SHARE or more of the CPU is not the lanes' doing (a suite here failed at 24 % steal and passed
// alone at 0.8 %): as its reasons tell a user, it is measured once more (`--retry-invalid`) before judging.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRun, STEAL_NOTE_SHARE } from '../../analysis/index.ts';
import type { Manifest } from '../../contract/index.ts';
import { createRun } from '../../orchestrator/index.ts';
import { localRunSuite, QUIET, writeTinyMatrix } from './fixture.ts';

const suite = localRunSuite('hb-starve-');

describe('two lanes at time scale 20, everything on this machine', () => {
  it('are what --lanes auto picks for two points, and every point passes its self-checks', async () => {
    const path = writeTinyMatrix(suite.dir, { name: 'starve', calls: 600 });
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), timeScale: [20] }));
    const out = join(suite.dir, 'run');
    const said: string[] = [];
    const run = await createRun({
      matrixFile: path,
      out,
      redisUrl: suite.redisUrl,
      cwd: suite.dir,
      stderr: { write: (t: string) => said.push(t) },
      stdout: QUIET,
    });
    const outcome = await run.execute();
    expect(outcome).toMatchObject({ exitCode: 0, done: 2, failed: 0 });
    expect(said.join('')).toContain('lanes auto: 2 (time scale 20');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.lanes).toBe(2);
    const stolen = analyzeRun(out).points.filter(
      (p) => p.invalidReasons.length > 0 && (p.entry.stealShare ?? 0) >= STEAL_NOTE_SHARE,
    );
    if (stolen.length > 0) {
      const again = await createRun({
        resume: out,
        retryInvalid: true,
        redisUrl: suite.redisUrl,
        cwd: suite.dir,
        stderr: QUIET,
        stdout: QUIET,
      });
      expect(await again.execute()).toMatchObject({ exitCode: 0, failed: 0 });
    }
    const a = analyzeRun(out);
    for (const p of a.points) {
      expect(p.invalidReasons, p.key).toEqual([]);
      expect(p.real?.valid, p.key).toBe(true);
    }
  }, 180_000);
});
