// The verdict's test of itself (a matrix's `perturb`): for each perturbation, which points it affects — the
// simulator, given the perturbed service, moves one of their metrics by more than its margin, or collapses
// where the model does not — and whether the verdict flagged exactly those (a `diverges` or a collapse
// mismatch on each affected point, none on the others). A harness-like perturbation affects nothing and must
// be flagged nowhere.

import type { PointRow } from '../../contract/index.ts';
import { type Margins, type Matrix, parsePerturbation } from '../../model/index.ts';
import { runPoint } from '../../simulator/index.ts';
import { entryPoint } from '../read/sim-calls-file.ts';
import { marginOf } from './equivalence.ts';
import type { PointAnalysis } from './point-analysis.ts';
import { METRIC_COLUMN, METRICS, type Metric } from './verdict.ts';

/** One perturbed point: what the perturbation does to it in the model, and what the verdict said. */
export interface SensitivityPoint {
  point: PointAnalysis;
  /** The metrics the perturbed simulation moves past their margins ('collapse': one side collapses). */
  moved: Metric[];
  /** The metrics the verdict flagged (diverges, or collapse-mismatch on collapse). */
  flagged: Metric[];
  /** Metrics left undecided. */
  undecided: Metric[];
  /** The point could not be judged (invalid, missing, not measured): it counts for nothing. */
  unjudged: boolean;
}

/** One perturbation over its points. */
export interface SensitivityCase {
  perturb: string;
  points: SensitivityPoint[];
  /** Affected points the verdict flagged, and all affected points (judged ones). */
  caught: number;
  affected: number;
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
    const b = base[METRIC_COLUMN[m]];
    const q = perturbed[METRIC_COLUMN[m]];
    if (typeof b === 'number' && typeof q === 'number' && Math.abs(q - b) > marginOf(m, b, margins))
      out.push(m);
  }
  return out;
}

/** The sensitivity of a run's perturbed points; null when its matrix perturbs nothing. */
export function sensitivityOf(
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
    const perturbed = text === '' ? p.sim : runPoint(point, { perturb: parsePerturbation(text) }).row;
    const verdicts = new Map(p.rows.map((r) => [r.metric, r.verdict]));
    const unjudged =
      p.rows.some((r) => r.verdict === 'invalid' || r.verdict === 'missing') || p.rows.length === 0;
    const list = byText.get(text) ?? [];
    list.push({
      point: p,
      moved: moved(p.sim, perturbed, margins),
      flagged: METRICS.filter(
        (m) => verdicts.get(m) === 'diverges' || verdicts.get(m) === 'collapse-mismatch',
      ),
      undecided: METRICS.filter((m) => verdicts.get(m) === 'undecided'),
      unjudged,
    });
    byText.set(text, list);
  }
  const cases = [...byText].map(([perturb, list]): SensitivityCase => {
    const judged = list.filter((s) => !s.unjudged);
    const hit = judged.filter((s) => s.moved.length > 0);
    return {
      perturb,
      points: list,
      affected: hit.length,
      caught: hit.filter((s) => s.flagged.length > 0).length,
      falseAlarms: judged.filter((s) => s.moved.length === 0 && s.flagged.length > 0).length,
    };
  });
  return { cases };
}

/** One line per perturbation, e.g. `serviceFactor=1.03: caught at 7 of 7 points it affects; 0 false alarms`. */
export function formatSensitivityLines(s: Sensitivity | null): string[] {
  if (s === null) return [];
  return s.cases.map((c) => {
    const name = c.perturb === '' ? 'unperturbed' : c.perturb;
    const unjudged = c.points.filter((p) => p.unjudged).length;
    const tail = `${c.falseAlarms} flagged where it changes nothing${unjudged > 0 ? `; ${unjudged} not judged (invalid or missing)` : ''}`;
    if (c.affected === 0) return `sensitivity: ${name}: affects no point in the model; ${tail}`;
    return `sensitivity: ${name}: caught at ${c.caught} of the ${c.affected} points it affects; ${tail}`;
  });
}
