// Analyses a run folder from its files alone: manifest.json, points.csv (sim rows), raw/ (real rows and
// samples, recomputed), sim-calls/ (each point's simulated calls, recomputed when missing). The result feeds
// comparison.csv and the report; nothing here writes but the sim-calls cache.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComparisonRow } from '../../contract/index.ts';
import {
  dimCellsOf,
  entryConfigName,
  entryKey,
  formatLoad,
  formatPointRow,
  type ManifestPoint,
  type PointId,
  type PointRow,
  parsePointsCsv,
  perLatencyMetric,
  pointKey,
  RUN_FILES,
  rowKey,
} from '../../contract/index.ts';
import { calibrationCandidates, type Margins, replicaSetupOf, resolveMargins } from '../../model/index.ts';
import { statusInflightTimelineMs } from '../read/raw-files.ts';
import { type RunManifest, readManifest, readPointsCsv } from '../read/run-folder-reader.ts';
import { simulatedCalls } from '../read/sim-calls-file.ts';
import type { Calibration } from './calibration.ts';
import { type ComparisonSummary, comparePoint, type RealIntervals, summarize } from './compare.ts';
import { percentileInterval } from './percentile-ci.ts';
import { type PointAnalysis, pointWithoutMeasurement } from './point-analysis.ts';
import { pairPoint } from './point-pairing.ts';
import { hasRawCalls, type RealPoint, readRealPoint } from './real-row.ts';
import { type Sensitivity, sensitivityOf } from './sensitivity.ts';
import {
  judgedOnReplay,
  type SimNetAnalysis,
  type SimNetTransports,
  simNetSide,
  simNetSideOf,
  simNetTransports,
  simulateWithNet,
} from './sim-net.ts';
import { type TimeScaleCalibration, timeScaleCalibrations } from './time-scale-calibration.ts';

/** The analysis of a whole run. */
export interface RunAnalysis {
  runDir: string;
  manifest: RunManifest;
  /** Points of the matrix in manifest order (the calibration point is in `calibrationPoint`). */
  points: PointAnalysis[];
  calibrationPoint: PointAnalysis | null;
  calibration: Calibration | null;
  /** Each time scale's calibration point and calibration, smallest k first; the first is the two above. */
  calibrations: TimeScaleCalibration[];
  /** comparison.csv's rows: the calibration point's lines first, then every point × metric. */
  comparison: ComparisonRow[];
  /** Counts over the matrix's points (the calibration point's own are in its calibration line). */
  summary: ComparisonSummary;
  /** The margins the verdicts were judged with (the matrix's, else every cap). */
  margins: Margins;
  /** Things a reader must know: failed, pending or unreadable points, rows that differ from points.csv. */
  notes: string[];
  /** Seeds of the simulated rows in points.csv (to warn about rows another `simulate` left there). */
  simSeeds: number[];
  /** A `hedgebench simulate` folder: sim rows only, nothing measured or compared (sim-folder.ts). */
  simulationOnly: boolean;
  /** The third source: every measured point simulated with the calibration point's transport. */
  simNet: SimNetAnalysis;
  /** What the verdict caught of the matrix's perturbations; null when it perturbs nothing. */
  sensitivity: Sensitivity | null;
}

function readSimCache(runDir: string): PointRow[] {
  // The orchestrator caches simulated rows in sim.csv; points.csv is authoritative, sim.csv fills gaps.
  const path = join(runDir, RUN_FILES.sim);
  if (!existsSync(path)) return [];
  try {
    return parsePointsCsv(readFileSync(path, 'utf8')).filter((r) => r.source === 'sim');
  } catch {
    return [];
  }
}

function describe(e: ManifestPoint): string {
  return `${entryConfigName(e)} at load ${formatLoad(e.load)} (${e.cancellation}, seed ${e.seed})`;
}

