// The third source, sim+net: every measured point of a run simulated again with the transport its own
// calibration point measured (net-transport.ts), and judged against the measurement by the same rules as
// sim. Recomputed from the run folder alone, so `compare` gives old folders their sim+net rows too.

import {
  type ComparisonRow,
  entryKey,
  type ManifestPoint,
  type PointRow,
  pointKey,
} from '../../contract/index.ts';
import { HedgebenchError } from '../../library/index.ts';
import {
  calibrationPoints,
  describeTransport,
  expandMatrix,
  type Matrix,
  type Point,
  type TransportParams,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { type Calibration, calibrationFromRows } from './calibration.ts';
import { type ComparisonSummary, calibrationRows, comparePoint, summarize } from './compare.ts';
import { type MeasuredTransport, measuredTransport } from './net-transport.ts';
import type { PointAnalysis } from './point-analysis.ts';
import { calibrationFor, type TimeScaleCalibration } from './time-scale-calibration.ts';

/** The sim+net side of a run. */
export interface SimNetAnalysis {
  /** The measured transport; null when none could be derived (`missing` says why). */
  measured: MeasuredTransport | null;
  /** Why there are no sim+net rows, or why some are missing; empty when every measured point has one. */
  missing: string[];
  /** The calibration point judged with sim+net (its allowance covers what the transport leaves out). */
  calibration: Calibration | null;
  /** Each time scale's and transport's sim+net calibration, by calibrationGroup (the first one's is `calibration`). */
  calibrations: Map<string, Calibration>;
  /** points.csv rows with source sim+net, calibration point first, then manifest order. */
  rows: PointRow[];
  /** comparison-net.csv's lines: sim+net against real. */
  comparison: ComparisonRow[];
  summary: ComparisonSummary;
}

/** The model Point a manifest entry was measured with: the matrix's own point of the same key. */
export function entryPoint(entry: ManifestPoint, matrix: Matrix): Point | null {
  const key = entryKey(entry);
  const point = [...calibrationPoints(matrix), ...expandMatrix(matrix)].find((p) => pointKey(p) === key);
  return point ? { ...point, calls: entry.calls } : null;
}

/** The sim+net calibration a point is judged with, as calibrationOf chooses sim's. */
export function simNetCalibrationOf(
  a: SimNetAnalysis,
  entry: { dims?: ManifestPoint['dims'] },
): Calibration | null {
  return calibrationFor(a.calibrations, entry) ?? a.calibration;
}

function message(err: unknown): string {
  return err instanceof HedgebenchError ? `${err.code}: ${err.message}` : (err as Error).message;
}

/** A sim+net side with nothing in it yet; `why`, when given, says why it stays empty. */
export function noSimNet(why?: string): SimNetAnalysis {
  return {
    measured: null,
    missing: why === undefined ? [] : [why],
    calibration: null,
    calibrations: new Map(),
    rows: [],
    comparison: [],
    summary: summarize([], 0, 0),
  };
}

/**
 * Simulates every point with a real row (`points`, calibration points included) using the transport its
 * own time scale's calibration point measured (the first one's is `measured`); sets each point's `simNet`
 * and `simNetRows` and returns the run's sim+net side.
 */
export function analyzeSimNet(
  matrix: Matrix,
  points: readonly PointAnalysis[],
  calibrations: readonly TimeScaleCalibration[],
): SimNetAnalysis {
  const out = noSimNet();
  const byK = new Map<string, { cal: PointAnalysis; transport: TransportParams }>();
  for (const { group, point: cal } of calibrations) {
    if (cal.raw === null) {
      out.missing.push('the calibration point has no raw files to measure the transport from');
      continue;
    }
    try {
      const measured = measuredTransport(cal.raw, cal.entry.slug);
      out.measured ??= measured;
      byK.set(group, { cal, transport: measured.transport });
    } catch (err) {
      out.missing.push(`no transport: ${message(err)}`);
    }
  }
  if (calibrations.length === 0)
    out.missing.push('the run has no calibration point to measure its transport');
  if (byK.size === 0) return out;
  const cals = [...byK.values()].map((c) => c.cal);
  const all = [...cals.filter((c) => !points.includes(c)), ...points];
  for (const p of all) {
    const at = calibrationFor(byK, p.entry);
    if (!p.real || at === undefined) continue;
    const point = entryPoint(p.entry, matrix);
    if (!point) {
      out.missing.push(`${p.key}: the matrix has no such point`);
      continue;
    }
    try {
      p.simNet = runPoint(point, { transport: at.transport }).row;
      out.rows.push(p.simNet);
    } catch (err) {
      out.missing.push(`${p.key}: ${message(err)}`);
    }
  }
  const allowance = new Map<string, Calibration>();
  for (const [group, { cal }] of byK) {
    allowance.set(group, calibrationFromRows(cal.id, cal.simNet, cal.real));
    if (cal.entry.calibration === true && cal.simNet) {
      cal.simNetRows = calibrationRows({ ...cal, sim: cal.simNet });
      out.comparison.push(...cal.simNetRows);
    }
  }
  out.calibration = allowance.get(calibrations[0]?.group ?? '') ?? null;
  out.calibrations = allowance;
  let judged = 0;
  for (const p of points) {
    if (!p.simNet) continue;
    p.simNetRows = comparePoint({ ...p, sim: p.simNet }, simNetCalibrationOf(out, p.entry));
    out.comparison.push(...p.simNetRows);
    judged++;
  }
  out.summary = summarize(out.comparison, judged, judged);
  return out;
}

/** The sim+net side in one line (comparison.txt, `compare`'s output, the report). */
export function formatSimNetLine(s: SimNetAnalysis): string {
  if (!s.measured) return `sim+net: none (${s.missing.join('; ') || 'no measured point'})`;
  const c = s.summary.counts;
  const m = s.measured;
  const others = (['diverges', 'both-collapsed', 'collapse-mismatch', 'invalid', 'missing'] as const)
    .map((v) => `${v} ${c[v]}`)
    .join(', ');
  return `sim+net: ${s.summary.compared} points simulated with the calibration point's transport (${m.samples} calls, ${m.origin}; ${describeTransport(m.transport)}); ${c.agrees} of ${s.summary.metrics} metrics agree; ${others}`;
}
