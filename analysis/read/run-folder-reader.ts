// Reading a run folder: manifest.json (what was planned and what happened) and points.csv (the rows).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ManifestData,
  type ManifestPoint,
  type PointRow,
  parseManifest,
  parsePointsCsv,
  RUN_FILES,
} from '../../contract/index.ts';
import { type Matrix, parseMatrix } from '../../model/index.ts';
import { RunFolderError } from '../errors.ts';

/** manifest.json, with its matrix validated and completed (defaults filled). */
export interface RunManifest {
  raw: ManifestData;
  run: string;
  matrix: Matrix;
  points: ManifestPoint[];
}

/** Reads and validates results/<run>/manifest.json. */
export function readManifest(runDir: string): RunManifest {
  const path = join(runDir, RUN_FILES.manifest);
  if (!existsSync(path)) {
    throw new RunFolderError(
      `${path} does not exist; pass a run folder written by \`hedgebench run\` (e.g. results/<run>); \`hedgebench report\` also takes a folder of \`hedgebench simulate\``,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RunFolderError(`${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const r = parseManifest(json);
  if (!r.ok) {
    throw new RunFolderError(`${path} is not a hedgebench manifest:\n  - ${r.issues.join('\n  - ')}`);
  }
  let matrix: Matrix;
  try {
    matrix = parseMatrix(r.manifest.matrix, `${path} (field "matrix")`);
  } catch (err) {
    throw new RunFolderError((err as Error).message, { cause: err });
  }
  return { raw: r.manifest, run: r.manifest.run, matrix, points: r.manifest.points };
}

/** Reads results/<run>/points.csv; an empty list when the file does not exist yet. */
export function readPointsCsv(runDir: string): PointRow[] {
  const path = join(runDir, RUN_FILES.points);
  if (!existsSync(path)) return [];
  try {
    return parsePointsCsv(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RunFolderError(`${path}: ${(err as Error).message}`, { cause: err });
  }
}
