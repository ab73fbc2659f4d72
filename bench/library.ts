// Micro-benchmark of the library's hot paths on a ManualClock: timer schedule+fire, and calls through
// composed pipelines, with the fixed delay and with the optional rules (percentile delay, budget shapes).
// Run: npx tsx bench/library.ts [--quick]. Prints ops/s, wall and per CPU-second (median and range of 5
// runs), and the median wall time per operation.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ManualClock, type Operation, pipeline } from '../library/index.ts';

const quick = process.argv.includes('--quick');
const N = quick ? 200_000 : 1_000_000;
const RUNS = 5;

// Reports wall-clock ops/s and ops per CPU-second of this process: on a shared machine the second is the
// steadier figure (it leaves out the time other processes held the core).
function measure(name: string, ops: number, body: () => void): void {
  body(); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    body();
    const dt = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    wall.push(ops / dt);
    cpu.push(ops / ((c.user + c.system) / 1e6));
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const fmt = (x: number) => `${(x / 1e6).toFixed(2)}M`;
  const mid = RUNS >> 1;
  console.log(
    `${name.padEnd(62)} wall ${fmt(wall[mid]).padStart(7)}/s (${fmt(wall[0])}–${fmt(wall[RUNS - 1])})` +
      `  cpu ${fmt(cpu[mid]).padStart(7)}/s (${fmt(cpu[0])}–${fmt(cpu[RUNS - 1])})` +
      `  ${(1e9 / wall[mid]).toFixed(0).padStart(5)} ns/op  n=${RUNS}×${ops}`,
  );
}

// Deterministic pseudo-random delays without Math.random (a tiny LCG).
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}; N=${N}`);

measure('ManualClock: schedule N, then fire all', N, () => {
  const clock = new ManualClock();
  const rnd = lcg(1);
  const cb = () => {};
  for (let i = 0; i < N; i++) clock.setTimer(cb, rnd() * 1000);
  clock.runAll();
});

measure('ManualClock: steady 1000 pending, fire one → schedule one', N, () => {
  const clock = new ManualClock();
  const rnd = lcg(2);
  let left = N;
  const cb = () => {
    if (--left > 0) clock.setTimer(cb, rnd() * 50);
  };
  for (let i = 0; i < 1000; i++) clock.setTimer(cb, rnd() * 50);
  clock.runAll();
});

measure('ManualClock: schedule 2, cancel 1, fire 1 (hedge timer pattern)', N, () => {
  const clock = new ManualClock();
  const rnd = lcg(3);
  let left = N;
  const cb = () => {
    if (--left <= 0) return;
    clock.setTimer(cb, rnd() * 20);
    clock.setTimer(cb, 20 + rnd() * 10).cancel();
  };
  for (let i = 0; i < 1000; i++) clock.setTimer(cb, rnd() * 20);
  clock.runAll();
});

// The percentile delay of the added cases: p95 of the last 10 s, fixed 20 ms until 100 attempts.
const p95 = { delayMs: 20, delay: { percentile: 95, windowMs: 10_000, minSamples: 100 } };

const immediate: Operation<number> = (_s, attempt, done) => {
  done({ ok: true, value: attempt });
  return () => {};
};
const noop = () => {};

for (const [name, make] of [
  ['plain pipeline, immediate op', (c: ManualClock) => pipeline(c)],
  ['hedge (default budget), immediate op', (c: ManualClock) => pipeline(c).hedge({ delayMs: 20 })],
  [
    'hedge + adaptive limit, immediate op',
    (c: ManualClock) => pipeline(c).hedge({ delayMs: 20 }).adaptiveLimit(),
  ],
  ['hedge (default budget), p95 delay, immediate op', (c: ManualClock) => pipeline(c).hedge(p95)],
  [
    'hedge, concurrency budget, immediate op',
    (c: ManualClock) => pipeline(c).hedge({ delayMs: 20, budget: { kind: 'concurrency' } }),
  ],
  [
    'hedge, tokens budget, immediate op',
    (c: ManualClock) =>
      pipeline(c).hedge({ delayMs: 20, budget: { kind: 'tokens', maxTokens: 100, tokenRatio: 0.1 } }),
  ],
] as const) {
  measure(`call: ${name}`, N, () => {
    const clock = new ManualClock();
    const p = make(clock);
    const run = p.compose(immediate);
    for (let i = 0; i < N; i++) run(p.newCall(i), 1, noop);
  });
}

// Attempts that take simulated time (a timer each); 5 % are slow (60 ms) so the 20 ms hedge fires.
for (const [name, make] of [
  [
    'hedge (no budget), timed op, 5 % slow',
    (c: ManualClock) => pipeline(c).hedge({ delayMs: 20, budgetPercent: 0 }),
  ],
  [
    'hedge (no budget), p95 delay, timed op, 5 % slow',
    (c: ManualClock) => pipeline(c).hedge({ ...p95, budgetPercent: 0 }),
  ],
  [
    'hedge + adaptive limit, timed op, 5 % slow',
    (c: ManualClock) =>
      pipeline(c)
        .hedge({ delayMs: 20 })
        .adaptiveLimit({ maxLimit: 1000, minLimit: 1000, initialLimit: 1000 }),
  ],
] as const) {
  measure(`call: ${name}`, N, () => {
    const clock = new ManualClock();
    const p = make(clock);
    const rnd = lcg(4);
    const timed: Operation<number> = (_s, attempt, done) => {
      const h = clock.setTimer(() => done({ ok: true, value: attempt }), rnd() < 0.05 ? 60 : 5 + rnd() * 5);
      return () => h.cancel();
    };
    const run = p.compose(timed);
    let i = 0;
    const arrive = () => {
      run(p.newCall(i), 1, noop);
      if (++i < N) clock.setTimer(arrive, 0.05);
    };
    arrive();
    clock.runAll();
  });
}
