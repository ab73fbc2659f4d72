// Benchmark: the simulator's cost of replicas — the reference matrix (one seed) with R = 1 and with R = 4
// random-balanced replicas (same per-replica load), in this thread, alternating, CPU time per pass.
// The goal (issue 14): R = 4 within 1.5× of R = 1. Prints Node version, machine and load average.
// Run: npx tsx bench/replicas.ts [--calls 20000] [--repeat 3] [--balancer random]

import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { expandMatrix, type Matrix, parseMatrix } from '../model/index.ts';
import { packageRoot, readMatrixFile, runPoints } from '../simulator/index.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    repeat: { type: 'string', default: '3' },
    balancer: { type: 'string', default: 'random' },
  },
});
const root = packageRoot();
const base = readMatrixFile(`${root}/experiments/reference.json`, {
  calls: Number(values.calls),
  seeds: [1],
});
const withReplicas = (m: Matrix, replicas: number): Matrix =>
  parseMatrix(
    { ...m, replicas: [replicas], balancer: [values.balancer] },
    `reference with ${replicas} replicas`,
  );
const matrices = [
  { label: 'R = 1', points: expandMatrix(base) },
  { label: 'R = 4', points: expandMatrix(withReplicas(base, 4)) },
];
console.log(
  `node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(
  `${matrices[0].points.length} points × ${values.calls} calls each, balancer ${values.balancer}, in this thread`,
);

const cpu: Record<string, number[]> = { 'R = 1': [], 'R = 4': [] };
const wall: Record<string, number[]> = { 'R = 1': [], 'R = 4': [] };
for (let r = 0; r < Number(values.repeat); r++) {
  // Alternate the order, so a burst of load from elsewhere does not land on one side only.
  for (const m of r % 2 === 0 ? matrices : [...matrices].reverse()) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const results = await runPoints(m.points, { threads: 0 });
    const w = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const cpuS = (c.user + c.system) / 1e6;
    cpu[m.label].push(cpuS);
    wall[m.label].push(w);
    const collapsed = results.filter((x) => x.collapse.collapsed).length;
    console.log(`${m.label}: cpu ${cpuS.toFixed(2)} s, wall ${w.toFixed(2)} s, ${collapsed} collapsed`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const c1 = median(cpu['R = 1']);
const c4 = median(cpu['R = 4']);
console.log(
  `median cpu: R = 1 ${c1.toFixed(2)} s, R = 4 ${c4.toFixed(2)} s, ratio ${(c4 / c1).toFixed(2)} (goal ≤ 1.5); ` +
    `median wall ratio ${(median(wall['R = 4']) / median(wall['R = 1'])).toFixed(2)}; load average now ${loadavg()[0].toFixed(1)}`,
);
