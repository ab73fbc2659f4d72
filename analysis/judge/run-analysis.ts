// Analyses a run folder from its files alone: manifest.json, points.csv (sim rows), raw/ (real rows and
// samples, recomputed). The result feeds comparison.csv and the report; nothing here writes.

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
  type PointRow,
  parsePointsCsv,
  perLatencyMetric,
  pointKey,
  RUN_FILES,
  rowKey,
} from '../../contract/index.ts';
import { calibrationCandidates } from '../../model/index.ts';
import { statusInflightTimelineMs } from '../read/raw-files.ts';
import { hasRawCalls, readRealPoint } from '../read/real-row.ts';
import { type RunManifest, readManifest, readPointsCsv } from '../read/run-folder-reader.ts';
import type { Calibration } from './calibration.ts';
import {
  type ComparisonSummary,
  calibrationRows,
  comparePoint,
  type PointId,
  type RealIntervals,
  summarize,
} from './compare.ts';
import { independentSampleInterval, percentileInterval } from './percentile-ci.ts';
import { type PointAnalysis, pointWithoutMeasurement } from './point-analysis.ts';
import { analyzeSimNet, type SimNetAnalysis } from './sim-net.ts';
import { calibrationOf, type TimeScaleCalibration, timeScaleCalibrations } from './time-scale-calibration.ts';

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
  /** comparison.csv's rows: the calibration lines first, then every point × metric. */
  comparison: ComparisonRow[];
  summary: ComparisonSummary;
  /** Things a reader must know: failed, pending or unreadable points, rows that differ from points.csv. */
  notes: string[];
  /** Seeds of the simulated rows in points.csv (to warn about rows another `simulate` left there). */
  simSeeds: number[];
  /** A `hedgebench simulate` folder: sim rows only, nothing measured or compared (sim-folder.ts). */
  simulationOnly: boolean;
  /** The third source: every measured point simulated with the calibration point's transport. */
  simNet: SimNetAnalysis;
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
  const clientSide = manifest.matrix.target !== undefined;
  const calibrationKeys = new Set(calibrationCandidates(manifest.matrix).map(pointKey));

  const analyse = (entry: ManifestPoint): PointAnalysis => {
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
        const rp = readRealPoint(runDir, entry, manifest.matrix);
        p.real = rp.row;
        p.realSource = 'raw';
        const keep =
          entry.calibration === true || calibrationKeys.has(key) || rp.row.collapsed || p.sim?.collapsed;
        if (keep) p.raw = rp;
        p.intervals = perLatencyMetric(({ percentile }) => {
          const iv = percentileInterval(rp.okLatencies, percentile);
          // A foreign service shares no random numbers with the simulation: two independent samples.
          return iv && clientSide ? independentSampleInterval(iv) : iv;
        }) satisfies RealIntervals;
        p.invalidReasons = rp.invalidReasons;
        p.collapseReasons = rp.collapseReasons;
        p.inflightTimeline = statusInflightTimelineMs(rp.status);
        p.timeline = rp.timeline;
        p.collapse = rp.collapse;
        p.attribution = rp.attribution;
        if (rp.clients !== null) p.clients = rp.clients;
        p.replicas = rp.replicas;
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
        `${describe(entry)}: no raw calls file; real row from points.csv, interval = the value itself`,
      );
      if (p.real && !p.real.valid)
        p.invalidReasons = ['points.csv says valid=false (reasons are in raw/ status.json)'];
    }
    if (!p.sim && entry.state !== 'pending') notes.push(`${describe(entry)}: no simulated row`);
    return p;
  };

  const all = manifest.points.map(analyse);
  const points = all.filter((p) => p.entry.calibration !== true);
  const calibrations = timeScaleCalibrations(manifest.matrix, all, points);
  const first = calibrations[0];
  const calibrationPoint = first?.point ?? null;
  const calibration = first?.calibration ?? null;

  const comparison: ComparisonRow[] = [];
  for (const c of calibrations) {
    if (c.point.entry.calibration !== true) continue;
    c.point.rows = calibrationRows(c.point);
    comparison.push(...c.point.rows);
  }
  const partial: Pick<RunAnalysis, 'calibrations' | 'calibration'> = { calibrations, calibration };
  for (const p of points) {
    p.rows = comparePoint(p, calibrationOf(partial, p));
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
    summary: summarize(comparison, points.length, compared),
    notes,
    simSeeds: rows.filter((r) => r.source === 'sim').map((r) => r.seed),
    simulationOnly: false,
    simNet: analyzeSimNet(manifest.matrix, points, calibrations),
  };
}

/** Every point of the run once, the calibration points first (one may also be one of the matrix's points). */
export function everyPoint(a: Pick<RunAnalysis, 'points' | 'calibrations'>): PointAnalysis[] {
  const cals = a.calibrations.map((c) => c.point).filter((p) => !a.points.includes(p));
  return [...cals, ...a.points];
}
