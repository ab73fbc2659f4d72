// How steady `timeScale: "auto"` is: measures the probe of a matrix (default the quick preset) R times, as
// `hedgebench run --time-scale auto` does before its points (at k = 2, on as many lanes at once as the run
// may use, or --lanes N), and prints each choice with its evidence. Goal (issue 24): the same k every time
// on a quiet machine. Starts its own local Redis.
//
//   npx tsx bench/time-scale-choice.ts [--reps 3] [--matrix experiments/quick.json] [--lanes N]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stealPercent } from '../analysis/index.ts';
import { autoProbeLanes, createRun, loadMatrixFile, measureTimeScale } from '../orchestrator/index.ts';

const { values: args } = parseArgs({
  options: {
    reps: { type: 'string', default: '3' },
    matrix: { type: 'string', default: 'experiments/quick.json' },
    lanes: { type: 'string' },
  },
});
const repo = resolve(import.meta.dirname, '..');
const matrix = await loadMatrixFile(resolve(repo, args.matrix));
const quiet = { write: () => true };
const lanes = await autoProbeLanes(
  matrix,
  { lanes: args.lanes === undefined ? undefined : Number(args.lanes) },
  undefined,
);
console.log(
  `# bench/time-scale-choice.ts — ${args.matrix}, ${args.reps} probes on ${lanes} lanes, ${new Date().toISOString()}`,
);
const ks: number[] = [];
const repeats: number[] = [];
for (let r = 1; r <= Number(args.reps); r++) {
  const t0 = Date.now();
  const choice = await measureTimeScale(matrix, { stderr: quiet, stdout: quiet }, repo, createRun, lanes);
  ks.push(choice.k);
  if (choice.readingK !== undefined) repeats.push(choice.readingK);
  console.log(`probe ${r} (${((Date.now() - t0) / 1000).toFixed(0)} s): ${choice.reason}`);
  const d = choice.delays;
  const ms = (x: number | null) => (x === null ? '–' : x.toFixed(1));
  console.log(
    `  wall ms, the worst lane's: send lag ${ms(d.sendLagP99Ms)}, transit ${ms(d.transitP99Ms)}, hold overshoot ${ms(d.holdOvershootP99Ms)}, response delay ${ms(d.responseDelayP99Ms)}; the hypervisor took ${stealPercent(choice.stealShare ?? 0)} of the CPU (steal)`,
  );
}
const near =
  repeats.length === 0
    ? ''
    : `; ${repeats.length} read low enough for a smaller k (${repeats.join(', ')}) but not with room for the host's drift`;
console.log(`summary: k = ${ks.join(', ')}${new Set(ks).size === 1 ? ' (the same every time)' : ''}${near}`);
