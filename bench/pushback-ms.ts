// Why the policies preset's pushback lasts 200 ms (docs/policies.md): `hedge, server pushback` (20 ms, no
// bound but the server's) against no hedge and the default budget at loads 0.85 and 0.95, cancellation
// ignored, seeds 1 and 2, with the model's pushback above a queue of 32 (2 × workers) for each `ms` listed.
// Prints p99 / p99.9 ms, requests per call and the skipped rate (the hedges pushback refused).
//
//   npx tsx bench/pushback-ms.ts [--calls 200000] [--ms 10,20,50,100,200,1000]
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL, type HedgeConfig, type ModelParams, referenceConfig } from '../model/index.ts';
import { runPoint } from '../simulator/index.ts';

const { values } = parseArgs({ options: { calls: { type: 'string' }, ms: { type: 'string' } } });
const calls = Number(values.calls ?? 200_000);
const msList = (values.ms ?? '10,20,50,100,200,1000').split(',').map(Number);
const pushback: HedgeConfig = {
  name: 'hedge, server pushback',
  hedge: { delayMs: 20, budget: { kind: 'pushback' } },
};

function figures(config: HedgeConfig, load: number, seed: number, model: ModelParams): string {
  const r = runPoint({ config, load, cancellation: 'ignore', seed, calls, warmupFraction: 0.1, model });
  const x = r.row;
  const tail = r.collapse.collapsed ? 'collapse' : `${x.p99_ms?.toFixed(0)} / ${x.p999_ms?.toFixed(0)}`;
  return `${tail}, ${x.requests_per_call?.toFixed(3)}, skipped ${((x.skipped_rate ?? 0) * 100).toFixed(1)} %`;
}

console.log(`calls ${calls} per point; node ${process.version}\n`);
console.log('| configuration | load | seed 1: p99 / p99.9 ms, requests/call, skipped | seed 2 |');
console.log('| --- | --- | --- | --- |');
for (const load of [0.85, 0.95]) {
  const line = (name: string, f: (seed: number) => string) =>
    console.log(`| ${name} | ${load} | ${f(1)} | ${f(2)} |`);
  line('no hedge', (s) => figures({ name: 'no hedge' }, load, s, DEFAULT_MODEL));
  line('hedge, default budget', (s) =>
    figures(referenceConfig('hedge, default budget')!, load, s, DEFAULT_MODEL),
  );
  for (const ms of msList)
    line(`pushback ${ms} ms`, (s) =>
      figures(pushback, load, s, { ...DEFAULT_MODEL, pushback: { queueAbove: 32, ms } }),
    );
}
