// The third source, sim+net: every measured point of a run simulated again with the transport its own
// calibration point measured (net-transport.ts), and judged against the measurement by the same rule as
// sim — paired by call, but with the measurement whole, since sim+net's transport stands for the harness.
// Recomputed from the run folder alone, so `compare` gives old folders their sim+net rows too.

import type { ComparisonRow, PointRow } from '../../contract/index.ts';
import { HedgebenchError } from '../../library/index.ts';
import {
  ArrivalSchedule,
  describeTransport,
  type Margins,
  type Matrix,
  type Point,
  peerCancelCopies,
  type TransportParams,
  type TransportReplay,
  timeScaleOf,
} from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { entryPoint } from '../read/sim-calls-file.ts';
import { type ComparisonSummary, comparePoint, summarize } from './compare.ts';
import { type MeasuredTransport, measuredTransport } from './net-transport.ts';
import type { PointAnalysis } from './point-analysis.ts';
import { pairPoint } from './point-pairing.ts';
import type { RealPoint } from './real-row.ts';
import { tieReplay } from './tie-replay.ts';
import { calibrationFor, type TimeScaleCalibration } from './time-scale-calibration.ts';

/** The sim+net side of a run. */
export interface SimNetAnalysis {
  /** The measured transport; null when none could be derived (`missing` says why). */
  measured: MeasuredTransport | null;
  /** Points simulated with their own measured trips replayed (tied points, tie-replay.ts). */
  replayed: number;
  /** Why there are no sim+net rows, or why some are missing; empty when every measured point has one. */
  missing: string[];
  /** points.csv rows with source sim+net, calibration point first, then manifest order. */
  rows: PointRow[];
  /** comparison-net.csv's lines: sim+net against real. */
  comparison: ComparisonRow[];
  summary: ComparisonSummary;
}

/** The transports of a run, one per time scale and wire (by calibrationGroup), from its calibration points. */
export interface SimNetTransports {
  byGroup: Map<string, TransportParams>;
  /** The first calibration point's transport and how it was derived. */
  measured: MeasuredTransport | null;
  missing: string[];
}

function message(err: unknown): string {
  return err instanceof HedgebenchError ? `${err.code}: ${err.message}` : (err as Error).message;
}

/** A sim+net side with nothing in it; `why`, when given, says why it stays empty. */
export function noSimNet(why?: string): SimNetAnalysis {
  return {
    measured: null,
    replayed: 0,
    missing: why === undefined ? [] : [why],
    rows: [],
    comparison: [],
    summary: summarize([], 0, 0),
  };
}

/** Measures each calibration point's transport from its raw files (kept on the point for this). */
export function simNetTransports(calibrations: readonly TimeScaleCalibration[]): SimNetTransports {
  const out: SimNetTransports = { byGroup: new Map(), measured: null, missing: [] };
  for (const { group, point: cal } of calibrations) {
    if (cal.raw === null) {
      out.missing.push('the calibration point has no raw files to measure the transport from');
      continue;
    }
    try {
      const measured = measuredTransport(cal.raw, cal.entry.slug);
      out.measured ??= measured;
      out.byGroup.set(group, measured.transport);
    } catch (err) {
      out.missing.push(`no transport: ${message(err)}`);
    }
  }
  if (calibrations.length === 0)
    out.missing.push('the run has no calibration point to measure its transport');
  return out;
}

/**
 * Simulates point `p` (measured as `rp`) with its time scale's transport, setting `p.simNet` and the
 * differences it is judged by; returns a note when it cannot.
 */
export function simulateWithNet(
  p: PointAnalysis,
  rp: RealPoint,
  matrix: Matrix,
  transports: SimNetTransports,
  workers: number,
): string | null {
  const transport = calibrationFor(transports.byGroup, p.entry);
  if (transport === undefined) return null;
  const point = entryPoint(p.entry, matrix);
  if (!point) return `${p.key}: the matrix has no such point`;
  try {
    const replay = peerCancelCopies(point.config) > 0 ? pointReplay(point, rp, p.entry) : null;
    const net = replay === null ? transport : { ...transport, replay };
    const r = runPoint(point, { transport: net, callRecords: true });
    p.simNet = r.row;
    if (replay !== null) p.simNetReplayed = true;
    if (!r.row.collapsed && !rp.row.collapsed) {
      const mode = { independent: p.clientSide === true, harnessFree: false };
      p.simNetDiffs = pairPoint(rp, r.calls!, workers, mode).diffs;
    }
    return null;
  } catch (err) {
    return `${p.key}: ${message(err)}`;
  }
}

// A tied point's own trips (tie-replay.ts), its copies sent on its schedule, in model ms.
function pointReplay(point: Point, rp: RealPoint, entry: PointAnalysis['entry']): TransportReplay | null {
  const schedule = ArrivalSchedule.forPoint(point);
  return tieReplay(rp, point, timeScaleOf(entry), (c) => schedule.at(c));
}

/** Point `p` as sim+net predicts it: its sim+net row and differences, the measurement whole. */
export function simNetSideOf(p: PointAnalysis): PointAnalysis {
  return { ...p, sim: p.simNet, diffs: p.simNetDiffs ?? null, harness: undefined };
}

/**
 * True when point `p` is judged against the model run on its own measured trips rather than against the model
 * with the harness taken out of the measurement: a tied point whose trips sim+net replayed. Its outcome is a
 * race the harness's µs decide, so the pure model runs other copies of the same calls and the pairing by call,
 * which makes the verdict decisive, is lost; the replay keeps it (tie-replay.ts).
 */
export function judgedOnReplay(p: PointAnalysis): boolean {
  return p.simNetReplayed === true;
}

/** The sim+net side of a run once its points are simulated: its rows and its comparison lines. */
export function simNetSide(
  transports: SimNetTransports,
  calibrations: readonly TimeScaleCalibration[],
  points: readonly PointAnalysis[],
  margins: Margins,
  missing: readonly string[],
): SimNetAnalysis {
  const out: SimNetAnalysis = {
    ...noSimNet(),
    measured: transports.measured,
    missing: [...transports.missing, ...missing],
  };
  if (transports.byGroup.size === 0) return out;
  const cals = calibrations.map((c) => c.point).filter((c) => !points.includes(c));
  for (const p of [...cals, ...points]) {
    if (!p.simNet) continue;
    out.rows.push(p.simNet);
    p.simNetRows = comparePoint(simNetSideOf(p), margins);
    out.comparison.push(...p.simNetRows);
  }
  const judged = points.filter((p) => p.simNet);
  out.replayed = judged.filter(judgedOnReplay).length;
  out.summary = summarize(
    judged.flatMap((p) => p.simNetRows),
    judged.length,
    judged.length,
  );
  return out;
}

/** The sim+net side in one line (comparison.txt, `compare`'s output, the report). */
export function formatSimNetLine(s: SimNetAnalysis): string {
  if (!s.measured) return `sim+net: none (${s.missing.join('; ') || 'no measured point'})`;
  const c = s.summary.counts;
  const m = s.measured;
  const others = (
    ['undecided', 'diverges', 'both-collapsed', 'collapse-mismatch', 'invalid', 'missing'] as const
  )
    .map((v) => `${v} ${c[v]}`)
    .join(', ');
  const replayed =
    s.replayed === 0 ? '' : `, ${s.replayed} tied of them with their own measured trips replayed`;
  return `sim+net: ${s.summary.compared} points simulated with the calibration point's transport (${m.samples} calls, ${m.origin}; ${describeTransport(m.transport)})${replayed}; ${c.agrees} of ${s.summary.metrics} metrics agree; ${others}`;
}
