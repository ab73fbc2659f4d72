// The policies preset's answers (docs/policies.md), read from a `hedgebench simulate --matrix
// experiments/policies.json` folder: per question, Markdown tables of p99 / p99.9 (ms, `seed 1 · seed 2`;
// `C` = collapsed), requests per call, hedge rate and the failed rate, the rows docs/policies.md quotes.
//
//   npx tsx bench/policies-answers.ts <simulate folder>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PointRow, parsePointsCsv } from '../contract/index.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: npx tsx bench/policies-answers.ts <simulate folder>');
const rows = parsePointsCsv(readFileSync(join(dir, 'points.csv'), 'utf8'));
const loads = [...new Set(rows.map((r) => r.load))].sort((a, b) => a - b);

function row(config: string, load: number, mode: string, seed: number, e: number): PointRow {
  const r = rows.find(
    (x) =>
      x.config === config &&
      x.load === load &&
      x.cancellation === mode &&
      x.seed === seed &&
      (x.error_prob ?? 0) === e,
  );
  if (r === undefined) throw new Error(`no row ${config} ${load} ${mode} ${seed} e=${e}`);
  return r;
}

type Cell = (r: PointRow) => string;
const n = (v: number | null | undefined, d = 0) => (v === null || v === undefined ? '—' : v.toFixed(d));
const tail: Cell = (r) => (r.collapsed ? 'C' : `${n(r.p99_ms)} / ${n(r.p999_ms)}`);
const p999: Cell = (r) => (r.collapsed ? 'C' : n(r.p999_ms));
const rpc: Cell = (r) => n(r.requests_per_call, 3);
const hedge: Cell = (r) => `${n((r.hedge_rate ?? 0) * 100, 1)} %`;
const failed: Cell = (r) => `${n((r.failed_rate ?? 0) * 100, 2)} %`;

function table(title: string, configs: readonly string[], mode: string, e: number, cell: Cell): void {
  console.log(`\n${title} (cancellation ${mode}${e > 0 ? `, errors ${e * 100} %` : ''}; seed 1 · seed 2)\n`);
  console.log(`| configuration | ${loads.map((l) => l.toFixed(2)).join(' | ')} |`);
  console.log(`| --- |${loads.map(() => ' --- |').join('')}`);
  for (const c of configs)
    console.log(
      `| ${c} | ${loads.map((l) => `${cell(row(c, l, mode, 1, e))} · ${cell(row(c, l, mode, 2, e))}`).join(' | ')} |`,
    );
}

const study = ['no hedge', 'hedge, no budget', 'hedge, default budget', 'hedge, budget 5 %'];
const percentile = [
  'hedge, p90 delay, no budget',
  'hedge, p95 delay, no budget',
  'hedge, p99 delay, no budget',
  'hedge, p95 delay, default budget',
  'hedge, min(p95, 20 ms), default budget',
];
const shapes = [
  'hedge, concurrency budget 20 %, min 3',
  'hedge, A6 tokens (10, 0.1)',
  'hedge, server pushback',
  'hedge, default budget, adaptive limit',
];
const winners = ['no hedge', 'hedge, default budget', 'hedge, default budget, first completion'];

for (const mode of ['ignore', 'propagate']) {
  table('Percentile delays: p99 / p99.9 ms', [...study, ...percentile], mode, 0, tail);
  table('Budget shapes: p99 / p99.9 ms', [...study.slice(0, 1), ...study.slice(2), ...shapes], mode, 0, tail);
}
table('Percentile delays: hedge rate', ['hedge, default budget', ...percentile], 'ignore', 0, hedge);
table(
  'Budget shapes: requests per call',
  ['hedge, default budget', 'hedge, budget 5 %', ...shapes],
  'ignore',
  0,
  rpc,
);
for (const mode of ['ignore', 'propagate'])
  for (const e of [0.01, 0.05]) {
    table('Winner rule: p99.9 ms', winners, mode, e, p999);
    table('Winner rule: calls failed', winners, mode, e, failed);
  }
table('Pushback with failures: p99 / p99.9 ms', ['no hedge', 'hedge, server pushback'], 'ignore', 0.05, tail);
