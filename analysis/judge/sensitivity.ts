// The verdict's test of itself (a matrix's `perturb`): for each perturbation, which points it affects — the
// simulator, given the perturbed service, moves one of their metrics by more than its margin, or collapses
// where the model does not — and whether the verdict flagged exactly those (a `diverges` or a collapse
// mismatch on each affected point, none on the others). A harness-like perturbation affects nothing and must
// be flagged nowhere. Some effects sit just past a margin: whether these calls can tell them apart at all is
// asked of the simulator itself — the perturbed simulation against the model's, paired by call, as the
// verdict pairs the measurement — and where even it cannot, `undecided` is the right answer, `agrees` a miss.

import { METRICS, type Metric, metricSpec, type PointRow } from '../../contract/index.ts';
import { type MarginMetric, type Margins, type Matrix, parsePerturbation } from '../../model/index.ts';
import { runPoint, type SimResult } from '../../simulator/index.ts';
import { entryPoint, simulatedCalls } from '../read/sim-calls-file.ts';
import { simCallTable } from './call-table.ts';
import { equivalence, marginOf } from './equivalence.ts';
import { pairedDiffs } from './paired-comparison.ts';
import type { PointAnalysis } from './point-analysis.ts';

/** One perturbed point: what the perturbation does to it in the model, and what the verdict said. */
interface SensitivityPoint {
  point: PointAnalysis;
  /** The metrics the perturbed simulation moves past their margins ('collapse': one side collapses). */
  moved: Metric[];
  /** The metrics the verdict flagged (diverges, or collapse-mismatch on collapse). */
  flagged: Metric[];
  /**
   * The simulator itself, perturbed against the model over the same calls, calls the effect a divergence
   * (or a collapse mismatch): a faithful harness with these calls could catch it. False for a point the
   * perturbation affects only just past a margin.
   */
  decidable: boolean;
  /** Metrics left undecided. */
  undecided: Metric[];
  /** The point could not be judged (invalid, missing, not measured): it counts for nothing. */
  unjudged: boolean;
}

/** One perturbation over its points. */
interface SensitivityCase {
  perturb: string;
  points: SensitivityPoint[];
  /** Affected points the verdict flagged, and all affected points (judged ones). */
  caught: number;
  affected: number;
  /** Affected points the simulator itself can tell apart at these calls (see SensitivityPoint.decidable). */
  decidable: number;
  /** Affected points where the verdict said `agrees` on every metric the perturbation moves: blind there. */
  missed: number;
  /** Points it does not affect that the verdict flagged all the same. */
  falseAlarms: number;
}

/** The sensitivity of a run: one case per perturbation of its matrix, in the matrix's order. */
export interface Sensitivity {
  cases: SensitivityCase[];
}

function moved(base: PointRow, perturbed: PointRow, margins: Margins): Metric[] {
  if (base.collapsed !== perturbed.collapsed) return ['collapse'];
  if (base.collapsed) return [];
  const out: Metric[] = [];
  for (const m of METRICS) {
    if (m === 'collapse') continue;
    const { column } = metricSpec(m);
    const b = base[column];
    const q = perturbed[column];
    if (typeof b === 'number' && typeof q === 'number' && Math.abs(q - b) > marginOf(m, b, margins))
      out.push(m);
  }
  return out;
}

/** Whether the perturbed simulation, paired by call with the model's, diverges on a metric it moves. */
function decidable(
  perturbed: SimResult,
  p: PointAnalysis,
  runDir: string,
  matrix: Matrix,
  shifted: readonly Metric[],
  margins: Margins,
): boolean {
  if (shifted.includes('collapse')) return true;
  const base = simulatedCalls(runDir, p.entry, matrix);
  if (base === null || perturbed.calls === undefined || !p.sim) return false;
  let busy = 0;
  for (let i = 0; i < base.n; i++) busy += base.busyMs[i];
  // Utilisation is mean worker time per call × calls ÷ (workers × span): the model row gives the factor.
  const scale = p.sim.utilization !== null && busy > 0 ? p.sim.utilization / (busy / base.n) : null;
  const d = pairedDiffs(simCallTable(perturbed.calls), simCallTable(base), scale);
  return shifted.some((m) => {
    const iv = d[m as MarginMetric];
    const v = p.sim?.[metricSpec(m as Exclude<Metric, 'collapse'>).column];
    return (
      iv !== undefined &&
      typeof v === 'number' &&
      equivalence(iv.low, iv.high, marginOf(m as MarginMetric, v, margins)) === 'diverges'
    );
  });
}

