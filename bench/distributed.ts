// The distributed mode's costs: per-point overhead of the SSH path against the local path (from run.log's
// phase timings), and what the lab's veth bridge adds to the calibration point's latency against loopback.
// Run as root: npx tsx bench/distributed.ts [--reps 2] [--calls 1000] [--cal-calls 1000]
// Brings up its own lab (HB_LAB_ID=31, .lab/bench-31) and takes it down; runs `hedgebench run` (dist/) as a
// child process, alternating local and lab runs so that a noisy neighbour hits both alike.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { type Manifest, parsePointsCsv } from '../contract/index.ts';
import { parseMatrix } from '../model/index.ts';
import { planPoints } from '../orchestrator/index.ts';

const { values: args } = parseArgs({
  options: {
    reps: { type: 'string', default: '2' },
    calls: { type: 'string', default: '1000' },
    'cal-calls': { type: 'string', default: '1000' },
  },
});
const REPS = Number(args.reps);
const ID = '31';
const repo = join(import.meta.dirname, '..');
const labDir = join(repo, '.lab', `bench-${ID}`);
const cli = join(repo, 'dist', 'hedgebench.mjs');
const lab = (cmd: string) => execa(join(repo, 'scripts/lab.sh'), [cmd, labDir], { env: { HB_LAB_ID: ID } });

type Mode = 'local' | 'lab';

