// The probe against the goal: hedgebench's own target server, set to a model the probe is not
// told, probed R times; prints each fit beside the truth and how often each goal held (workers ±1,
// median within 5 %, straggler probability within ±0.01), with the probe's own time. Needs a quiet
// machine: every latency carries the machine's noise.
//
//   npx tsx bench/probe.ts [--runs 3] [--workers 4] [--median 10] [--low-load 2000] [--step-seconds 4]
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { createProbe } from '../probe/index.ts';
import { createTargetServer } from '../target-server/index.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '4' },
    median: { type: 'string', default: '10' },
    'low-load': { type: 'string', default: '2000' },
    'step-seconds': { type: 'string', default: '4' },
  },
});
const truth = { workers: Number(values.workers), medianMs: Number(values.median), stragglerProb: 0.02 };
console.log(
  `bench/probe: target-server workers ${truth.workers}, median ${truth.medianMs} ms, sigma 0.25, stragglers 2 % in [100, 300] ms; ${values.runs} runs; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}`,
);
const held = { workers: 0, median: 0, straggler: 0 };
const runs = Number(values.runs);
for (let i = 0; i < runs; i++) {
  const server = await createTargetServer({
    workers: truth.workers,
    model: { medianMs: truth.medianMs },
    log: () => {},
  });
  try {
    const r = await createProbe({
      target: `${server.url}/work?call={n}&attempt=1`,
      floorUrl: `${server.url}/healthz`,
      lowLoadRequests: Number(values['low-load']),
      stepSeconds: Number(values['step-seconds']),
      seed: i + 1,
    }).run();
    const m = r.model;
    const ok = {
      workers: Math.abs(m.workers - truth.workers) <= 1,
      median: Math.abs(m.medianMs / truth.medianMs - 1) <= 0.05,
      straggler: Math.abs(m.stragglerProb - truth.stragglerProb) <= 0.01,
    };
    held.workers += Number(ok.workers);
    held.median += Number(ok.median);
    held.straggler += Number(ok.straggler);
    console.log(
      `run ${i + 1}: workers ${m.workers}${ok.workers ? '' : ' (miss)'}, median ${m.medianMs} ms${ok.median ? '' : ' (miss)'}, sigma ${m.sigma}, stragglers ${m.stragglerProb}${ok.straggler ? '' : ' (miss)'} in [${m.stragglerMinMs}, ${m.stragglerMaxMs}], floor ${r.floor.p50Ms.toFixed(2)} ms, KS ${r.service.ks.toFixed(3)}, knee at ${r.steps.at(-1)?.rate.toFixed(0)} req/s, ${(r.elapsedMs / 1000).toFixed(0)} s`,
    );
  } finally {
    await server.close();
  }
}
console.log(
  `goals held: workers ±1 ${held.workers}/${runs}, median 5 % ${held.median}/${runs}, straggler probability ±0.01 ${held.straggler}/${runs}`,
);
