// Benchmark: does the verdict's paired interval (analysis/judge/paired-comparison.ts) cover the true
// difference between a measurement and the model, as often as it says (95 %)? The simulator stands in for
// both sides. "real" is the simulation of the same calls made wrong by a known amount — every call shifted by
// a constant δ (the interval must then be δ exactly), a per-call jitter of mean δ (a harness residue the
// attribution left), the body of the service 3 % slower, the stragglers 10 % slower — and "sim" the model.
// The true difference of each percentile comes from one long run of each side (--truth-calls); each of
// --seeds seeds of the quick preset's size (--calls, 10 % warm-up) gives one interval. Prints, per case,
// load, configuration and metric: the truth, how often the interval covered it, its median width, and the
// farthest a missed interval lay from the truth (a miss by 0.01 ms is not one by 10 ms). CPU only.
//
//   npx tsx bench/verdict-coverage.ts [--seeds 400] [--calls 4200] [--truth-calls 2000000] [--quick]

import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { type PointDiffs, pairedDiffs, simCallTable } from '../analysis/index.ts';
import { LATENCY_METRICS, percentileOf, type SimCalls } from '../contract/index.ts';
import { expandMatrix, type Perturbation, type Point, parseMatrix, uniformOpen } from '../model/index.ts';
import { runPoint } from '../simulator/index.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '400' },
    calls: { type: 'string', default: '4200' },
    'truth-calls': { type: 'string', default: '2000000' },
    quick: { type: 'boolean', default: false },
  },
});
const seeds = values.quick ? 40 : Number(values.seeds);
const calls = Number(values.calls);
const truthCalls = values.quick ? 400_000 : Number(values['truth-calls']);

/** How "real" differs from "sim": a perturbation of the service, or a shift of every measured latency. */
interface Case {
  name: string;
  perturb?: Perturbation;
  /** Added to call i's latency (ms), from a generator keyed by (seed, call). */
  shift?: (seed: number, call: number) => number;
}
const JITTER_SEED = 0x1717;
const CASES: Case[] = [
  { name: 'constant shift +0.1 ms', shift: () => 0.1 },
  {
    name: 'jitter, mean +0.05 ms, ±0.1 ms',
    shift: (seed, call) => 0.05 + 0.1 * (2 * uniformOpen(JITTER_SEED, seed, call, 0) - 1),
  },
  { name: 'service × 1.03', perturb: { serviceFactor: 1.03 } },
  { name: 'stragglers × 1.10', perturb: { stragglerFactor: 1.1 } },
];
const POINTS = [
  { config: 'no hedge', load: 0.5 },
  { config: 'no hedge', load: 0.95 },
  { config: 'hedge, default budget', load: 0.5 },
  { config: 'hedge, default budget', load: 0.95 },
] as const;

function point(config: string, load: number, seed: number, n: number): Point {
  const m = parseMatrix(
    {
      name: 'coverage',
      configs: [config],
      loads: [load],
      cancellation: ['propagate'],
      seeds: [seed],
      calls: n,
    },
    'verdict-coverage bench',
  );
  return expandMatrix(m)[0];
}

function simulate(p: Point, c: Case | null): SimCalls {
  const out = runPoint(p, { callRecords: true, ...(c?.perturb ? { perturb: c.perturb } : {}) }).calls!;
  if (c?.shift) for (let i = 0; i < out.n; i++) out.latencyMs[i] += c.shift(p.seed, out.call[i]);
  return out;
}

const okLatencies = (t: ReturnType<typeof simCallTable>) => t.latencyMs.filter((_, i) => t.ok[i] === 1);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

console.log(
  `# bench/verdict-coverage.ts — node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, ${seeds} seeds × ${calls} calls, truth from ${truthCalls} calls`,
);
console.log('case | point | metric | true D | covered | median width | farthest miss');
let all = 0;
let allIn = 0;
for (const c of CASES) {
  for (const pt of POINTS) {
    const t0 = performance.now();
    const truthReal = okLatencies(simCallTable(simulate(point(pt.config, pt.load, 999, truthCalls), c)));
    const truthSim = okLatencies(simCallTable(simulate(point(pt.config, pt.load, 999, truthCalls), null)));
    const truth = LATENCY_METRICS.map(
      (m) => percentileOf(truthReal, m.percentile) - percentileOf(truthSim, m.percentile),
    );
    const covered = LATENCY_METRICS.map(() => 0);
    const widths: number[][] = LATENCY_METRICS.map(() => []);
    const miss = LATENCY_METRICS.map(() => 0);
    for (let s = 1; s <= seeds; s++) {
      const p = point(pt.config, pt.load, s, calls);
      const d: PointDiffs = pairedDiffs(simCallTable(simulate(p, c)), simCallTable(simulate(p, null)), null);
      LATENCY_METRICS.forEach((m, k) => {
        const iv = d[m.name]!;
        if (iv.low <= truth[k] + 1e-9 && truth[k] <= iv.high + 1e-9) covered[k]++;
        else miss[k] = Math.max(miss[k], iv.low - truth[k], truth[k] - iv.high);
        widths[k].push(iv.high - iv.low);
      });
    }
    const secs = ((performance.now() - t0) / 1000).toFixed(0);
    LATENCY_METRICS.forEach((m, k) => {
      // A constant shift is exact by construction: no sampling error to cover, so it is not counted.
      if (c.name.startsWith('constant') === false) {
        all += seeds;
        allIn += covered[k];
      }
      console.log(
        `${c.name} | ${pt.config} ${pt.load} | ${m.name} | ${truth[k].toFixed(3)} ms | ${covered[k]}/${seeds} (${((100 * covered[k]) / seeds).toFixed(1)} %) | ${median(widths[k]).toFixed(3)} ms | ${miss[k].toFixed(3)} ms${k === 2 ? ` (${secs} s)` : ''}`,
      );
    });
  }
}
console.log(
  `overall (every case but the constant shift): ${allIn}/${all} (${((100 * allIn) / all).toFixed(1)} %)`,
);
