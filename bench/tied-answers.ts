// The tied preset's answers, read from a `hedgebench simulate --matrix experiments/tied.json` folder: per
// replicas, correlation and cancellation mode, p99.9 (ms, seed 1 / seed 2; `C` = collapsed) of no hedge, of
// no hedge on the two-choices balancer, of the hedge and of tied requests at gaps 0 and 1 ms, then the extra
// work (extra_service_share, %) of the hedge and the tied configurations, and what the peer cancels did.
//
//   npx tsx bench/tied-answers.ts <simulate folder>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PointRow, parsePointsCsv } from '../contract/index.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: npx tsx bench/tied-answers.ts <simulate folder>');
const rows = parsePointsCsv(readFileSync(join(dir, 'points.csv'), 'utf8'));
const evidence = JSON.parse(readFileSync(join(dir, 'sim-evidence.json'), 'utf8')) as {
  points: { key: string; tied?: Record<string, number> }[];
};
const tiedOf = new Map(evidence.points.map((p) => [p.key, p.tied]));

const LINES = [
  ['no hedge', 'random'],
  ['no hedge', 'two-choices'],
  ['hedge, default budget', 'random'],
  ['tied, gap 0 ms', 'random'],
  ['tied, gap 1 ms', 'random'],
] as const;
const loads = [...new Set(rows.map((r) => r.load))].sort((a, b) => a - b);
const seeds = [...new Set(rows.map((r) => r.seed))];

function pick(
  config: string,
  balancer: string,
  load: number,
  mode: string,
  R: number,
  c: number,
  seed: number,
) {
  return rows.find(
    (r) =>
      r.config === config &&
      r.load === load &&
      r.cancellation === mode &&
      r.seed === seed &&
      (r.replicas ?? 1) === R &&
      (r.balancer ?? 'random') === balancer &&
      // An unhedged point is made once for every correlation (it has nothing to share).
      (config === 'no hedge' || (r.correlation ?? 0) === c),
  );
}
const p999 = (r: PointRow | undefined) =>
  r === undefined ? '–' : r.collapsed ? 'C' : (r.p999_ms?.toFixed(0) ?? '–');
const pct = (r: PointRow | undefined) =>
  r?.extra_service_share == null ? '–' : (100 * r.extra_service_share).toFixed(1);
const cells = (f: (seed: number) => string) => seeds.map(f).join(' / ');

for (const R of [2, 4]) {
  for (const c of [0, 0.5]) {
    for (const mode of ['ignore', 'propagate']) {
      console.log(`\n### ${R} replicas, correlation ${c}, ${mode}: p99.9 ms (seed ${seeds.join(' / ')})`);
      console.log(`| | ${loads.map((l) => l.toFixed(2)).join(' | ')} |`);
      console.log(`| --- | ${loads.map(() => '---').join(' | ')} |`);
      for (const [config, b] of LINES) {
        const label = b === 'random' ? config : `${config}, ${b}`;
        console.log(
          `| ${label} | ${loads.map((l) => cells((s) => p999(pick(config, b, l, mode, R, c, s)))).join(' | ')} |`,
        );
      }
      for (const config of ['hedge, default budget', 'tied, gap 0 ms', 'tied, gap 1 ms']) {
        console.log(
          `| extra work %, ${config} | ${loads.map((l) => cells((s) => pct(pick(config, 'random', l, mode, R, c, s)))).join(' | ')} |`,
        );
      }
      for (const config of ['tied, gap 0 ms', 'tied, gap 1 ms']) {
        console.log(
          `| both ran / removed / dropped %, ${config} | ${loads
            .map((l) =>
              cells((s) => {
                const r = pick(config, 'random', l, mode, R, c, s);
                const key = r && `${r.config}|${r.load.toFixed(2)}|${mode}|${s}|r=${R}${c ? `|c=${c}` : ''}`;
                const t = key ? tiedOf.get(key) : undefined;
                if (!r || !t) return '–';
                const f = (x: number) => ((100 * x) / r.measured_calls).toFixed(0);
                return `${f(t.callsBothRan)}/${f(t.removedQueued)}/${f(t.droppedOnArrival)}`;
              }),
            )
            .join(' | ')} |`,
        );
      }
    }
  }
}
