// What the run asks of the analysis part: a point's real row from its raw files, and at the end the
// comparison and the report.

import { realRowFromRaw, writeReport } from '../analysis/index.ts';
import type { PointEntry, PointRow } from '../contract/index.ts';
import type { Matrix } from '../model/index.ts';

/** The real points.csv row of a measured point, computed from raw/ exactly as `hedgebench compare` does. */
export function realRow(runDir: string, entry: PointEntry, matrix: Matrix): PointRow {
  return realRowFromRaw(runDir, { ...entry }, matrix);
}

/** Writes comparison.csv, report.md/html and charts; returns the verdict line and the files' short names. */
export async function finishAnalysis(runDir: string): Promise<{ line: string | null; files: string[] }> {
  const r = await writeReport(runDir);
  const attribution = r.files.some((f) => f.endsWith('attribution.csv')) ? ['attribution.csv'] : [];
  return {
    line: r.summaryLine,
    files: ['comparison.csv', ...attribution, 'report.md', 'report.html', 'charts/'],
  };
}