/** The sensitivity of a run's perturbed points; null when its matrix perturbs nothing. */
export function sensitivityOf(
  runDir: string,
  matrix: Matrix,
  points: readonly PointAnalysis[],
  margins: Margins,
): Sensitivity | null {
  if (matrix.perturb === undefined) return null;
  const byText = new Map<string, SensitivityPoint[]>();
  for (const p of points) {
    const text = p.entry.dims?.perturb ?? '';
    const point = entryPoint(p.entry, matrix);
    if (!p.sim || !point) continue;
    const run = text === '' ? null : runPoint(point, { perturb: parsePerturbation(text), callRecords: true });
    const perturbed = run?.row ?? p.sim;
    const verdicts = new Map(p.rows.map((r) => [r.metric, r.verdict]));
    const unjudged =
      p.rows.some((r) => r.verdict === 'invalid' || r.verdict === 'missing') || p.rows.length === 0;
    const shifted = moved(p.sim, perturbed, margins);
    const list = byText.get(text) ?? [];
    list.push({
      point: p,
      moved: shifted,
      flagged: METRICS.filter(
        (m) => verdicts.get(m) === 'diverges' || verdicts.get(m) === 'collapse-mismatch',
      ),
      undecided: METRICS.filter((m) => verdicts.get(m) === 'undecided'),
      decidable: run !== null && shifted.length > 0 && decidable(run, p, runDir, matrix, shifted, margins),
      unjudged,
    });
    byText.set(text, list);
  }
  const cases = [...byText].map(([perturb, list]): SensitivityCase => {
    const judged = list.filter((s) => !s.unjudged);
    const hit = judged.filter((s) => s.moved.length > 0);
    const blind = (s: SensitivityPoint) =>
      s.moved.every((m) => s.point.rows.find((r) => r.metric === m)?.verdict === 'agrees');
    return {
      perturb,
      points: list,
      affected: hit.length,
      decidable: hit.filter((s) => s.decidable).length,
      missed: hit.filter(blind).length,
      caught: hit.filter((s) => s.flagged.length > 0).length,
      falseAlarms: judged.filter((s) => s.moved.length === 0 && s.flagged.length > 0).length,
    };
  });
  return { cases };
}

/**
 * One line per perturbation, e.g. `sensitivity: serviceFactor=1.03: caught at 7 of the 7 points it affects;
 * 0 agreed where it should not; 0 flagged where it changes nothing`.
 */
export function formatSensitivityLines(s: Sensitivity | null): string[] {
  if (s === null) return [];
  return s.cases.map((c) => {
    const name = c.perturb === '' ? 'unperturbed' : c.perturb;
    const unjudged = c.points.filter((p) => p.unjudged).length;
    const tail = `${c.falseAlarms} flagged where it changes nothing${unjudged > 0 ? `; ${unjudged} not judged (invalid or missing)` : ''}`;
    if (c.affected === 0) return `sensitivity: ${name}: affects no point in the model; ${tail}`;
    const near = c.affected - c.decidable;
    const nearText =
      near > 0
        ? ` (${near} only just past a margin, which the model itself cannot tell apart at these calls)`
        : '';
    return `sensitivity: ${name}: caught at ${c.caught} of the ${c.affected} points it affects${nearText}; ${c.missed} agreed where it should not; ${tail}`;
  });
}
