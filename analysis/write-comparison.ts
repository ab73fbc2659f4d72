// `hedgebench compare`: recompute comparison.csv (and, on request, the real rows of points.csv) from the
// run folder alone. Same folder in, same bytes out.

import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AttributionRow, formatAttributionCsv, formatLoad, formatPointsCsv } from '../contract/index.ts';
import { attributionRows } from './attribution-csv.ts';
import { formatCalibrationLine } from './calibration.ts';
import { formatSummaryLine } from './compare.ts';
import { formatComparisonCsv } from './comparison-csv.ts';
import { analyzeRun, everyPoint, type RunAnalysis, recomputedPointRows } from './run-analysis.ts';

/** Writes a file through a temp file and a rename, so a reader never sees half of it. */
export function writeFileAtomic(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** What `compare` produced. */
export interface CompareResult {
  analysis: RunAnalysis;
  /** Paths written, in order. */
  files: string[];
  summaryLine: string;
  calibrationLine: string;
}

/** comparison.txt: the summary line, the calibration line, then the notes — what `compare` prints. */
export function comparisonText(a: RunAnalysis): string {
  const notes = a.notes.map((n) => `note: ${n}`);
  return `${[formatSummaryLine(a.summary), formatCalibrationLine(a.calibration), ...notes].join('\n')}\n`;
}

/**
 * Analyses results/<run> and writes comparison.csv and comparison.txt. With `rewritePoints`, also replaces
 * every real row of points.csv by the one recomputed from raw/ (sim rows untouched).
 */
export function compareRunFolder(runDir: string, opts: { rewritePoints?: boolean } = {}): CompareResult {
  const analysis = analyzeRun(runDir);
  const files: string[] = [];
  if (opts.rewritePoints) {
    const path = join(runDir, 'points.csv');
    writeFileAtomic(path, formatPointsCsv(recomputedPointRows(analysis)));
    files.push(path);
  }
  const csv = join(runDir, 'comparison.csv');
  writeFileAtomic(csv, formatComparisonCsv(analysis.comparison));
  files.push(csv);
  const attribution = attributionOf(analysis);
  if (attribution.length > 0) {
    const path = join(runDir, 'attribution.csv');
    writeFileAtomic(path, formatAttributionCsv(attribution));
    files.push(path);
  }
  const txt = join(runDir, 'comparison.txt');
  writeFileAtomic(txt, comparisonText(analysis));
  files.push(txt);
  return {
    analysis,
    files,
    summaryLine: formatSummaryLine(analysis.summary),
    calibrationLine: formatCalibrationLine(analysis.calibration),
  };
}

/** attribution.csv's rows: every real point with attempt records (calibration point first). */
function attributionOf(a: RunAnalysis): AttributionRow[] {
  return everyPoint(a).flatMap((p) =>
    p.attribution === null
      ? []
      : attributionRows(
          {
            config: p.id.config,
            load: formatLoad(p.id.load),
            cancellation: p.id.cancellation,
            seed: p.id.seed,
          },
          p.attribution,
          p.sim,
        ),
  );
}
