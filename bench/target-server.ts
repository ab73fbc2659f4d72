// Benchmark: how precisely the target server holds workers, and what it costs.
//  A. In-process timer lateness (fired − deadline) at 1 000 timers/s: SystemClock with its thread waker,
//     with setImmediate polling (lead 2 ms), with plain setTimeout + never-early check (poll lead 0), and
//     bare setTimeout; delays = the model's service times, and 100–300 ms (~200 outstanding).
//  B. The server as a child process under open-loop Poisson load (undici, loopback): hold-time error
//     (actual − intended, from GET /stats) and server CPU, at 1 000 attempts/s and at the reference
//     study's 95 % load (λ = 0.95·16/E[S] ≈ 1 080/s), for each waker and each pool mode (`--pools`: 'thread'
//     holds workers in the pool thread, 'loop' on the server's event loop), optionally with the server's
//     main event loop stalled on purpose (`--stall 5/50` = busy 5 ms every 50 ms) to show what a stall does.
// Run: npx tsx bench/target-server.ts [--seconds 8] [--skip-clock] [--wakers thread,thread0.5,poll2,poll0]
//      [--pools thread,loop] [--rates 1000,rho95] [--stall 5/50] [--pool-priority rt|normal] [--nice=-10]
// The machine has 2 shared cores: the load generator, the server and the kernel compete; figures are noisy.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { ArrivalSchedule, DEFAULT_MODEL, meanServiceMs, serviceTimeMs } from '../model/index.ts';
import { SystemClock, type SystemClockOptions } from '../runtime/index.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    'skip-clock': { type: 'boolean', default: false },
    wakers: { type: 'string', default: 'thread,thread0.5,poll2,poll0' },
    pools: { type: 'string', default: 'thread' },
    // '1000' and/or 'rho95' (the reference study's 95 % load).
    rates: { type: 'string', default: '1000,rho95' },
    // 'MS/EVERY': busy-loop the server's main thread MS ms every EVERY ms (none by default).
    stall: { type: 'string' },
    'pool-priority': { type: 'string', default: 'rt' },
    // e.g. --nice=-10 (root): run the bench and the server ahead of other work on a shared machine, to
    // approximate the quiet host a real run would have. Applies to this process and the server.
    nice: { type: 'string' },
  },
});
const NICE = values.nice === undefined ? null : Number(values.nice);
if (NICE !== null) setPriority(0, NICE);
const WAKERS = values.wakers.split(',');
// 'thread' | 'thread0.5' (thread waker, poll the last 0.5 ms) | 'poll2' | 'poll0'.
const clockOpts = (w: string): SystemClockOptions =>
  w.startsWith('thread')
    ? { waker: 'thread', leadMs: Number(w.slice(6) || 0) }
    : { waker: 'poll', leadMs: Number(w.slice(4)) };
const SECONDS = Number(values.seconds);
const POOLS = values.pools.split(',');
const STALL = values.stall === undefined ? null : values.stall.split('/').map(Number);
if (STALL !== null && (STALL.length !== 2 || !STALL.every((x) => Number.isFinite(x) && x > 0))) {
  throw new Error(`--stall must be MS/EVERY (e.g. 5/50), got ${values.stall}`);
}

const q = (xs: number[], p: number): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const f = (x: number | null | undefined, d = 3): string =>
  x === null || x === undefined ? '–' : x.toFixed(d);

console.log(
  `node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}, ${cpuPressure()}${NICE === null ? '' : `, nice ${NICE}`}`,
);

// Linux PSI: the share of time some runnable task waited for a CPU — the context every tail figure needs.
function cpuPressure(): string {
  try {
    const m = /some avg10=([\d.]+) avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? `CPU pressure (PSI some) avg10 ${m[1]}% avg60 ${m[2]}%` : 'CPU pressure n/a';
  } catch {
    return 'CPU pressure n/a';
  }
}

