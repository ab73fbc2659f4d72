// `hedgebench compare`: recompute comparison.csv (and, on request, the real rows of points.csv) from the
// run folder alone. Same folder in, same bytes out.

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AttributionRow,
  dimCellsOf,
  dimsOfRow,
  formatAttributionCsv,
  formatComparisonCsv,
  formatLoad,
  formatPointsCsv,
  parsePointsCsv,
  RUN_FILES,
} from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import { agreementLine } from '../judge/agreement.ts';
import { formatSummaryLine } from '../judge/compare.ts';
import { recomputedPointRows } from '../judge/recomputed-point-rows.ts';
import { analyzeRun, everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { formatSensitivityLines } from '../judge/sensitivity.ts';
import { formatSimNetLine } from '../judge/sim-net.ts';
import { calibrationLines } from '../judge/time-scale-calibration.ts';
import { attributionRows } from './attribution-rows.ts';

/** What `compare` produced. */
interface CompareResult {
  analysis: RunAnalysis;
  /** Paths written, in order. */
  files: string[];
  summaryLine: string;
  /** How close sim and real came where they agree, against the margins (agreement.ts). */
  agreementLine: string;
  /** One line per perturbation of the matrix (what the verdict caught); empty without `perturb`. */
  sensitivityLines: string[];
  /** One line per calibration point (several with several time scales or transports). */
  calibrationLine: string;
  /** The sim+net side in one line. */
  simNetLine: string;
}

/** comparison.txt: the summary, calibration and sim+net lines, then the notes — what `compare` prints. */
function comparisonText(a: RunAnalysis): string {
  const notes = a.notes.map((n) => `note: ${n}`);
  const lines = [
    formatSummaryLine(a.summary),
    agreementOf(a),
    ...calibrationLines(a),
    formatSimNetLine(a.simNet),
    ...formatSensitivityLines(a.sensitivity),
  ];
  return `${[...lines, ...notes].join('\n')}\n`;
}

/** The agreement headline over the matrix's points (the calibration point has its own line). */
function agreementOf(a: RunAnalysis): string {
  return agreementLine(
    a.points.flatMap((p) => p.rows),
    a.margins,
  );
}

/**
 * points.csv with its sim+net rows replaced by `a`'s, every other row as it was (or, with `rewritePoints`,
 * the real rows recomputed from raw/). The one points.csv writer formats the whole file, so the dimension
 * columns of every row stay in the header. Null when the file would not change.
 */
function pointsWithSimNet(a: RunAnalysis, rewritePoints: boolean): string | null {
  const path = join(a.runDir, RUN_FILES.points);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const before = rewritePoints ? recomputedPointRows(a) : text === '' ? [] : parsePointsCsv(text);
  const rows = [...before.filter((r) => r.source !== 'sim+net'), ...a.simNet.rows];
  if (rows.length === 0) return null;
  const next = formatPointsCsv(rows);
  return next === text && !rewritePoints ? null : next;
}

/**
 * Analyses results/<run> and writes comparison.csv, comparison-net.csv (sim+net against real),
 * comparison.txt and the sim+net rows of points.csv. With `rewritePoints`, also replaces every real row of
 * points.csv by the one recomputed from raw/ (sim rows untouched).
 */
export function compareRunFolder(runDir: string, opts: { rewritePoints?: boolean } = {}): CompareResult {
  const analysis = analyzeRun(runDir);
  const files: string[] = [];
  const points = pointsWithSimNet(analysis, opts.rewritePoints === true);
  if (points !== null) {
    const path = join(runDir, RUN_FILES.points);
    writeFileAtomicSync(path, points);
    files.push(path);
  }
  const csv = join(runDir, RUN_FILES.comparison);
  writeFileAtomicSync(csv, formatComparisonCsv(analysis.comparison));
  files.push(csv);
  // sim+net in a file of its own: comparison.csv stays sim against real, as it was before sim+net.
  const net = join(runDir, RUN_FILES.comparisonNet);
  if (analysis.simNet.comparison.length > 0) {
    writeFileAtomicSync(net, formatComparisonCsv(analysis.simNet.comparison));
    files.push(net);
  } else rmSync(net, { force: true });
  const attribution = attributionOf(analysis);
  if (attribution.length > 0) {
    const path = join(runDir, RUN_FILES.attribution);
    writeFileAtomicSync(path, formatAttributionCsv(attribution));
    files.push(path);
  }
  const txt = join(runDir, RUN_FILES.comparisonText);
  writeFileAtomicSync(txt, comparisonText(analysis));
  files.push(txt);
  return {
    analysis,
    files,
    summaryLine: formatSummaryLine(analysis.summary),
    agreementLine: agreementOf(analysis),
    sensitivityLines: formatSensitivityLines(analysis.sensitivity),
    calibrationLine: calibrationLines(analysis).join('\n'),
    simNetLine: formatSimNetLine(analysis.simNet),
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
            ...dimCellsOf(dimsOfRow(p.id)),
          },
          p.attribution,
          p.sim,
          p.tied?.transitMs,
        ),
  );
}
