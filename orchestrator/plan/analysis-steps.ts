// What the run asks of the analysis part: a point's real row from its raw files, and at the end the
// comparison and the report.

import {
  applyGate,
  comparisonJson,
  type GateResult,
  readRealPoint,
  writeReport,
} from '../../analysis/index.ts';
import type { ClientFigures, PointEntry, PointRow } from '../../contract/index.ts';
import { RUN_FILES } from '../../contract/index.ts';
import type { FailOnVerdict, Matrix } from '../../model/index.ts';

/**
 * The real points.csv row of a measured point, computed from raw/ exactly as `hedgebench compare` does, and
 * each load generator's figures when several measured it (null with one).
 */
export function realRow(
  runDir: string,
  entry: PointEntry,
  matrix: Matrix,
): { row: PointRow; clients: ClientFigures[] | null } {
  const rp = readRealPoint(runDir, { ...entry }, matrix);
  return { row: rp.row, clients: rp.clients };
}

/** What the end-of-run analysis gives back: the verdict line, the files, the gate and the `--json` summary. */
export interface FinishedAnalysis {
  line: string | null;
  files: string[];
  gate: GateResult | null;
  json: Record<string, unknown> | null;
}

/**
 * Writes comparison.csv, report.md/html and charts; returns the verdict line, the files' short names and
 * the gate (`failOn`: the --fail-on flag; undefined = the matrix's failOn).
 */
export async function finishAnalysis(runDir: string, failOn?: FailOnVerdict[]): Promise<FinishedAnalysis> {
  const r = await writeReport(runDir);
  const written = (name: string) => (r.files.some((f) => f.endsWith(name)) ? [name] : []);
  const gate = applyGate(r.analysis, failOn);
  return {
    line: r.verdictLines.join('\n'),
    files: [
      RUN_FILES.comparison,
      ...written(RUN_FILES.comparisonNet),
      ...written(RUN_FILES.attribution),
      RUN_FILES.reportMd,
      RUN_FILES.reportHtml,
      `${RUN_FILES.charts}/`,
    ],
    gate,
    json: comparisonJson(r.analysis, gate),
  };
}
