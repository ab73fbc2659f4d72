// Benchmark of the analysis: how long `compare` and `report` take on a run of reference-sized points
// (200 000 calls each, synthetic raw files). Run: npx tsx bench/analysis.ts [--points 4] [--calls 200000]

import { rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { compareRunFolder, percentileRanks, writeReport } from '../analysis/index.ts';
import { type FixturePoint, slugOf, writeFixtureRun } from '../test/analysis/fixture.ts';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

const nPoints = arg('points', 4);
const calls = arg('calls', 200_000);
const runs = arg('runs', 3);

const points: FixturePoint[] = [{ config: 'no hedge', load: 0.1, calls: 1000, calibration: true }];
const loads = [0.3, 0.5, 0.7, 0.85, 0.95];
for (let i = 0; i < nPoints; i++) {
  points.push({
    config: i % 2 === 0 ? 'no hedge' : 'hedge, default budget',
    load: loads[Math.floor(i / 2) % loads.length],
    calls,
  });
}

const t0 = performance.now();
const dir = writeFixtureRun(points, 'bench');
const writeS = (performance.now() - t0) / 1000;
const rawMiB =
  points.reduce(
    (s, p) =>
      s +
      statSync(join(dir, 'raw', `${slugOf(p)}.calls.csv`)).size +
      statSync(join(dir, 'raw', `${slugOf(p)}.attempts.csv`)).size,
    0,
  ) /
  2 ** 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const compareS: number[] = [];
const reportS: number[] = [];
for (let r = 0; r < runs; r++) {
  let t = performance.now();
  compareRunFolder(dir);
  compareS.push((performance.now() - t) / 1000);
  t = performance.now();
  await writeReport(dir);
  reportS.push((performance.now() - t) / 1000);
}
let t = performance.now();
for (let k = 0; k < 1000; k++) percentileRanks(180_000, 99.9);
const ranksUs = ((performance.now() - t) / 1000) * 1000;
t = performance.now();
for (let k = 0; k < 100; k++) percentileRanks(180_000, 50);
const ranks50Us = ((performance.now() - t) / 100) * 1000;

console.log(
  `Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, load average ${loadavg()[0].toFixed(1)}`,
);
console.log(
  `${nPoints} points × ${calls} calls + calibration point; raw files ${rawMiB.toFixed(0)} MiB (written in ${writeS.toFixed(1)} s)`,
);
console.log(
  `compare (analyse + comparison.csv): median ${median(compareS).toFixed(2)} s over ${runs} runs [${compareS.map((x) => x.toFixed(2)).join(', ')}]`,
);
console.log(
  `report (compare + charts + md/html): median ${median(reportS).toFixed(2)} s over ${runs} runs [${reportS.map((x) => x.toFixed(2)).join(', ')}]`,
);
console.log(`per point (compare): ${((median(compareS) / nPoints) * 1000).toFixed(0)} ms`);
console.log(`percentileRanks(180 000, p99.9): ${ranksUs.toFixed(0)} µs; p50: ${ranks50Us.toFixed(0)} µs`);
rmSync(dir, { recursive: true, force: true });
