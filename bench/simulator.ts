// Benchmark: the whole reference matrix (60 points × 200 000 calls, one seed) over worker threads.
// Prints wall time, simulated calls per second per core, CPU time, peak RSS, Node version and machine.
// With `--records both` the runs alternate without and with per-call records (what the verdict pairs with the
// real calls), so the two are measured in the same process on the same machine state.
// Run: npx tsx bench/simulator.ts [--threads 2] [--calls 200000] [--seed 1] [--repeat 1] [--records off|on|both]

import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { expandMatrix } from '../model/index.ts';
import { packageRoot, readMatrixFile, runPoints } from '../simulator/index.ts';

const { values } = parseArgs({
  options: {
    threads: { type: 'string', default: '2' },
    calls: { type: 'string', default: '200000' },
    seed: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '1' },
    records: { type: 'string', default: 'off' },
  },
});
const threads = Number(values.threads);
const root = packageRoot();
// The worker threads run the bundle: build it so the figures are for the current source.
const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (b.status !== 0) throw new Error('npm run build failed');

const matrix = readMatrixFile(`${root}/experiments/reference.json`, {
  calls: Number(values.calls),
  seeds: [Number(values.seed)],
});
const points = expandMatrix(matrix);
const totalCalls = points.reduce((s, p) => s + p.calls, 0);
console.log(
  `node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(`${points.length} points × ${values.calls} calls = ${totalCalls} calls, ${threads} threads`);

const modes = values.records === 'both' ? [false, true] : [values.records === 'on'];
const walls: number[] = [];
const cpuByMode = new Map<boolean, number[]>();
for (let r = 0; r < Number(values.repeat) * modes.length; r++) {
  const callRecords = modes[r % modes.length];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // Records go back to this thread; drop each as it arrives, as the analysis does once a point is judged.
  const results = await runPoints(points, {
    threads,
    callRecords,
    onPoint: (x) => {
      x.calls = undefined;
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  walls.push(wall);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  cpuByMode.set(callRecords, [...(cpuByMode.get(callRecords) ?? []), cpuS]);
  const collapsed = results.filter((x) => x.collapse.collapsed).length;
  const truncated = results.filter((x) => x.truncated).length;
  const simulated = results.reduce((s, x) => s + x.arrived, 0);
  console.log(
    `run ${r + 1}${values.records === 'both' ? (callRecords ? ' (records on)' : ' (records off)') : ''}: wall ${wall.toFixed(2)} s, cpu ${cpuS.toFixed(2)} s (${(cpuS / wall).toFixed(2)} cores busy), ` +
      `${Math.round(simulated / wall / threads).toLocaleString('en-US')} calls/s per core (wall), ` +
      `${Math.round(simulated / cpuS).toLocaleString('en-US')} calls/s per cpu-second; ` +
      `${collapsed} collapsed (${truncated} truncated by the memory guard)`,
  );
}
const rss = process.resourceUsage().maxRSS / 1024;
const sorted = [...walls].sort((x, y) => x - y);
console.log(
  `wall: min ${sorted[0].toFixed(2)} s, median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} s over ${walls.length} run(s); peak RSS ${rss.toFixed(0)} MiB`,
);
if (modes.length === 2) {
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const off = med(cpuByMode.get(false)!);
  const on = med(cpuByMode.get(true)!);
  console.log(
    `per-call records: median cpu ${on.toFixed(2)} s on against ${off.toFixed(2)} s off (${(((on - off) / off) * 100).toFixed(1)} %)`,
  );
}
