// Benchmark: one point's total rate sent by 1 load generator vs by K (`clients: K`, `--client i --clients
// K`), each its own process, against a trivial server in another process that answers at once (so the
// target is never the bottleneck). Prints every generator's send lag and self-check verdict: does the
// point's schedule hold when split across K processes where one process alone cannot keep it?
// Without Redis there is no start barrier: each generator starts after its own warm-up, so their t0s
// differ by their start-up times (each one's send lag is measured against its own t0 all the same).
// Run: npx tsx bench/clients.ts [--rate 10000] [--clients 4] [--calls 30000] [--config "hedge, default budget"]
//        [--timer poll]
// The machine has 2 shared cores: K polling generators compete for them with the server (see cpu cores).

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { LoadResult } from '../loadgen/index.ts';
import type { ModelParams } from '../model/index.ts';
import { buildLoadgenBundle, machineLoad, startTrivialServer } from './loadgen-process.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '4' },
    calls: { type: 'string' },
    config: { type: 'string', default: 'hedge, default budget' },
    timer: { type: 'string', default: 'poll' },
  },
});
const RATE = Number(values.rate);
const K = Number(values.clients);
const CALLS = values.calls === undefined ? Math.round(RATE * 3) : Number(values.calls);
if (!(RATE > 0 && Number.isInteger(K) && K >= 1 && K <= 64 && Number.isInteger(CALLS) && CALLS > 0)) {
  throw new Error('--rate must be > 0, --clients a whole number in 1..64, --calls a whole number > 0');
}

// λ = load · workers / E[S] = load · 2000 / 100 ms = load · 20 000 calls/s: any rate up to 40 000/s.
const MODEL: Partial<ModelParams> = { workers: 2000, service: { kind: 'constant', ms: 100 } };

const f = (x: number | null | undefined, d = 3): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d);

/** Runs the point with `clients` generators at once; each one's summary, and the wall time. */
async function runPoint(
  bundle: string,
  url: string,
  clients: number,
): Promise<{ results: LoadResult[]; wallS: number }> {
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const args = [
        bundle,
        ...['--target', url, '--config', values.config, '--load', String(RATE / 20_000)],
        ...['--calls', String(CALLS), '--seed', '1', '--warmup', '0.2', '--model', JSON.stringify(MODEL)],
        ...['--timer', values.timer, '--clock-samples', '0', '--quiet'],
        ...(clients > 1 ? ['--client', String(client), '--clients', String(clients)] : []),
      ];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      const code = await new Promise<number | null>((r) => child.on('close', r));
      if (code !== 0) throw new Error(`load generator ${client} of ${clients} exited ${code}`);
      return JSON.parse(out.trim()) as LoadResult;
    }),
  );
  return { results, wallS: (performance.now() - t0) / 1000 };
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, ${machineLoad()}`);
  console.log(
    `point: ${values.config}, ${RATE} calls/s in total, ${CALLS} calls (20 % warm-up), timer ${values.timer}`,
  );
  const bundle = await buildLoadgenBundle();
  const { child, url } = await startTrivialServer();
  try {
    console.log(
      '\n| clients | client | sent | measured | rate target/s | achieved/s | send-lag p50 ms | p99 ms | max ms | A² | cpu cores | self-check |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    const verdicts: string[] = [];
    for (const clients of K === 1 ? [1] : [1, K]) {
      const { results, wallS } = await runPoint(bundle, url, clients);
      for (const [i, r] of results.entries()) {
        const s = r.selfCheck;
        console.log(
          `| ${clients} | ${i} | ${r.sent} | ${s.sendLag.n} | ${f(s.rate.targetPerS, 0)} | ${f(s.rate.achievedPerS, 0)} | ${f(s.sendLag.p50Ms)} | ${f(s.sendLag.p99Ms)} | ${f(s.sendLag.maxMs, 2)} | ${f(s.arrivals.statistic, 2)} | ${f(r.cpuCores, 2)} | ${s.valid ? 'passed' : `FAILED: ${s.reasons.join('; ')}`} |`,
        );
      }
      const passed = results.filter((r) => r.selfCheck.valid).length;
      verdicts.push(
        `clients ${clients}: ${passed} of ${clients} load generators passed their self-check (wall ${f(wallS, 1)} s)`,
      );
    }
    console.log(`\n${verdicts.join('\n')}`);
    console.log(`at the end: ${machineLoad()}`);
  } finally {
    child.kill();
    rmSync(dirname(bundle), { recursive: true, force: true });
  }
}

await main();