// ---- A. timer lateness in-process -------------------------------------------------------------
type Arm = (cb: () => void, ms: number) => void;

async function timerRun(arm: Arm, now: () => number, delay: (i: number) => number, n: number) {
  const late: number[] = [];
  let early = 0;
  const schedule = new ArrivalSchedule(7, 1, n); // 1 per ms
  const t0 = performance.now() + 5;
  const cpu0 = process.cpuUsage();
  let i = 0;
  let outstanding = 0;
  let maxOutstanding = 0;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const t = performance.now();
      while (i < n && t0 + schedule.at(i) <= t) {
        const ms = delay(i);
        const deadline = now() + ms;
        outstanding++;
        maxOutstanding = Math.max(maxOutstanding, outstanding);
        arm(() => {
          const d = now() - deadline;
          if (d < 0) early++;
          late.push(d);
          outstanding--;
          if (late.length === n) resolve();
        }, ms);
        i++;
      }
      if (i < n) setTimeout(tick, Math.max(0, t0 + schedule.at(i) - performance.now()));
    };
    tick();
  });
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { late, early, maxOutstanding, cores: (cpu.user + cpu.system) / 1000 / wall };
}

if (!values['skip-clock']) {
  const n = Math.round(SECONDS * 1000 * 0.6);
  console.log(`\nA. timer lateness, ms (fired − deadline), ${n} timers at 1 000/s each`);
  console.log('| timers | delays | n | early | p50 | p99 | p99.9 | max | max outstanding | CPU cores |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const delays: [string, (i: number) => number][] = [
    ['model draws (~10 ms)', (i) => serviceTimeMs(DEFAULT_MODEL, 1, i, 1)],
    ['100–300 ms', (i) => 100 + ((i * 7919) % 200)],
  ];
  for (const [dname, delay] of delays) {
    const arms: [string, () => { arm: Arm; now: () => number; close(): Promise<void> }][] = [
      ...WAKERS.map(
        (w) => [`SystemClock ${w}`, () => sys(clockOpts(w))] as [string, () => ReturnType<typeof sys>],
      ),
      [
        'setTimeout',
        () => ({ arm: (cb, ms) => setTimeout(cb, ms), now: () => performance.now(), close: async () => {} }),
      ],
    ];
    for (const [name, make] of arms) {
      const { arm, now, close } = make();
      const r = await timerRun(arm, now, delay, n);
      await close();
      console.log(
        `| ${name} | ${dname} | ${r.late.length} | ${r.early} | ${f(q(r.late, 50))} | ${f(q(r.late, 99))} | ${f(q(r.late, 99.9))} | ${f(Math.max(...r.late))} | ${r.maxOutstanding} | ${f(r.cores, 2)} |`,
      );
    }
  }
}

function sys(o: SystemClockOptions): { arm: Arm; now: () => number; close(): Promise<void> } {
  const c = new SystemClock(o);
  return { arm: (cb, ms) => c.setTimer(cb, ms), now: () => c.now(), close: () => c.close() };
}

// ---- B. the server under load ----------------------------------------------------------------------
interface Started {
  child: ChildProcess;
  url: string;
}

async function startServer(waker: string, pool: string): Promise<Started> {
  const bundle = 'dist/target-server.mjs';
  const o = clockOpts(waker);
  const args = ['--port', '0', '--workers', '16', '--seed', '1', '--timer', o.waker!, '--pool', pool];
  args.push('--pool-priority', values['pool-priority']);
  if (STALL !== null) args.push('--stall-main-ms', String(STALL[0]), '--stall-every-ms', String(STALL[1]));
  if (o.leadMs !== undefined) args.push('--timer-lead-ms', String(o.leadMs));
  const argv = existsSync(bundle) ? [bundle, ...args] : ['--import', 'tsx', 'target-server/main.ts', ...args];
  // Through nice(1) so every thread of the server (the waker thread too) gets the priority.
  const child =
    NICE === null
      ? spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('nice', ['-n', String(NICE), process.execPath, ...argv], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)).url);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return { child, url };
}

