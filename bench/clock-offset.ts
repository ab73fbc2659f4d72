// Benchmark: how close the load generator's clock-offset estimate (runtime/clock-offset.ts) comes to the
// truth, and how wide its own bound is, between two processes on one machine. The target server runs as a
// child process with an injected skew; the truth is our timeOrigin − its timeOrigin + skew (performance.now()
// counts from each process's start). Each repeat is one measurement as a point makes it (N exchanges of
// GET /clock on one keep-alive connection, min RTT).
// Run: npx tsx bench/clock-offset.ts [--repeats 20] [--samples 32] [--skew 1234.5] [--pause-ms 100]

import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { measureClockOffset } from '../runtime/index.ts';
import { startTargetProcess } from '../test/target-server/target-process.ts';

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '20' },
    samples: { type: 'string', default: '32' },
    skew: { type: 'string', default: '1234.5' },
    'pause-ms': { type: 'string', default: '100' },
  },
});
const REPEATS = Number(values.repeats);
const SAMPLES = Number(values.samples);
const SKEW = Number(values.skew);
const PAUSE = Number(values['pause-ms']);

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
};
const f = (x: number): string => x.toFixed(3);

const load0 = loadavg()[0]!;
const target = await startTargetProcess([], { HEDGEBENCH_CLOCK_SKEW_MS: String(SKEW) });
try {
  const r = await request(`${target.url}/clock`);
  const { timeOriginMs } = (await r.body.json()) as { timeOriginMs: number };
  const truth = performance.timeOrigin - timeOriginMs + SKEW;
  const err: number[] = [];
  const unc: number[] = [];
  const took: number[] = [];
  let outside = 0;
  for (let i = 0; i < REPEATS; i++) {
    const t = performance.now();
    const e = await measureClockOffset({ target: target.url, samples: SAMPLES });
    took.push(performance.now() - t);
    const d = Math.abs(e.offsetMs - truth);
    err.push(d);
    unc.push(e.uncertaintyMs);
    if (d > e.uncertaintyMs) outside++;
    await new Promise((res) => setTimeout(res, PAUSE));
  }
  const line = (name: string, xs: number[]) =>
    `| ${name} | ${f(q(xs, 0.5))} | ${f(Math.max(...xs))} | ${f(Math.min(...xs))} |`;
  console.log(
    `Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `${REPEATS} measurements × ${SAMPLES} exchanges, skew ${SKEW} ms, true offset ${f(truth)} ms\n`,
  );
  console.log('| ms | p50 | max | min |\n| --- | --- | --- | --- |');
  console.log(line('abs(estimate − truth)', err));
  console.log(line('reported uncertainty (rtt/2 of the min-RTT sample)', unc));
  console.log(line('one measurement took', took));
  console.log(`\nestimates outside their own bound: ${outside} of ${REPEATS}`);
} finally {
  await target.stop();
}