/** Reads and analyses results/<run> (throws RunFolderError when the folder has no valid manifest). */
export function analyzeRun(runDir: string): RunAnalysis {
  const manifest = readManifest(runDir);
  const matrix = manifest.matrix;
  const rows = readPointsCsv(runDir);
  const sim = new Map<string, PointRow>();
  const realCsv = new Map<string, PointRow>();
  for (const r of readSimCache(runDir)) sim.set(rowKey(r), r);
  // Sources stay apart; sim+net rows are not read back, they are recomputed below from raw/.
  for (const r of rows) {
    if (r.source === 'sim') sim.set(rowKey(r), r);
    else if (r.source === 'real') realCsv.set(rowKey(r), r);
  }
  const notes: string[] = [];
  const clientSide = matrix.target !== undefined;
  const margins = resolveMargins(matrix.margins);
  const calibrationKeys = new Set(calibrationCandidates(matrix).map(pointKey));
  const isCalibration = (e: ManifestPoint) => e.calibration === true || calibrationKeys.has(entryKey(e));
  const simNetMissing: string[] = [];

  // Reads the point's raw files once, pairs its calls with the simulator's, and sets sim+net when the
  // transports are known; the calls are kept only on the points a later step reads them from.
  const analyse = (entry: ManifestPoint, transports: SimNetTransports | null): PointAnalysis => {
    const key = entryKey(entry);
    const id: PointId = {
      config: entryConfigName(entry),
      load: Number(formatLoad(entry.load)),
      cancellation: entry.cancellation,
      seed: entry.seed,
      ...dimCellsOf(entry.dims),
    };
    const p = pointWithoutMeasurement(entry, key, id, sim.get(key));
    if (clientSide) p.clientSide = true;
    if (entry.state === 'failed')
      notes.push(`${describe(entry)} failed: ${entry.reason ?? 'no reason recorded'}`);
    if (entry.state === 'pending') notes.push(`${describe(entry)} was not measured (pending)`);
    if (hasRawCalls(runDir, entry)) {
      try {
        const rp = readRealPoint(runDir, entry, matrix);
        measured(p, rp);
        pair(p, rp);
        if (transports !== null) {
          const note = simulateWithNet(p, rp, matrix, transports, workersOf(entry));
          if (note !== null) simNetMissing.push(note);
        }
        if (isCalibration(entry) || rp.row.collapsed || p.sim?.collapsed) p.raw = rp;
        const old = realCsv.get(key);
        if (old && formatPointRow(old) !== formatPointRow(rp.row)) {
          notes.push(
            `${describe(entry)}: the real row in points.csv differs from the one recomputed from raw/; the recomputed one is used`,
          );
        }
      } catch (err) {
        notes.push(`${describe(entry)}: raw files unreadable (${(err as Error).message}); using points.csv`);
      }
    }
    if (!p.real && realCsv.has(key)) {
      p.real = realCsv.get(key);
      p.realSource = 'points.csv';
      notes.push(
        `${describe(entry)}: no raw calls file; real row from points.csv, nothing to pair its calls with (undecided)`,
      );
      if (p.real && !p.real.valid)
        p.invalidReasons = ['points.csv says valid=false (reasons are in raw/ status.json)'];
    }
    if (!p.sim && entry.state !== 'pending') notes.push(`${describe(entry)}: no simulated row`);
    return p;
  };

  const workersOf = (entry: ManifestPoint) => matrix.model.workers * replicaSetupOf(entry.dims).replicas;

  const measured = (p: PointAnalysis, rp: RealPoint): void => {
    p.real = rp.row;
    p.realSource = 'raw';
    p.intervals = perLatencyMetric(({ percentile }) =>
      percentileInterval(rp.okLatencies, percentile),
    ) satisfies RealIntervals;
    p.invalidReasons = rp.invalidReasons;
    p.collapseReasons = rp.collapseReasons;
    p.inflightTimeline = statusInflightTimelineMs(rp.status);
    p.timeline = rp.timeline;
    p.collapse = rp.collapse;
    p.attribution = rp.attribution;
    if (rp.clients !== null) p.clients = rp.clients;
    p.replicas = rp.replicas;
    p.tied = rp.tied;
  };

  // A collapse decides the point's verdict whatever its percentiles say: nothing to pair then.
  const pair = (p: PointAnalysis, rp: RealPoint): void => {
    if (!p.sim || p.sim.collapsed || rp.row.collapsed) return;
    const calls = simulatedCalls(runDir, p.entry, matrix);
    if (calls === null) return;
    const paired = pairPoint(rp, calls, workersOf(p.entry), { independent: clientSide, harnessFree: true });
    p.diffs = paired.diffs;
    p.harness = paired.harness;
    if (paired.unsplit > 0)
      notes.push(
        `${describe(p.entry)}: ${paired.unsplit} ok calls have no server record of their winner, so their harness parts could not be taken out; they are compared with their whole latency`,
      );
  };

  // Calibration points first: each one's transport is what sim+net simulates every later point with.
  const first = new Map<ManifestPoint, PointAnalysis>();
  for (const e of manifest.points.filter(isCalibration)) first.set(e, analyse(e, null));
  const early = [...first.values()];
  const calibrations = timeScaleCalibrations(
    matrix,
    early,
    early.filter((p) => p.entry.calibration !== true),
  );
  const transports = simNetTransports(calibrations);
  for (const c of early) {
    if (c.raw === null) continue;
    const note = simulateWithNet(c, c.raw, matrix, transports, workersOf(c.entry));
    if (note !== null) simNetMissing.push(note);
  }
  const all = manifest.points.map((e) => first.get(e) ?? analyse(e, transports));
  const points = all.filter((p) => p.entry.calibration !== true);
  const calibrationPoint = calibrations[0]?.point ?? null;
  const calibration = calibrations[0]?.calibration ?? null;

  const comparison: ComparisonRow[] = [];
  for (const c of calibrations) {
    if (c.point.entry.calibration !== true) continue;
    c.point.rows = comparePoint(c.point, margins);
    comparison.push(...c.point.rows);
  }
  for (const p of points) {
    p.rows = comparePoint(judgedOnReplay(p) ? simNetSideOf(p) : p, margins);
    comparison.push(...p.rows);
  }
  const compared = points.filter((p) => p.sim && p.real).length;
  return {
    runDir,
    manifest,
    points,
    calibrationPoint,
    calibration,
    calibrations,
    comparison,
    summary: summarize(
      points.flatMap((p) => p.rows),
      points.length,
      compared,
      points.filter(judgedOnReplay).length,
    ),
    margins,
    notes,
    simSeeds: rows.filter((r) => r.source === 'sim').map((r) => r.seed),
    simulationOnly: false,
    simNet: simNetSide(transports, calibrations, points, margins, simNetMissing),
    sensitivity: sensitivityOf(runDir, matrix, points, margins),
  };
}

/** Every point of the run once, the calibration points first (one may also be one of the matrix's points). */
export function everyPoint(a: Pick<RunAnalysis, 'points' | 'calibrations'>): PointAnalysis[] {
  const cals = a.calibrations.map((c) => c.point).filter((p) => !a.points.includes(p));
  return [...cals, ...a.points];
}
