// A `hedgebench simulate` folder read as a run without measurements: points.csv holds sim rows only and
// there is no manifest.json, so the matrix's shape (configurations, loads, modes, seeds) is taken from
// the rows themselves, in their order. `report` draws such a folder's charts and tables and says that
// nothing was compared.

import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  dimCellsOf,
  dimsOfRow,
  formatLoad,
  type ManifestPoint,
  type PointRow,
  pointSlug,
  RUN_FILES,
  rowKey,
} from '../../contract/index.ts';
import { type Matrix, parseMatrix, resolveMargins } from '../../model/index.ts';
import { RunFolderError } from '../errors.ts';
import { readPointsCsv } from '../read/run-folder-reader.ts';
import { summarize } from './compare.ts';
import { type PointAnalysis, pointWithoutMeasurement } from './point-analysis.ts';
import type { RunAnalysis } from './run-analysis.ts';
import { noSimNet } from './sim-net.ts';

/** True for a folder `hedgebench simulate` wrote: no manifest.json, and a points.csv. */
export function isSimulationFolder(dir: string): boolean {
  return !existsSync(join(dir, RUN_FILES.manifest)) && existsSync(join(dir, RUN_FILES.points));
}

const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

function matrixName(dir: string): string {
  try {
    const ev = JSON.parse(readFileSync(join(dir, RUN_FILES.simEvidence), 'utf8')) as { matrix?: unknown };
    if (typeof ev.matrix === 'string' && ev.matrix !== '') return ev.matrix;
  } catch {
    // No evidence file (or not JSON): the folder's name serves.
  }
  return basename(dir);
}

/** Reads a simulate folder as a RunAnalysis with sim rows only (no comparison, no calibration). */
export function analyzeSimulation(dir: string): RunAnalysis {
  const rows = readPointsCsv(dir);
  const path = join(dir, RUN_FILES.points);
  if (rows.length === 0) throw new RunFolderError(`${path} has no rows; run \`hedgebench simulate\` again`);
  const real = rows.filter((r) => r.source !== 'sim');
  if (real.length > 0) {
    throw new RunFolderError(
      `${path} has ${real.length} real row(s) but the folder has no manifest.json; pass a folder written by \`hedgebench run\` (with its manifest) or by \`hedgebench simulate\``,
    );
  }
  const name = matrixName(dir);
  let matrix: Matrix;
  try {
    matrix = parseMatrix(
      {
        name: name.slice(0, 100),
        configs: unique(rows.map((r) => r.config)).map((c) => ({ name: c })),
        loads: unique(rows.map((r) => r.load)),
        cancellation: unique(rows.map((r) => r.cancellation)),
        seeds: unique(rows.map((r) => r.seed)),
        calls: Math.max(...rows.map((r) => r.calls)),
        calibration: false,
      },
      path,
    );
  } catch (err) {
    throw new RunFolderError((err as Error).message, { cause: err });
  }
  const points = rows.map((r) => simPoint(r));
  return {
    runDir: dir,
    manifest: {
      raw: { run: name, matrix: { name }, points: points.map((p) => p.entry) },
      run: name,
      matrix,
      points: points.map((p) => p.entry),
    },
    points,
    calibrationPoint: null,
    calibrations: [],
    calibration: null,
    comparison: [],
    summary: summarize([], points.length, 0),
    margins: resolveMargins(matrix.margins),
    notes: [],
    simSeeds: rows.map((r) => r.seed),
    simulationOnly: true,
    simNet: noSimNet('a `simulate` folder has no measurement to take a transport from'),
    sensitivity: null,
  };
}

function simPoint(r: PointRow): PointAnalysis {
  const dims = dimsOfRow(r);
  const id = {
    config: r.config,
    load: Number(formatLoad(r.load)),
    cancellation: r.cancellation,
    seed: r.seed,
    ...dimCellsOf(dims),
  };
  const entry: ManifestPoint = {
    key: rowKey(r),
    slug: pointSlug({ ...id, config: { name: r.config }, dims }),
    config: r.config,
    load: r.load,
    cancellation: r.cancellation,
    seed: r.seed,
    calls: r.calls,
    calibration: false,
    state: 'done',
    ...(Object.keys(dims).length > 0 ? { dims } : {}),
  };
  return pointWithoutMeasurement(entry, entry.key, id, r);
}
