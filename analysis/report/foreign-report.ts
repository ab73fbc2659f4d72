// The report's section for a run against a foreign service (the matrix's `target.url`): what was compared,
// why the server-side columns are empty, and why the comparison is statistical rather than draw for draw.

import type { RunAnalysis } from '../judge/run-analysis.ts';
import type { Block } from './report-doc.ts';

/** The heading of the section (tests look for it). */
const FOREIGN_HEADING = 'A foreign service: a statistical comparison';

/** The section's blocks; none when the run measured hedgebench's own target server. */
export function foreignBlocks(a: RunAnalysis): Block[] {
  const t = a.manifest.matrix.target;
  if (t === undefined) return [];
  return [
    { kind: 'heading', level: 2, text: FOREIGN_HEADING },
    {
      kind: 'paragraph',
      text: `The load went to \`${t.url}\`, a service hedgebench did not deploy and cannot see into; the simulation ran the matrix's model (a probe's model.json). Compared is only what a client sees: latency p50, p99 and p99.9, requests per call (attempts sent per call), hedge rate (in place of utilisation, margin ±${a.margins.hedge_rate}), rejected rate, collapse.`,
    },
    {
      kind: 'paragraph',
      text: "Server-side columns are empty, not zero: utilisation in points.csv, the attempt records (raw/<point>.attempts.csv), attribution.csv and the target's own checks (hold overshoot, response delay, transit) all come from hedgebench's target server, and this service keeps no such records. An empty cell means not measured.",
    },
    {
      kind: 'paragraph',
      text: "Common random numbers do not apply: hedgebench's own server draws each attempt's service time from the same counter-based generator as the simulator, so there the two sides see the same demands and differ only by what the wall clock adds. This service draws its own. The comparison is therefore statistical — two independent samples of the same distribution if the model is right — and each verdict judges the interval of a difference of two independent samples: for a percentile, each side's exact 95 % order-statistic interval, the two half-widths added in quadrature; for a rate, the normal approximation of a difference of means. The same margins apply, so with the calls a run can afford a percentile is often `undecided`: the service's own randomness, not hedgebench's, sets the width.",
    },
  ];
}