/** What one run cost and measured. */
interface RunFigures {
  mode: Mode;
  rep: number;
  wallS: number;
  /** run-start → agents-started: hosts, Node check, deploy, simulation, Redis and target start. */
  setupMs: number;
  /** Last point done → run-end: agents stopped, hosts closed. */
  teardownMs: number;
  /** Per measured point: wall − schedule, and each phase (measure − schedule = generator start + tail). */
  points: Array<{ overheadMs: number; phases: Record<string, number> }>;
  cal: { p50: number; p99: number; netP50: number; netP99: number; n: number };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per call of the calibration point: latency − send lag − (server end − enqueue) = network + HTTP + client. */
function clientSideMs(runDir: string, slug: string): number[] {
  const rows = (f: string) =>
    readFileSync(join(runDir, 'raw', `${slug}.${f}.csv`), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
  const server = new Map<number, number>();
  for (const [call, attempt, enqueue, , end] of rows('attempts')) {
    if (attempt === '1') server.set(Number(call), Number(end) - Number(enqueue));
  }
  const out: number[] = [];
  for (const [call, , sendLag, latency, outcome, attempts] of rows('calls')) {
    const s = server.get(Number(call));
    if (outcome === 'ok' && attempts === '1' && s !== undefined)
      out.push(Number(latency) - Number(sendLag) - s);
  }
  return out;
}

function figures(mode: Mode, rep: number, runDir: string, wallS: number): RunFigures {
  const events = readFileSync(join(runDir, 'run.log'), 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) => JSON.parse(l) as { t: string; event: string; key?: string; phasesMs?: Record<string, number> },
    );
  const at = (e: { t: string }) => Date.parse(e.t);
  const first = (name: string) => events.find((e) => e.event === name)!;
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  const plan = planPoints(parseMatrix(manifest.matrix));
  const points: RunFigures['points'] = [];
  for (const pp of plan) {
    const start = events.find((e) => e.event === 'point-start' && e.key === pp.key)!;
    const done = events.find((e) => e.event === 'point-done' && e.key === pp.key);
    if (!done) throw new Error(`${runDir}: point ${pp.key} did not finish`);
    const phases = { ...done.phasesMs! };
    phases.measure -= pp.expectedMs;
    points.push({ overheadMs: at(done) - at(start) - pp.expectedMs, phases });
  }
  const lastDone = events.filter((e) => e.event === 'point-done').at(-1)!;
  const cal = plan.find((p) => p.calibration)!;
  const real = parsePointsCsv(readFileSync(join(runDir, 'points.csv'), 'utf8')).find(
    (r) => r.source === 'real' && r.config === cal.point.config.name && r.load === cal.point.load,
  )!;
  const net = clientSideMs(runDir, cal.slug);
  return {
    mode,
    rep,
    wallS,
    setupMs: at(first('agents-started')) - at(first('run-start')),
    teardownMs: at(first('run-end')) - at(lastDone),
    points,
    cal: {
      p50: real.p50_ms!,
      p99: real.p99_ms!,
      netP50: quantile(net, 0.5),
      netP99: quantile(net, 0.99),
      n: net.length,
    },
  };
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error('dist/hedgebench.mjs is missing: run `npm run build` first');
  const work = mkdtempSync(join(tmpdir(), 'hb-bench-dist-'));
  const matrixFile = join(work, 'matrix.json');
  writeFileSync(
    matrixFile,
    JSON.stringify({
      name: 'bench-distributed',
      configs: ['no hedge', 'hedge, default budget'],
      loads: [0.5],
      cancellation: ['ignore'],
      seeds: [1],
      calls: Number(args.calls),
      calibration: { load: 0.1, calls: Number(args['cal-calls']) },
    }),
  );
  const results: RunFigures[] = [];
  await lab('up');
  try {
    for (let rep = 1; rep <= REPS; rep++) {
      const order: Mode[] = rep % 2 === 1 ? ['lab', 'local'] : ['local', 'lab'];
      for (const mode of order) {
        const out = join(work, `${mode}-${rep}`);
        const hosts = mode === 'lab' ? ['--hosts', join(labDir, 'hosts.json')] : [];
        const t0 = Date.now();
        const r = await execa(
          process.execPath,
          [cli, 'run', '--matrix', matrixFile, '--out', out, ...hosts],
          {
            reject: false,
            all: true,
            cwd: work,
          },
        );
        const wallS = (Date.now() - t0) / 1000;
        if (r.exitCode !== 0) throw new Error(`${mode} run ${rep} exited ${r.exitCode}:\n${r.all}`);
        const f = figures(mode, rep, out, wallS);
        results.push(f);
        console.log(
          `${mode.padEnd(5)} rep ${rep}: wall ${wallS.toFixed(1)} s, setup ${f.setupMs} ms, teardown ${f.teardownMs} ms, per-point overhead ${f.points.map((p) => p.overheadMs.toFixed(0)).join('/')} ms, calibration p50 ${f.cal.p50.toFixed(2)} p99 ${f.cal.p99.toFixed(1)} ms, client side p50 ${f.cal.netP50.toFixed(3)} p99 ${f.cal.netP99.toFixed(3)} ms (n ${f.cal.n})`,
        );
      }
    }
  } finally {
    await lab('down');
    rmSync(work, { recursive: true, force: true });
  }
  report(results);
}

function report(results: RunFigures[]): void {
  console.log(`\nmedians over ${REPS} runs per mode (per-point figures over every point of those runs):\n`);
  console.log('| figure | local (loopback) | lab (SSH, veth) | lab − local |');
  console.log('| --- | --- | --- | --- |');
  const by = (m: Mode) => results.filter((r) => r.mode === m);
  const row = (name: string, get: (rs: RunFigures[]) => number[], unit: string, digits = 0) => {
    const a = median(get(by('local')));
    const b = median(get(by('lab')));
    console.log(
      `| ${name} | ${a.toFixed(digits)} ${unit} | ${b.toFixed(digits)} ${unit} | ${(b - a).toFixed(digits)} ${unit} |`,
    );
  };
  row('run setup (hosts, deploy, simulate, Redis, target)', (rs) => rs.map((r) => r.setupMs), 'ms');
  row('run teardown (stop agents, close hosts)', (rs) => rs.map((r) => r.teardownMs), 'ms');
  row(
    'per-point overhead (wall − schedule)',
    (rs) => rs.flatMap((r) => r.points.map((p) => p.overheadMs)),
    'ms',
  );
  for (const ph of ['prepare', 'measure', 'loadgenExit', 'targetFlush', 'drain']) {
    row(
      ph === 'measure' ? '· measure − schedule (generator start + tail)' : `· ${ph}`,
      (rs) => rs.flatMap((r) => r.points.map((p) => p.phases[ph] ?? 0)),
      'ms',
    );
  }
  row('calibration real p50', (rs) => rs.map((r) => r.cal.p50), 'ms', 2);
  row('calibration real p99', (rs) => rs.map((r) => r.cal.p99), 'ms', 1);
  row('calibration client side p50 (network + HTTP)', (rs) => rs.map((r) => r.cal.netP50), 'ms', 3);
  row('calibration client side p99', (rs) => rs.map((r) => r.cal.netP99), 'ms', 3);
  row('whole run, wall', (rs) => rs.map((r) => r.wallS), 's', 1);
}

await main();
