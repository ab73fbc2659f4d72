// Sim and real rows compared only make sense when both came from the same calls and seeds: a points.csv
// overwritten by a `simulate` with other settings would otherwise be judged without a word.

import { formatLoad } from '../../contract/index.ts';
import { configLabel } from './point-label.ts';
import { everyPoint, type RunAnalysis } from './run-analysis.ts';

/** Warnings for every point whose simulated and real rows were made with different calls, and for sim rows of seeds the run did not measure. */
export function sampleMismatches(a: RunAnalysis): string[] {
  const out: string[] = [];
  const all = everyPoint(a);
  for (const p of all) {
    if (p.sim && p.real && p.sim.calls !== p.real.calls) {
      out.push(
        `${configLabel(p)} at load ${formatLoad(p.id.load)} (${p.id.cancellation}, seed ${p.id.seed}): the simulated row has ${p.sim.calls} calls, the real one ${p.real.calls}; their verdicts compare different samples — simulate again with the run's calls (hedgebench simulate --matrix <the run's matrix> --calls ${p.real.calls})`,
      );
    }
  }
  const seeds = new Set(a.manifest.points.map((e) => e.seed));
  const stray = [...new Set(a.simSeeds.filter((s) => !seeds.has(s)))];
  if (stray.length > 0) {
    out.push(
      `points.csv holds simulated rows for seed(s) ${stray.join(', ')}, which this run did not measure (it measured seed(s) ${[...seeds].join(', ')}); they are not compared`,
    );
  }
  return out;
}