// biome-ignore lint/suspicious/noExplicitAny: /stats JSON, read field by field below
async function json(pool: Pool, method: 'GET' | 'POST', path: string): Promise<any> {
  const r = await pool.request({ method, path });
  return JSON.parse(await r.body.text());
}

/** Open-loop Poisson attempts at `ratePerS` for `seconds`; returns completions and errors. */
async function drive(pool: Pool, ratePerS: number, seconds: number, firstCall: number) {
  const n = Math.round(ratePerS * seconds);
  const schedule = new ArrivalSchedule(11, ratePerS / 1000, n);
  let done = 0;
  let errors = 0;
  const t0 = performance.now() + 5;
  const hardStop = t0 + seconds * 1000 + 30_000;
  let i = 0;
  await new Promise<void>((resolve) => {
    const finish = (ok: boolean): void => {
      if (ok) done++;
      else errors++;
      if (i === n && done + errors === n) resolve();
    };
    const tick = (): void => {
      const t = performance.now();
      while (i < n && t0 + schedule.at(i) <= t) {
        pool
          .request({ method: 'GET', path: `/work?call=${firstCall + i}&attempt=1` })
          .then((r) => r.body.dump().then(() => finish(r.statusCode === 200)))
          .catch(() => finish(false));
        i++;
      }
      if (t > hardStop) {
        errors += n - i;
        i = n;
        resolve();
        return;
      }
      if (i < n) setTimeout(tick, Math.max(0, t0 + schedule.at(i) - performance.now()));
    };
    tick();
  });
  return { n, done, errors, wallS: (performance.now() - t0) / 1000 };
}

const lambda95 = (0.95 * DEFAULT_MODEL.workers * 1000) / meanServiceMs(DEFAULT_MODEL);
console.log(
  `\nB. server child process, 16 workers, reference model (E[S] = ${meanServiceMs(DEFAULT_MODEL).toFixed(2)} ms), ${SECONDS} s per run after 1 s warm-up${STALL === null ? '' : `, server main loop stalled ${STALL[0]} ms every ${STALL[1]} ms`}`,
);
console.log(
  '| rate /s | pool (priority) | waker | attempts served | early | errors | hold err p50 | p90 | p99 | p99.9 | max | server CPU cores | event loop util | utilisation |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const RATES = values.rates.split(',').map((r) => (r === 'rho95' ? lambda95 : Number(r)));
let callBase = 0;
for (const [poolMode, waker] of POOLS.flatMap((p) => WAKERS.map((w) => [p, w] as const))) {
  const { child, url } = await startServer(waker, poolMode);
  const pool = new Pool(url, { connections: 512, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    for (const rate of RATES) {
      await drive(pool, rate, 1, callBase); // warm-up (JIT, connections)
      callBase += 1_000_000;
      // Let stragglers finish: /reset answers 409 while anything is in flight.
      for (let k = 0; k < 50 && (await json(pool, 'POST', '/reset')).ok !== true; k++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const r = await drive(pool, rate, SECONDS, callBase);
      callBase += 1_000_000;
      const s = await json(pool, 'GET', '/stats');
      const h = s.holdErrorMs;
      console.log(
        `| ${rate.toFixed(0)} | ${s.pool?.mode ?? 'loop'} (${s.pool?.priority ?? '–'}) | ${waker} | ${h.count} | ${h.early} | ${r.errors} | ${f(h.p50)} | ${f(h.p90)} | ${f(h.p99)} | ${f(h.p999)} | ${f(h.max)} | ${f(s.cpu.cores, 2)} | ${f(s.eventLoopUtilisation, 2)} | ${f(s.utilisation, 2)} |`,
      );
    }
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
console.log(
  `\nafter: load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}, ${cpuPressure()}`,
);
console.log(
  'hold error = actual hold − intended service time, ms (server clock); CPU = process.cpuUsage of the server since /reset.',
);
