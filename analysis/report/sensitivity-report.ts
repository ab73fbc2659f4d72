// The report's section for a matrix that perturbs its real side (`perturb`): which perturbations the verdict
// caught, by which metric, at which points — and where the model says a perturbation changes nothing, that the
// verdict flagged nothing either.

import { formatLoad } from '../../contract/index.ts';
import { configLabel } from '../judge/point-label.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { formatSensitivityLines } from '../judge/sensitivity.ts';
import { DASH } from './report-cells.ts';
import type { Block } from './report-doc.ts';

/** The section's heading (tests look for it). */
const SENSITIVITY_HEADING = 'Sensitivity: what the verdict caught';

/** The section's blocks; none when the matrix perturbs nothing. */
export function sensitivityBlocks(a: RunAnalysis): Block[] {
  const s = a.sensitivity;
  if (s === null) return [];
  const head = [
    'perturbation',
    'configuration',
    'load',
    'cancellation',
    'the model moves',
    'the verdict flagged',
    'undecided',
    'result',
  ];
  const rows = s.cases.flatMap((c) =>
    c.points.map((sp) => {
      const p = sp.point;
      const affected = sp.moved.length > 0;
      const flagged = sp.flagged.length > 0;
      const result = sp.unjudged
        ? 'not judged'
        : !affected
          ? flagged
            ? 'FALSE ALARM'
            : 'rightly quiet'
          : flagged
            ? 'caught'
            : sp.decidable
              ? 'MISSED: the model tells them apart at these calls'
              : sp.moved.some((m) => sp.undecided.includes(m))
                ? 'undecided, as the model itself is at these calls'
                : 'MISSED: agrees';
      return [
        c.perturb === '' ? 'none' : c.perturb,
        configLabel({ id: { ...p.id, perturb: undefined } }),
        formatLoad(p.id.load),
        p.id.cancellation,
        sp.moved.join(', ') || DASH,
        sp.flagged.join(', ') || DASH,
        sp.undecided.join(', ') || DASH,
        result,
      ];
    }),
  );
  return [
    { kind: 'heading', level: 2, text: SENSITIVITY_HEADING },
    {
      kind: 'paragraph',
      text: "The real side of these points was made wrong on purpose (the matrix's `perturb`): the target served a different service than the model, or the load generator hedged late; the simulation never saw it. A point is affected when the simulator, given the perturbed service, moves one of its metrics by more than that metric's margin (or collapses where the model does not); the verdict should flag every affected point (`diverges` or a collapse mismatch) and no other. A harness-like perturbation (a delay before each response) affects nothing and must be flagged nowhere. Where a perturbation moves a metric only just past its margin, the simulator itself — the perturbed model against the model, over the same calls, paired as the verdict pairs — may not tell the two apart at these calls: there `undecided` is the right answer, and only `agrees` would be blind.",
    },
    { kind: 'list', items: formatSensitivityLines(s).map((l) => l.replace(/^sensitivity: /, '')) },
    { kind: 'table', head, rows },
  ];
}
