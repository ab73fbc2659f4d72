// The rows the claims read, from a folder of `hedgebench run` (manifest.json: every source of points.csv,
// the real rows recomputed from raw/ with their 95 % intervals) or of `hedgebench simulate` (points.csv and
// sim-evidence.json). Anything else is refused: it is not a run.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CollapseEvidence,
  entryKey,
  LATENCY_METRICS,
  OUTCOME_CODE,
  type PointRow,
  parsePointsCsv,
  RUN_FILES,
  rowKey,
} from '../../contract/index.ts';
import { RunFolderError } from '../errors.ts';
import type { CallSample } from '../judge/block-bootstrap.ts';
import { realInterval } from '../judge/compare.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { readMeasuredCalls } from '../judge/real-row.ts';
import { analyzeRun, everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { readPointsCsv } from '../read/run-folder-reader.ts';
import type { ClaimRow } from './claim-row.ts';

/** The rows of a folder, every source, and what a reader must know about them. */
interface ClaimsInput {
  kind: 'run' | 'simulation';
  rows: ClaimRow[];
  /** Sources present, in the order sim, real, sim+net, then any other alphabetically. */
  sources: string[];
  notes: string[];
}

const SOURCE_ORDER = ['sim', 'real', 'sim+net'];

/** Sources of `rows` in display order. */
export function sourcesOf(rows: readonly { source: string }[]): string[] {
  const rank = (s: string) => (SOURCE_ORDER.includes(s) ? SOURCE_ORDER.indexOf(s) : SOURCE_ORDER.length);
  return [...new Set(rows.map((r) => r.source))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Why a collapse verdict is no evidence, or undefined when it is. The criterion (contract/collapse.ts)
 * answers "not collapsed" both when the queue drained and when the window held too few samples to judge;
 * the second is undecided. No evidence at all (a real point without a timeline) is undecided too.
 */
export function collapseUndecided(
  e: CollapseEvidence | null | undefined,
  collapsed: boolean,
): string | undefined {
  if (collapsed) return undefined;
  if (!e) return 'no queue timeline to judge a collapse';
  return e.reason.startsWith('too few samples') ? e.reason : undefined;
}

/**
 * A real point's measured successful calls in model time: the calls the analysis kept, else read from raw/
 * when a check first asks, and kept (null when unreadable: the check then falls back to the point's own
 * intervals).
 */
function callSample(runDir: string, p: PointAnalysis, warmupFraction: number): () => CallSample | null {
  let read: CallSample | null | undefined;
  return () => {
    if (read !== undefined) return read;
    try {
      const c = p.raw?.calls ?? readMeasuredCalls(runDir, p.entry, warmupFraction);
      const ok: number[] = [];
      for (let i = 0; i < c.n; i++) if (c.outcome[i] === OUTCOME_CODE.ok) ok.push(i);
      read = {
        call: Float64Array.from(ok, (i) => c.call[i]),
        latencyMs: Float64Array.from(ok, (i) => c.latencyMs[i]),
      };
    } catch {
      read = null;
    }
    return read;
  };
}

/** The real row of an analysed point with its intervals (as comparison.csv writes them) and its calls. */
function realClaimRow(a: RunAnalysis, p: PointAnalysis, real: PointRow): ClaimRow {
  const row: ClaimRow = { ...real, collapseUndecided: collapseUndecided(p.collapse, real.collapsed) };
  // A foreign service draws its own service times: its points share no random numbers to pair by.
  if (p.realSource === 'raw' && !p.clientSide) {
    row.sample = callSample(a.runDir, p, a.manifest.matrix.warmupFraction);
  }
  if (!p.intervals) return row;
  row.ci = {};
  for (const { name, column, decimals } of LATENCY_METRICS) {
    row.ci[column] = realInterval(real[column], p.intervals[name], decimals);
  }
  return row;
}

/**
 * The claim rows of an analysed run: the simulated and real rows of every point of the matrix (the
 * calibration point is no point of the study), and the rows of every other source in `pointsCsv`.
 */
export function claimRowsOfRun(a: RunAnalysis, pointsCsv: readonly PointRow[]): ClaimRows {
  const rows: ClaimRow[] = [];
  const notes: string[] = [];
  for (const p of a.points) {
    if (p.sim) rows.push({ ...p.sim });
    if (p.real) rows.push(realClaimRow(a, p, p.real));
    if (p.real && p.realSource === 'points.csv')
      notes.push(`${p.key}: real row without raw calls, its percentiles are taken without an interval`);
  }
  const calibration = new Set(
    everyPoint(a)
      .filter((p) => p.entry.calibration === true)
      .map((p) => entryKey(p.entry)),
  );
  for (const r of pointsCsv) {
    const source = r.source as string;
    if (source === 'sim' || source === 'real' || calibration.has(rowKey(r))) continue;
    rows.push({ ...r, source });
  }
  return { rows, notes };
}

/** Rows with the notes that qualify them. */
interface ClaimRows {
  rows: ClaimRow[];
  notes: string[];
}

interface SimEvidence {
  points?: { key?: string; collapsed?: boolean; collapse?: CollapseEvidence }[];
}

function readSimulation(dir: string): ClaimsInput {
  const points = join(dir, RUN_FILES.points);
  let parsed: PointRow[];
  let evidence: SimEvidence;
  try {
    parsed = parsePointsCsv(readFileSync(points, 'utf8'));
    evidence = JSON.parse(readFileSync(join(dir, RUN_FILES.simEvidence), 'utf8')) as SimEvidence;
  } catch (err) {
    throw new RunFolderError(
      `${dir} is not a readable simulation folder (${(err as Error).message}); rerun \`hedgebench simulate --out ${dir}\``,
      { cause: err },
    );
  }
  const byKey = new Map((evidence.points ?? []).map((e) => [e.key, e.collapse]));
  const rows = parsed.map(
    (r): ClaimRow => ({
      ...r,
      source: r.source as string,
      collapseUndecided: byKey.has(rowKey(r))
        ? collapseUndecided(byKey.get(rowKey(r)), r.collapsed)
        : undefined,
    }),
  );
  return { kind: 'simulation', rows, sources: sourcesOf(rows), notes: [] };
}

/**
 * Reads the claim rows of a folder: a run (manifest.json) or a simulation (points.csv + sim-evidence.json).
 * Throws RunFolderError (HB_RUN_FOLDER_INVALID) when the folder is neither.
 */
export function readClaimsInput(dir: string): ClaimsInput {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new RunFolderError(`${dir} is not a folder; pass a run folder, e.g. results/<run>`);
  }
  if (existsSync(join(dir, RUN_FILES.manifest))) {
    const a = analyzeRun(dir);
    const { rows, notes } = claimRowsOfRun(a, readPointsCsv(dir));
    return { kind: 'run', rows, sources: sourcesOf(rows), notes: [...a.notes, ...notes] };
  }
  if (existsSync(join(dir, RUN_FILES.points)) && existsSync(join(dir, RUN_FILES.simEvidence))) {
    return readSimulation(dir);
  }
  throw new RunFolderError(
    `${dir} is not a run: it has neither manifest.json (written by \`hedgebench run\`) nor points.csv with sim-evidence.json (written by \`hedgebench simulate\`); pass such a folder, e.g. results/<run>`,
  );
}
