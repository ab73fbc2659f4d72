// Analyses a run folder from its files alone: manifest.json, points.csv (sim rows), raw/ (real rows and
// samples, recomputed). The result feeds comparison.csv and the report; nothing here writes.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ClientFigures,
  type CollapseEvidence,
  type ComparisonRow,
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
  rowKey,
} from '../../contract/index.ts';
import { calibrationCandidates, timeScaleOf } from '../../model/index.ts';
import { statusInflightTimelineMs } from '../read/raw-files.ts';
import { hasRawCalls, type RealPoint, readRealPoint } from '../read/real-row.ts';
import type { ReplicaUse } from '../read/replica-use.ts';
import { type RunManifest, readManifest, readPointsCsv } from '../read/run-folder-reader.ts';
import type { ServerTimeline } from '../read/server-timeline.ts';
import type { Attribution } from './attribution.ts';
import { type Calibration, calibrationFromRows } from './calibration.ts';
import {
  type ComparisonSummary,
  calibrationRows,
  comparePoint,
  type PointId,
  type RealIntervals,
  summarize,
} from './compare.ts';
import { independentSampleInterval, percentileInterval } from './percentile-ci.ts';
import { analyzeSimNet, type SimNetAnalysis } from './sim-net.ts';

/** Everything known about one point of the run. */
export interface PointAnalysis {
  entry: ManifestPoint;
  key: string;
  id: PointId;
  sim?: PointRow;
  real?: PointRow;
  /** Where the real row came from: recomputed from raw files, read from points.csv, or nowhere. */
  realSource: 'raw' | 'points.csv' | 'none';
  /**
   * The point's raw files as real-row.ts read them (model time), kept where a later step reads the calls
   * themselves: a calibration point (sim+net's transport) and a collapsed one (its chart); null elsewhere,
   * since at 200 000 calls a point's calls and attempts take about 30 MB.
   */
  raw: RealPoint | null;
  intervals: RealIntervals | null;
  invalidReasons: string[];
  collapseReasons: string[];
  /** In-flight attempts over time from the generator's status.json, [t_ms, count]; empty when unknown. */
  inflightTimeline: [number, number][];
  /** Queue and in-flight over the point from the server's records (or the generator's samples); null if unknown. */
  timeline: ServerTimeline | null;
  /** The collapse criterion's evidence on the real side; null when there is no timeline. */
  collapse: CollapseEvidence | null;
  /** Where the real calls' latency went; null without raw attempt records. */
  attribution: Attribution | null;
  /** Each load generator's figures when several measured the point (`clients: K`); absent with one. */
  clients?: ClientFigures[];
  /** Each replica's measured use when the point has several; null otherwise. */
  replicas: ReplicaUse[] | null;
  rows: ComparisonRow[];
  /** The simulator with the run's measured transport (sim-net.ts); absent when not computed. */
  simNet?: PointRow;
  /** This point's comparison lines against sim+net. */
  simNetRows: ComparisonRow[];
  /** A foreign service: client-side metrics, intervals for two independent samples (compare.ts). */
  clientSide?: boolean;
}

/** The calibration point of one time scale and what it measured. */
export interface TimeScaleCalibration {
  k: number;
  point: PointAnalysis;
  calibration: Calibration | null;
}

/** The calibration a point is judged with: its own time scale's (the first one's when that scale has none). */
export function calibrationOf(
  a: Pick<RunAnalysis, 'calibrations' | 'calibration'>,
  p: Pick<PointAnalysis, 'entry'>,
): Calibration | null {
  const k = timeScaleOf(p.entry);
  return a.calibrations.find((c) => c.k === k)?.calibration ?? a.calibration;
}

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
  const path = join(runDir, 'sim.csv');
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

/** A point as known before its measurement is read: the entry, its key and id, and its sim row if any. */
export function pointWithoutMeasurement(
  entry: ManifestPoint,
  key: string,
  id: PointId,
  sim: PointRow | undefined,
): PointAnalysis {
  return {
    entry,
    key,
    id,
    sim,
    real: undefined,
    realSource: 'none',
    raw: null,
    intervals: null,
    invalidReasons: [],
    collapseReasons: [],
    inflightTimeline: [],
    timeline: null,
    collapse: null,
    attribution: null,
    replicas: null,
    rows: [],
    simNetRows: [],
  };
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
  // One calibration point per time scale (model/calibration-point.ts): a point is judged with its own scale's. One the
  // matrix already has (same key) serves, and stays judged.
  const calibrations: TimeScaleCalibration[] = [];
  for (const cand of calibrationCandidates(manifest.matrix)) {
    const key = pointKey(cand);
    const k = timeScaleOf(cand);
    const flagged = all.find((p) => p.entry.calibration === true && timeScaleOf(p.entry) === k);
    const point = flagged ?? points.find((p) => p.key === key);
    if (point === undefined) continue;
    calibrations.push({ k, point, calibration: calibrationFromRows(point.id, point.sim, point.real) });
  }
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

/** The run's points.csv rows with every real row replaced by the one recomputed from raw/ (same order). */
export function recomputedPointRows(a: RunAnalysis): PointRow[] {
  const fresh = new Map<string, PointRow>();
  // The matrix's points first, then the calibration points: rows not yet in points.csv keep that order.
  for (const p of [...a.points, ...everyPoint(a).filter((q) => !a.points.includes(q))]) {
    if (p.realSource === 'raw' && p.real) fresh.set(p.key, p.real);
  }
  const out: PointRow[] = [];
  const seen = new Set<string>();
  for (const r of readPointsCsv(a.runDir)) {
    const k = rowKey(r);
    if (r.source === 'real' && fresh.has(k)) {
      out.push(fresh.get(k)!);
      seen.add(k);
    } else out.push(r);
  }
  for (const [k, r] of fresh) if (!seen.has(k)) out.push(r);
  return out;
}

/** Every point of the run once, the calibration points first (one may also be one of the matrix's points). */
export function everyPoint(a: Pick<RunAnalysis, 'points' | 'calibrations'>): PointAnalysis[] {
  const cals = a.calibrations.map((c) => c.point).filter((p) => !a.points.includes(p));
  return [...cals, ...a.points];
}
