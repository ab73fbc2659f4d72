// `hedgebench run --plan`'s estimate of a plan (plan.ts): the wall time a point and the run take, the
// order lanes take the points in, the disk, and whether the calls bound each percentile.
import { percentileRanks } from '../../analysis/index.ts';
import { latencyMetric } from '../../contract/index.ts';
import { timeScaleOf, warmupCalls } from '../../model/index.ts';
import { formatDuration, type PlannedPoint, planTimeScales } from './plan.ts';
import { ALONE_BACKLOG } from './plan-simulation.ts';
import { BYTES_PER_CALL, MARGIN_BYTES } from './run-folder.ts';

/**
 * Wall time a point costs beyond its schedule: configure and reset the target, start the load generator
 * (its clock exchange and warm-up), drain Redis, score the row — and wait for the last calls, whose
 * latency (stragglers of up to 300 model-ms, longer in a queue) lasts k times longer on a dilated clock.
 * Fitted to whole runs of the quick preset, undilated and at k = 10 (docs/running.md, "Plan a run: `--plan`").
 */
export const POINT_OVERHEAD_MS = 1200;
/** The part of a point's overhead that grows with its time scale k, per unit of k (see POINT_OVERHEAD_MS). */
export const POINT_TAIL_MS = 300;

/** Wall time one point costs, its schedule and its overhead. */
export function pointWallMs(pp: Pick<PlannedPoint, 'expectedMs' | 'point'>): number {
  return pp.expectedMs + POINT_OVERHEAD_MS + POINT_TAIL_MS * timeScaleOf(pp.point);
}

/**
 * The order lanes take the points they share: the calibration point first (every later point is judged
 * with it), then the longest first, so no lane is left with a long point while the others idle (the
 * classic greedy rule for L machines, within 4/3 of the best schedule). One lane keeps plan order.
 */
export function laneOrder<T extends Pick<PlannedPoint, 'expectedMs' | 'point' | 'calibration'>>(
  points: readonly T[],
  lanes: number,
): T[] {
  if (lanes <= 1) return [...points];
  return [...points].sort(
    (a, b) => Number(b.calibration) - Number(a.calibration) || pointWallMs(b) - pointWallMs(a),
  );
}

/** Once per run: simulate, start Redis and the target, write the comparison and the report. */
export const RUN_OVERHEAD_MS = 3000;
/** The tail percentiles whose interval a run's calls may fail to bound (p50's needs a handful), and its level. */
const BOUNDED = [latencyMetric('p99').percentile, latencyMetric('p99.9').percentile];
const CONFIDENCE = 0.95;

/**
 * The fewest successful calls whose 95 % interval bounds the p-th percentile from above
 * (analysis/judge/percentile-ci.ts): 368 for p99, 3 688 for p99.9. Below it the interval is open above.
 */
