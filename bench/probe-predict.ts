// Does a probed model predict as well as the true one? hedgebench's own target server, set to a model the
// probe is not told and to a seed of its own (so no simulated draw matches a served one: a black box), is
// probed, then measured by `hedgebench run` as a foreign service twice per repetition: once simulated with
// the fitted model.json, once with the model it really runs. Prints, per repetition and model, how many
// comparison metrics agree and the points' p99 (sim → real), then how often the fitted model agreed at least
// as often as the true one. Needs a quiet machine.
//
//   npm run build && npx tsx bench/probe-predict.ts [--reps 1] [--calls 4200] [--workers 4] [--median 10]
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseComparisonCsv, parsePointsCsv } from '../contract/index.ts';
import { DEFAULT_MODEL } from '../model/index.ts';
import { createRun } from '../orchestrator/index.ts';
import { createProbe } from '../probe/index.ts';
import { createTargetServer } from '../target-server/index.ts';

const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '1' },
    calls: { type: 'string', default: '4200' },
    workers: { type: 'string', default: '4' },
    median: { type: 'string', default: '10' },
  },
});
const truth = { ...DEFAULT_MODEL, workers: Number(values.workers), medianMs: Number(values.median) };
const reps = Number(values.reps);
const dir = await mkdtemp(join(tmpdir(), 'hb-probe-predict-'));
const quiet = { write: () => true };
console.log(
  `bench/probe-predict: target-server ${JSON.stringify(truth)}, seed 99; matrix: no hedge and hedge, default budget at 0.5 and 0.85, ignore, seed 1, ${values.calls} calls; ${reps} repetition(s); files in ${dir}`,
);

let notWorse = 0;
for (let rep = 1; rep <= reps; rep++) {
  const server = await createTargetServer({ workers: truth.workers, model: truth, seed: 99, log: () => {} });
  try {
    const probe = await createProbe({
      target: `${server.url}/work?call={n}&attempt=1`,
      floorUrl: `${server.url}/healthz`,
      seed: rep,
    }).run();
    const m = probe.model;
    console.log(
      `rep ${rep}: fitted workers ${m.workers}, median ${m.medianMs} ms, sigma ${m.sigma}, stragglers ${m.stragglerProb} in [${m.stragglerMinMs}, ${m.stragglerMaxMs}] (probe ${(probe.elapsedMs / 1000).toFixed(0)} s)`,
    );
    const agreed: Record<string, number> = {};
    for (const [name, model] of [
      ['fitted', m],
      ['true', truth],
    ] as const) {
      const modelFile = join(dir, `${name}-${rep}.json`);
      writeFileSync(modelFile, JSON.stringify(model));
      const matrixFile = join(dir, `matrix-${name}-${rep}.json`);
      writeFileSync(
        matrixFile,
        JSON.stringify({
          name: `probe-predict-${name}`,
          target: { url: `${server.url}/work` },
          model: modelFile,
          configs: ['no hedge', 'hedge, default budget'],
          loads: [0.5, 0.85],
          cancellation: ['ignore'],
          seeds: [1],
          calls: Number(values.calls),
          calibration: false,
        }),
      );
      const out = join(dir, `run-${name}-${rep}`);
      const run = await createRun({ matrixFile, out, stderr: quiet, stdout: quiet });
      const outcome = await run.execute();
      const lines = parseComparisonCsv(readFileSync(join(out, 'comparison.csv'), 'utf8'));
      agreed[name] = lines.filter((l) => l.verdict === 'agrees').length;
      const rows = parsePointsCsv(readFileSync(join(out, 'points.csv'), 'utf8'));
      const p99 = (source: string, r: { config: string; load: number }) =>
        rows.find((x) => x.source === source && x.config === r.config && x.load === r.load)?.p99_ms;
      const points = rows
        .filter((r) => r.source === 'real')
        .map(
          (r) =>
            `${r.config} ${r.load}: ${p99('sim', r)?.toFixed(1)} → ${r.p99_ms?.toFixed(1)}${r.valid ? '' : '*'}`,
        );
      console.log(
        `  ${name.padEnd(6)} model: ${agreed[name]} of ${lines.length} metrics agree (exit ${outcome.exitCode}); p99 ms sim → real: ${points.join('; ')}`,
      );
    }
    if (agreed.fitted! >= agreed.true!) notWorse++;
  } finally {
    await server.close();
  }
}
console.log(
  `the fitted model agreed at least as often as the true one in ${notWorse} of ${reps} repetition(s) (* = the point failed a self-check)`,
);
