// Fidelity on the real clock: runs a matrix (default: the quick preset) R times as `hedgebench run` does, on
// this machine, and prints per point what the harness added — hold overshoot p99 and response delay p99 (the target's own
// histograms), transit p99 and send-lag p99 (from the raw files), whether the point is valid and why not —
// then per run the verdicts of the non-collapsed points, and the same "post hoc": every point judged as if it
// had passed its self-check, which says what the harness's delays did to the verdict itself (the fidelity
// curve's measure). Issue goals: no point invalid, every metric of the non-collapsed points `agrees`
// (none undecided). Measure with nothing else running.
//
//   npx tsx bench/fidelity.ts [--reps 3] [--matrix experiments/quick.json] [--calls N] [--seed S] [--time-scale K]
//                             [--lanes N] [--hosts hosts.json] [--keep]
//
// Latencies are in model ms (a dilated run's wall-clock ms ÷ k, docs/time-scale.md); "cores" is the whole
// machine's busy CPU over the run's wall time (/proc/stat), which is what lanes compete for.
// Runs the built CLI (dist/; `npm run build` first) in a child process, exactly as a user would.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { analyzeRun, comparePoint, everyPoint, formatSummaryLine } from '../analysis/index.ts';
import { percentileOf } from '../contract/index.ts';
import { timeScaleOf } from '../model/index.ts';
import { startCpuMeter } from '../runtime/index.ts';

const { values: args } = parseArgs({
  options: {
    reps: { type: 'string', default: '3' },
    matrix: { type: 'string', default: 'experiments/quick.json' },
    calls: { type: 'string' },
    seed: { type: 'string' },
    'time-scale': { type: 'string' },
    lanes: { type: 'string' },
    hosts: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const repo = join(import.meta.dirname, '..');
const cli = join(repo, 'dist', 'hedgebench.mjs');
const reps = Number(args.reps);
const base = mkdtempSync(join(tmpdir(), 'hb-fidelity-'));
const totals: string[] = [];
const f = (x: number | null | undefined, d = 2) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d);

console.log(
  `# bench/fidelity.ts — ${args.matrix}, ${reps} runs, node ${process.version}, ${new Date().toISOString()}`,
);
for (let r = 1; r <= reps; r++) {
  const out = join(base, `run-${r}`);
  const extra = [
    ...(args.calls ? ['--calls', args.calls] : []),
    ...(args.seed ? ['--seed', args.seed] : []),
    ...(args['time-scale'] ? ['--time-scale', args['time-scale']] : []),
    ...(args.lanes ? ['--lanes', args.lanes] : []),
    ...(args.hosts ? ['--hosts', resolve(args.hosts)] : []),
  ];
  const cpu = startCpuMeter();
  const t0 = Date.now();
  const res = await execa(
    'node',
    [cli, 'run', '--matrix', resolve(repo, args.matrix), '--out', out, ...extra],
    {
      reject: false,
      cwd: repo,
    },
  );
  const wall = (Date.now() - t0) / 1000;
  const cores = cpu.read()?.busyCores ?? Number.NaN;
  const a = analyzeRun(out);
  console.log(
    `\n## run ${r}: exit ${res.exitCode}, ${wall.toFixed(0)} s, ${cores.toFixed(2)} cores — ${formatSummaryLine(a.summary)}`,
  );
  console.log(
    'point | hold overshoot p99 | response delay p99 | event-loop delay p99 | transit p99 | send lag p99 | real p99 / sim p99 | valid | reasons',
  );
  let judged = 0;
  let agrees = 0;
  const postHoc = { agrees: 0, undecided: 0, diverges: 0, other: 0 };
  for (const p of everyPoint(a)) {
    const status = JSON.parse(readFileSync(join(out, 'raw', `${p.entry.slug}.status.json`), 'utf8'));
    const tc = status.target_check ?? {};
    // raw/ keeps the target's figures in wall-clock ms; the table speaks model ms, as the analysis does.
    const k = timeScaleOf(p.entry);
    const model = (v: number | undefined) => (v === undefined ? v : v / k);
    const at = p.attribution;
    const transit = at && at.n > 0 ? percentileOf(at.transit, 99) : Number.NaN;
    const collapsed = p.real?.collapsed || p.sim?.collapsed;
    if (!collapsed && p.entry.calibration !== true) {
      for (const row of p.rows) {
        judged++;
        if (row.verdict === 'agrees') agrees++;
      }
      const asValid =
        p.real && !p.real.valid
          ? comparePoint({ ...p, real: { ...p.real, valid: true } }, a.margins)
          : p.rows;
      for (const row of asValid) {
        const v = row.verdict;
        if (v === 'agrees' || v === 'undecided' || v === 'diverges') postHoc[v]++;
        else postHoc.other++;
      }
    }
    console.log(
      [
        p.key,
        f(model(tc.holdErrorMs?.p99)),
        f(model(tc.responseDelayMs?.p99)),
        f(model(tc.eventLoopDelayMs?.p99)),
        f(transit),
        f(p.real?.send_lag_p99_ms),
        `${p.real?.collapsed ? 'collapse' : f(p.real?.p99_ms, 1)} / ${p.sim?.collapsed ? 'collapse' : f(p.sim?.p99_ms, 1)}`,
        p.real?.valid ? 'yes' : 'no',
        p.invalidReasons.join('; ').slice(0, 160),
      ].join(' | '),
    );
  }
  const invalid = a.points.filter((p) => p.real && !p.real.valid).length;
  const ph = `post hoc ${postHoc.agrees} agree, ${postHoc.undecided} undecided, ${postHoc.diverges} diverge${postHoc.other > 0 ? `, ${postHoc.other} other` : ''}`;
  const line = `run ${r}: ${agrees} of ${judged} metrics of non-collapsed points agree (${f((100 * agrees) / Math.max(1, judged), 0)} %; ${ph}), ${invalid} of ${a.points.length} points invalid, ${wall.toFixed(0)} s, ${cores.toFixed(2)} cores`;
  console.log(line);
  totals.push(line);
}
const flags = [
  args['time-scale'] && `--time-scale ${args['time-scale']}`,
  args.lanes && `--lanes ${args.lanes}`,
  args.hosts && `--hosts ${args.hosts}`,
]
  .filter(Boolean)
  .join(' ');
console.log(`\n## summary (${args.matrix}${flags ? ` ${flags}` : ''})\n${totals.join('\n')}`);
if (!args.keep) rmSync(base, { recursive: true, force: true });
else console.log(`\nrun folders kept in ${base}`);
