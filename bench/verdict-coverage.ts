// Benchmark: does the verdict's paired interval (analysis/judge/paired-comparison.ts) cover the true
// difference between a measurement and the model, as often as it says (95 %)? The simulator stands in for
// both sides. "real" is the simulation of the same calls made wrong by a known amount — every call shifted by
// a constant δ (the interval must then be δ exactly), a per-call jitter of mean δ (a harness residue the
// attribution left), the body of the service 3 % slower, the stragglers 10 % slower — and "sim" the model.
// What the interval estimates is the difference a run of this many calls shows on average: near saturation
// a finite run never reaches the long-run queue, so the truth is the mean difference over --truth-seeds
// other seeds of the same size, not a long run's. Each of --seeds seeds of the quick preset's size (--calls,
// 10 % warm-up) gives one interval; an interval counts as covering when it reaches the truth within the
// rounding comparison.csv writes (0.001 ms). Prints, per case, point and metric: the truth, how often the
// interval covered it, its median width against 3.92 × the seeds' standard deviation of the estimate (what a
// 95 % interval of a normal estimate spans), and the farthest a missed interval lay from the truth. CPU only.
//
//   npx tsx bench/verdict-coverage.ts [--seeds 400] [--truth-seeds 400] [--calls 4200] [--quick]

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
    'truth-seeds': { type: 'string', default: '400' },
    quick: { type: 'boolean', default: false },
  },
});
const seeds = values.quick ? 40 : Number(values.seeds);
const calls = Number(values.calls);
const truthSeeds = values.quick ? 40 : Number(values['truth-seeds']);
/** Written with 3 decimals: an interval that misses by less than half of the last one covers. */
const ROUNDING = 0.0005;

/** How "real" differs from "sim": a perturbation of the service, or a shift of every measured latency. */
interface Case {
  name: string;
  perturb?: Perturbation;
  /** Added to call i's latency (ms), from a generator keyed by (seed, call). */
  shift?: (seed: number, call: number) => number;
}
const JITTER_SEED = 0x1717;
const jitter = (mean: number, half: number): Case => ({
  name: `shift per call, mean +${mean} ms ± ${half} ms`,
  shift: (seed, call) => mean + half * (2 * uniformOpen(JITTER_SEED, seed, call, 0) - 1),
});
const CASES: Case[] = [
  { name: 'constant shift +0.1 ms', shift: () => 0.1 },
  jitter(0.05, 0.1),
  jitter(0.2, 0.1),
  jitter(0.5, 0.5),
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
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1));
};
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

console.log(
  `# bench/verdict-coverage.ts — node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, ${seeds} seeds × ${calls} calls, truth = the mean over ${truthSeeds} other seeds`,
);
console.log('case | point | metric | true D | covered | median width / 3.92 sd | farthest miss');
let all = 0;
let allIn = 0;
let shiftAll = 0;
let shiftIn = 0;
for (const c of CASES) {
  for (const pt of POINTS) {
    const t0 = performance.now();
    const estimate = (seed: number) => {
      const p = point(pt.config, pt.load, seed, calls);
      const r = okLatencies(simCallTable(simulate(p, c)));
      const q = okLatencies(simCallTable(simulate(p, null)));
      return LATENCY_METRICS.map((m) => percentileOf(r, m.percentile) - percentileOf(q, m.percentile));
    };
    const truth = LATENCY_METRICS.map(() => 0);
    for (let s = 0; s < truthSeeds; s++) {
      const e = estimate(100_000 + s);
      LATENCY_METRICS.forEach((_, k) => {
        truth[k] += e[k] / truthSeeds;
      });
    }
    const covered = LATENCY_METRICS.map(() => 0);
    const widths: number[][] = LATENCY_METRICS.map(() => []);
    const miss = LATENCY_METRICS.map(() => 0);
    const estimates: number[][] = LATENCY_METRICS.map(() => []);
    for (let s = 1; s <= seeds; s++) {
      const p = point(pt.config, pt.load, s, calls);
      const d: PointDiffs = pairedDiffs(simCallTable(simulate(p, c)), simCallTable(simulate(p, null)), null);
      LATENCY_METRICS.forEach((m, k) => {
        const iv = d[m.name]!;
        if (iv.low - ROUNDING <= truth[k] && truth[k] <= iv.high + ROUNDING) covered[k]++;
        else miss[k] = Math.max(miss[k], iv.low - truth[k], truth[k] - iv.high);
        widths[k].push(iv.high - iv.low);
        estimates[k].push(iv.estimate);
      });
    }
    const secs = ((performance.now() - t0) / 1000).toFixed(0);
    LATENCY_METRICS.forEach((m, k) => {
      // A constant shift is exact by construction: no sampling error to cover, so it is not counted.
      if (c.name.startsWith('constant') === false) {
        all += seeds;
        allIn += covered[k];
        if (c.shift !== undefined) {
          shiftAll += seeds;
          shiftIn += covered[k];
        }
      }
      console.log(
        `${c.name} | ${pt.config} ${pt.load} | ${m.name} | ${truth[k].toFixed(3)} ms | ${covered[k]}/${seeds} (${((100 * covered[k]) / seeds).toFixed(1)} %) | ${median(widths[k]).toFixed(3)} / ${(3.92 * sd(estimates[k])).toFixed(3)} ms | ${miss[k].toFixed(3)} ms${k === 2 ? ` (${secs} s)` : ''}`,
      );
    });
  }
}
console.log(
  `overall, the latency shifted per call (the harness's residue): ${shiftIn}/${shiftAll} (${((100 * shiftIn) / Math.max(1, shiftAll)).toFixed(1)} %); the service changed (a wrong model): ${allIn - shiftIn}/${all - shiftAll} (${((100 * (allIn - shiftIn)) / Math.max(1, all - shiftAll)).toFixed(1)} %)`,
);
