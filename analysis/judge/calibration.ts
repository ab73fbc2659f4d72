// The harness's own overhead, measured by the calibration point (`no hedge` at a low load, e.g. 0.10):
// real − sim at p50 and p99. At that load nothing queues, so the difference is what the wall clock adds
// (network, HTTP stack, timers, scheduling): the report's line on overhead. It lends no allowance to other
// points — each verdict takes every call's own harness parts out instead — and the calibration point is
// judged like any point, the harness's check of itself.

import { type ComparisonRow, formatLoad, type PointId, type PointRow } from '../../contract/index.ts';

/** The calibration point's figures; `usable` = they describe the harness (else `note` says why not). */
export interface Calibration {
  config: string;
  load: number;
  cancellation: string;
  seed: number;
  simP50: number | null;
  realP50: number | null;
  simP99: number | null;
  realP99: number | null;
  /** real − sim at p50, ms (null when a side is missing). */
  p50Ms: number | null;
  /** real − sim at p99, ms. */
  p99Ms: number | null;
  usable: boolean;
  /** Why it is not usable; empty when usable. */
  note: string;
}

/** Derives the calibration from the calibration point's sim and real rows (either may be missing). */
export function calibrationFromRows(
  id: PointId,
  sim: PointRow | undefined,
  real: PointRow | undefined,
): Calibration {
  const diff = (r: number | null | undefined, s: number | null | undefined) =>
    r !== null && r !== undefined && s !== null && s !== undefined ? r - s : null;
  const p50Ms = diff(real?.p50_ms, sim?.p50_ms);
  const p99Ms = diff(real?.p99_ms, sim?.p99_ms);
  let note = '';
  if (!real) note = 'the calibration point has no real row (it failed or was not measured)';
  else if (!sim) note = 'the calibration point has no simulated row';
  else if (!real.valid) note = 'the calibration point failed its self-check (valid=false)';
  else if (real.collapsed || sim.collapsed)
    note = 'the calibration point collapsed; its load is too high to calibrate';
  else if (p50Ms === null || p99Ms === null) note = 'the calibration point has no successful calls';
  return {
    ...id,
    simP50: sim?.p50_ms ?? null,
    realP50: real?.p50_ms ?? null,
    simP99: sim?.p99_ms ?? null,
    realP99: real?.p99_ms ?? null,
    p50Ms,
    p99Ms,
    usable: note === '',
    note,
  };
}

function signed(ms: number | null): string {
  if (ms === null) return 'n/a';
  const s = ms.toFixed(3);
  return ms >= 0 ? `+${s}` : s;
}

/** The calibration point's own verdicts in words: `7 of 7 metrics agree` (plus any other verdict). */
function ownVerdicts(rows: readonly ComparisonRow[]): string {
  const agree = rows.filter((r) => r.verdict === 'agrees').length;
  const others = [...new Set(rows.map((r) => r.verdict))]
    .filter((v) => v !== 'agrees')
    .map((v) => `${rows.filter((r) => r.verdict === v).length} ${v}`);
  return `${agree} of ${rows.length} metrics agree${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
}

/**
 * The calibration as one line of text (printed by `compare`, shown in the report), with the calibration
 * point's own verdicts when it was judged (`rows`).
 */
export function formatCalibrationLine(cal: Calibration | null, rows: readonly ComparisonRow[] = []): string {
  if (!cal) return 'calibration: none (the matrix has no calibration point)';
  const where = `${cal.config} at load ${formatLoad(cal.load)} (${cal.cancellation}, seed ${cal.seed})`;
  const figures = `real − sim = ${signed(cal.p50Ms)} ms at p50, ${signed(cal.p99Ms)} ms at p99`;
  const judged =
    rows.length > 0
      ? `; judged like any point, with each call's harness parts taken out: ${ownVerdicts(rows)}`
      : '';
  if (!cal.usable)
    return `calibration: ${where}: ${figures}; not the harness's overhead (${cal.note})${judged}`;
  return `calibration: ${where}: ${figures} — what this setup's clock, network and HTTP add${judged}`;
}
