// A point's simulated calls (contract/sim-calls.ts): read from the run folder's cache, or simulated from the
// point the manifest names and cached there, so a folder analysed again reads them instead of simulating.
// The simulation is deterministic, so a recomputed file is byte-identical to the one it replaces.

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  CALL_OUTCOMES,
  type CallOutcome,
  emptySimCalls,
  entryKey,
  formatSimCallsCsv,
  type ManifestPoint,
  pointKey,
  SIM_CALL_FIELDS,
  type SimCalls,
  simCallsPath,
} from '../../contract/index.ts';
import { calibrationPoints, expandMatrix, type Matrix, type Point } from '../../model/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { CsvScanner } from './csv-scan.ts';

/** The model Point a manifest entry was measured with: the matrix's own point of the same key. */
export function entryPoint(entry: ManifestPoint, matrix: Matrix): Point | null {
  const key = entryKey(entry);
  const point = [...calibrationPoints(matrix), ...expandMatrix(matrix)].find((p) => pointKey(p) === key);
  return point ? { ...point, calls: entry.calls } : null;
}

/** Reads sim-calls/<slug>.csv (throws RawFileError naming the line on a bad file). */
function readSimCallsCsv(path: string): SimCalls {
  return parseSimCalls(readFileSync(path, 'utf8'), path);
}

function parseSimCalls(text: string, path: string): SimCalls {
  const sc = new CsvScanner(text, path);
  sc.header(SIM_CALL_FIELDS.join(','));
  const F = SIM_CALL_FIELDS.length;
  const c = emptySimCalls(sc.countRecords());
  for (let i = 0; i < c.n; i++) {
    c.call[i] = sc.num(F);
    c.latencyMs[i] = sc.num(F);
    const code = CALL_OUTCOMES.indexOf(sc.str(F, CALL_OUTCOMES) as CallOutcome);
    if (code < 0) throw sc.error('has an outcome that is not ok|rejected|failed');
    c.outcome[i] = code;
    c.attempts[i] = sc.num(F);
    c.skipped[i] = sc.num(F);
    c.winner[i] = sc.num(F);
    c.busyMs[i] = sc.num(F);
    sc.endRecord(F);
  }
  return c;
}

/**
 * The simulated calls of a measured point: the cached file when it reads, else simulated now and cached
 * (a damaged file is recomputed, never trusted). Null when the matrix has no such point to simulate.
 */
export function simulatedCalls(runDir: string, entry: ManifestPoint, matrix: Matrix): SimCalls | null {
  const path = simCallsPath(runDir, entry.slug);
  if (existsSync(path)) {
    try {
      return readSimCallsCsv(path);
    } catch {
      // recomputed below
    }
  }
  const point = entryPoint(entry, matrix);
  if (point === null) return null;
  const text = formatSimCallsCsv(runPoint(point, { callRecords: true }).calls!);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomicSync(path, text);
  } catch {
    // A folder we cannot write to (read-only copy of a run) is analysed all the same, without a cache.
  }
  // The calls as the file has them, so a first analysis and every later one judge the very same numbers.
  return parseSimCalls(text, path);
}
