// The gRPC target against the HTTP one on the real clock: runs a load-0.95 matrix over both transports
// (no hedge, hedgebench's default-budget hedge, grpc-js's own hedging; both cancellation modes) R times as
// `hedgebench run` does, on this machine, and prints per point and transport what the harness added —
// hold overshoot p99 and response delay p99 (the target's own histograms), transit p99 and send-lag p99
// (from the raw files) — and how many metrics agree with the simulation, per transport. Issue goal: the
// gRPC figures no worse than HTTP/1.1's, and library-over-gRPC agreeing at least as well. Measure with
// nothing else running.
//
//   npx tsx bench/grpc.ts [--reps 3] [--calls 20000] [--load 0.95] [--keep]
//
// Runs the built CLI (dist/; `npm run build` first) in a child process, exactly as a user would.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { analyzeRun, formatSummaryLine } from '../analysis/index.ts';
import { percentileOf } from '../contract/index.ts';

const { values: args } = parseArgs({
  options: {
    reps: { type: 'string', default: '3' },
    calls: { type: 'string', default: '20000' },
    load: { type: 'string', default: '0.95' },
    keep: { type: 'boolean', default: false },
  },
});
const repo = join(import.meta.dirname, '..');
const cli = join(repo, 'dist', 'hedgebench.mjs');
const reps = Number(args.reps);
const base = mkdtempSync(join(tmpdir(), 'hb-grpc-bench-'));
const f = (x: number | null | undefined, d = 2) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d);

const matrixFile = join(base, 'grpc-bench.json');
writeFileSync(
  matrixFile,
  JSON.stringify({
    name: 'grpc-bench',
    configs: [
      'no hedge',
      'hedge, default budget',
      { name: 'grpc-js hedge', grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } },
    ],
    transport: ['http1', 'grpc'],
    loads: [Number(args.load)],
    cancellation: ['ignore', 'propagate'],
    seeds: [1],
    calls: Number(args.calls),
  }),
);

console.log(
  `# bench/grpc.ts — load ${args.load}, ${args.calls} calls, ${reps} runs, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${new Date().toISOString()}`,
);
const agreeBy: Record<string, { judged: number; agrees: number }> = {};
for (let r = 1; r <= reps; r++) {
  const out = join(base, `run-${r}`);
  const t0 = Date.now();
  const res = await execa('node', [cli, 'run', '--matrix', matrixFile, '--out', out], {
    reject: false,
    cwd: repo,
  });
  const a = analyzeRun(out);
  console.log(
    `\n## run ${r}: exit ${res.exitCode}, ${((Date.now() - t0) / 1000).toFixed(0)} s — ${formatSummaryLine(a.summary)}`,
  );
  console.log(
    'point | transport | overshoot p99 | response delay p99 | transit p99 | send lag p99 | real p99 / sim p99 | valid',
  );
  for (const p of a.points) {
    const status = JSON.parse(readFileSync(join(out, 'raw', `${p.entry.slug}.status.json`), 'utf8'));
    const tc = status.target_check ?? {};
    const at = p.attribution;
    const transport = p.entry.dims?.transport ?? 'http1';
    const collapsed = p.real?.collapsed || p.sim?.collapsed;
    if (!collapsed) {
      agreeBy[transport] ??= { judged: 0, agrees: 0 };
      const c = agreeBy[transport];
      for (const row of p.rows) {
        c.judged++;
        if (row.verdict === 'agrees') c.agrees++;
      }
    }
    console.log(
      [
        p.key,
        transport,
        f(tc.holdErrorMs?.p99),
        f(tc.responseDelayMs?.p99),
        f(at && at.n > 0 ? percentileOf(at.transit, 99) : Number.NaN),
        f(p.real?.send_lag_p99_ms),
        `${p.real?.collapsed ? 'collapse' : f(p.real?.p99_ms, 1)} / ${p.sim?.collapsed ? 'collapse' : f(p.sim?.p99_ms, 1)}`,
        p.real?.valid ? 'yes' : 'no',
      ].join(' | '),
    );
  }
}
console.log('\n## metrics that agree with the simulation, non-collapsed points, all runs');
for (const [t, c] of Object.entries(agreeBy)) {
  console.log(`${t}: ${c.agrees} of ${c.judged} (${f((100 * c.agrees) / Math.max(1, c.judged), 0)} %)`);
}
if (!args.keep) rmSync(base, { recursive: true, force: true });
else console.log(`\nrun folders kept in ${base}`);
