// `hedgebench simulate` as a function: matrix in, points.csv + evidence out, tables returned as text.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPointsCsv, RUN_FILES } from '../contract/index.ts';
import { expandMatrix, type Matrix } from '../model/index.ts';
import { type RunPointsOptions, runPoints } from './matrix-runner.ts';
import type { SimResult } from './run-point-options.ts';
import { formatSimTables } from './table.ts';

/** What simulateMatrix wrote and computed. */
interface SimulateOutcome {
  results: SimResult[];
  pointsCsvPath: string;
  evidencePath: string;
  tables: string;
}

/**
 * Simulates every point of `matrix` and writes `<outDir>/points.csv` (sim rows) and
 * `<outDir>/sim-evidence.json` (collapse evidence and pool counters per point). Both are deterministic.
 */
export async function simulateMatrix(
  matrix: Matrix,
  outDir: string,
  options: RunPointsOptions = {},
): Promise<SimulateOutcome> {
  const points = expandMatrix(matrix);
  const results = await runPoints(points, options);
  // Where some point is tied, every row says its extra work, so tied copies read against hedges' losers.
  const tied = results.some((r) => r.row.extra_service_share !== undefined);
  const rows = results.map((r) => (tied ? { ...r.row, extra_service_share: r.extraServiceShare } : r.row));
  mkdirSync(outDir, { recursive: true });
  const pointsCsvPath = join(outDir, RUN_FILES.points);
  const evidencePath = join(outDir, RUN_FILES.simEvidence);
  writeFileSync(pointsCsvPath, formatPointsCsv(rows));
  const evidence = {
    matrix: matrix.name,
    points: results.map((r) => ({
      key: r.key,
      collapsed: r.collapse.collapsed,
      truncated: r.truncated,
      arrived: r.arrived,
      collapse: r.collapse,
      pool: r.pool,
      simulatedMs: r.simulatedMs,
      events: r.events,
      ...(r.replicas === undefined ? {} : { replicas: r.replicas }),
      ...(r.tied === undefined ? {} : { tied: r.tied }),
    })),
  };
  writeFileSync(evidencePath, `${JSON.stringify(evidence, null, 2)}\n`);
  return { results, pointsCsvPath, evidencePath, tables: formatSimTables(rows) };
}