export function minCallsToBound(p: number, confidence = CONFIDENCE): number {
  let lo = 1;
  let hi = 1;
  while (percentileRanks(hi, p, confidence).highOpen) hi *= 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (percentileRanks(mid, p, confidence).highOpen) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What `run --plan` says about a plan. */
interface PlanEstimate {
  points: {
    key: string;
    calibration: boolean;
    calls: number;
    measured: number;
    expectedMs: number;
    /**
     * Measured with no other lane beside it, after the others (plan-simulation.ts, collapsingKeys);
     * absent = no.
     */
    alone?: true;
    /** Predicted to collapse: the time its backlog takes to drain after the schedule (collapseDrainMs). */
    drainMs?: number;
  }[];
  /** Estimated wall time of the whole run, ms. */
  wallMs: number;
  /** Lanes the estimate spreads the points over, when more than one. */
  lanes?: number;
  /** Raw data the points write, bytes (the free-space check asks for this plus `marginBytes`). */
  diskBytes: number;
  marginBytes: number;
  /** Percentiles the calls cannot bound (each a sentence with the fix). */
  warnings: string[];
  /** The time scales of the points, when some point is dilated (model/time-scale.ts). */
  timeScales?: number[];
}

/**
 * Estimates the wall time (on `lanes` lanes) and disk of a plan and, for a comparison that pairs nothing
 * (`unpaired`: a foreign service), checks that its calls bound p99 and p99.9 — there the verdict rests on
 * each side's own interval; paired by call it does not. Lanes take the points in laneOrder, each the next
 * one as it frees up, as the run does; the points keyed in `alone` come after the others, one at a time; a
 * point keyed in `drains` (plan-simulation.ts, collapseDrains) lasts that much past its schedule.
 */
export function estimatePlan(
  plan: readonly PlannedPoint[],
  lanes = 1,
  alone: ReadonlySet<string> = new Set(),
  drains: ReadonlyMap<string, number> = new Map(),
  unpaired = false,
): PlanEstimate {
  const points = plan.map((pp) => ({
    key: pp.key,
    calibration: pp.calibration,
    calls: pp.point.calls,
    measured: pp.point.calls - warmupCalls(pp.point),
    expectedMs: pp.expectedMs,
    ...(alone.has(pp.key) ? { alone: true as const } : {}),
    ...(drains.has(pp.key) ? { drainMs: drains.get(pp.key) } : {}),
  }));
  const wall = (pp: PlannedPoint) => pointWallMs(pp) + (drains.get(pp.key) ?? 0);
  const free = Array<number>(lanes).fill(0);
  let solo = 0;
  for (const pp of laneOrder(plan, lanes)) {
    if (alone.has(pp.key)) {
      solo += wall(pp);
      continue;
    }
    const i = free.indexOf(Math.min(...free));
    free[i] += wall(pp);
  }
  const wallMs = RUN_OVERHEAD_MS + Math.max(...free) + solo;
  const diskBytes = points.reduce((b, p) => b + p.calls * BYTES_PER_CALL, 0);
  const warnings: string[] = [];
  for (const pct of unpaired ? BOUNDED : []) {
    const need = minCallsToBound(pct);
    const short = plan.filter((_, i) => points[i].measured < need);
    if (short.length === 0) continue;
    const pp = short[0];
    const wf = pp.point.warmupFraction;
    // The fewest calls whose measured part (after the warm-up, rounded as the run rounds it) is enough.
    let fix = Math.max(1, Math.floor(need / (1 - wf)) - 1);
    while (fix - warmupCalls({ calls: fix, warmupFraction: wf }) < need) fix++;
    warnings.push(
      `${short.length} of ${plan.length} points measure too few calls to bound p${pct}: ${points[plan.indexOf(pp)].measured} measured (${pp.point.calls} calls, ${Math.round(wf * 100)} % warm-up) where its 95 % interval needs at least ${need} successful calls, so those intervals stay open above and the verdict there undecided; raise ${pp.calibration ? 'calibration.calls' : 'calls'} to at least ${fix}`,
    );
  }
  const scales = planTimeScales(plan);
  return {
    points,
    wallMs,
    ...(lanes > 1 ? { lanes } : {}),
    diskBytes,
    marginBytes: MARGIN_BYTES,
    warnings,
    ...(scales.some((k) => k !== 1) ? { timeScales: scales } : {}),
  };
}

/** `run --plan`'s text: one line per point, then the totals and the warnings. */
export function formatPlan(name: string, e: PlanEstimate): string {
  const label = (p: PlanEstimate['points'][number]) =>
    `${p.key}${p.calibration ? ' (calibration)' : ''}${p.alone ? ' (alone)' : ''}`;
  const width = Math.max(5, ...e.points.map((p) => label(p).length));
  const alone = e.points.filter((p) => p.alone).length;
  const lines = [
    `hedgebench run --plan: ${name}, ${e.points.length} points (nothing is started or written)`,
    `  #  ${'point'.padEnd(width)}  ${'calls'.padStart(7)}  ${'measured'.padStart(8)}  schedule`,
    ...e.points.map(
      (p, i) =>
        `${String(i + 1).padStart(3)}  ${label(p).padEnd(width)}  ${String(p.calls).padStart(7)}  ${String(p.measured).padStart(8)}  ${formatDuration(p.expectedMs)}${p.drainMs ? ` + ${formatDuration(p.drainMs)} to drain its collapse` : ''}`,
    ),
    ...(alone > 0 ? [`alone: ${aloneWords(alone)}`] : []),
    `estimated wall time: about ${formatDuration(e.wallMs)}${e.lanes ? ` on ${e.lanes} lanes` : ''} (the schedules, plus about ${formatDuration(POINT_OVERHEAD_MS)} a point to start, drain and score and ${formatDuration(POINT_TAIL_MS)} × its time scale for its last calls, ${e.points.some((p) => p.drainMs) ? 'the drains of the points predicted to collapse, ' : ''}and ${formatDuration(RUN_OVERHEAD_MS)} to start and finish${e.lanes ? '; lanes that share cores, as on one machine, take longer' : ''})`,
    ...(e.timeScales
      ? [
          `dilated: time scale ${e.timeScales.join(', ')}: every duration × k and every rate ÷ k, so each schedule lasts k times its undilated length; results in model ms`,
        ]
      : []),
    `estimated disk: about ${mib(e.diskBytes)} of raw data (${BYTES_PER_CALL} bytes a call); the run asks for that plus ${mib(e.marginBytes)} free`,
    ...e.warnings.map((w) => `warning: ${w}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Why some points run alone, for the plan and the run's first lines. */
export function aloneWords(n: number): string {
  return `${n} point${n === 1 ? '' : 's'} the simulation predicts to collapse with ${ALONE_BACKLOG} or more attempts in flight run${n === 1 ? 's' : ''} after the others, with no other lane beside ${n === 1 ? 'it' : 'them'}: so many attempts in flight take the shared cores from any point measured at the same time`;
}

function mib(bytes: number): string {
  return `${Math.max(1, Math.ceil(bytes / 2 ** 20))} MiB`;
}
