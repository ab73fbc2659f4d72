// Regenerates the small results-format outputs the golden test pins: a simulated points.csv (and its
// evidence and tables) and, from the analysis fixture, comparison.csv/.txt and the recomputed points.csv.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRunFolder } from '../../analysis/index.ts';
import { readMatrixFile, simulateMatrix } from '../../simulator/index.ts';
import { VERDICT_POINTS, writeFixtureRun } from '../analysis/fixture.ts';

/** Golden file name → the bytes the current code produces for it. */
export async function goldenOutputs(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const tmp = mkdtempSync(join(tmpdir(), 'hb-golden-'));
  try {
    // The quick preset ships dilated; at time scale 1 its outputs are the ones made before the dimension existed.
    const quick = await simulateMatrix(
      readMatrixFile('experiments/quick.json', { calls: 2000, timeScale: 1 }),
      join(tmp, 'quick'),
      { threads: 0 },
    );
    out['quick.points.csv'] = readFileSync(quick.pointsCsvPath, 'utf8');
    out['quick.sim-evidence.json'] = readFileSync(quick.evidencePath, 'utf8');
    out['quick.tables.txt'] = quick.tables;
    // Every reference configuration at every load, small: the hedge, budget and adaptive-limit columns.
    const ref = await simulateMatrix(
      readMatrixFile('experiments/reference.json', { calls: 1000, seeds: [1] }),
      join(tmp, 'reference'),
      { threads: 0 },
    );
    out['reference.points.csv'] = readFileSync(ref.pointsCsvPath, 'utf8');

    const dir = writeFixtureRun(VERDICT_POINTS);
    try {
      out['fixture.points.csv'] = readFileSync(join(dir, 'points.csv'), 'utf8');
      compareRunFolder(dir, { rewritePoints: true });
      out['fixture.comparison.csv'] = readFileSync(join(dir, 'comparison.csv'), 'utf8');
      out['fixture.comparison.txt'] = readFileSync(join(dir, 'comparison.txt'), 'utf8');
      out['fixture.comparison-net.csv'] = readFileSync(join(dir, 'comparison-net.csv'), 'utf8');
      out['fixture.rewritten-points.csv'] = readFileSync(join(dir, 'points.csv'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}
