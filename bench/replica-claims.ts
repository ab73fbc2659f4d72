// The replicas preset's two claims, read from a run folder's points.csv on both sides (sim and real): does
// hedging cut p99.9 with independent stragglers (correlation 0) but not with fully shared ones (1), and does
// least-outstanding beat random on the mean? Prints one line per claim and load, sim and real side by side.
//
//   npx tsx bench/replica-claims.ts results/<run>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PointRow, parsePointsCsv } from '../contract/index.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: npx tsx bench/replica-claims.ts <run folder>');
const rows = parsePointsCsv(readFileSync(join(dir, 'points.csv'), 'utf8'));
type Row = PointRow & Record<string, unknown>;
const find = (source: string, m: Record<string, unknown>) =>
  (rows as Row[]).find(
    (r) =>
      r.source === source &&
      Object.entries(m).every(([k, v]) => (r[k] ?? null) === v) &&
      r.cancellation === 'ignore',
  );
const f = (x: number | null | undefined) => (x == null ? '–' : x.toFixed(1));
for (const load of [0.5, 0.85]) {
  for (const source of ['sim', 'real']) {
    const base = { load, replicas: 4, balancer: null };
    const none = find(source, { ...base, config: 'no hedge' });
    const byC = [0, 0.5, 1].map((c) =>
      find(source, { ...base, config: 'hedge, default budget', correlation: c === 0 ? null : c }),
    );
    const cut = byC.map((h) => (h && none ? f((100 * (none.p999_ms! - h.p999_ms!)) / none.p999_ms!) : '–'));
    const lo = find(source, { load, replicas: 4, balancer: 'least-outstanding', config: 'no hedge' });
    console.log(
      `load ${load} ${source.padEnd(4)}: p99.9 no hedge ${f(none?.p999_ms)} ms; hedge cuts it by ${cut.join(' / ')} % at correlation 0 / 0.5 / 1; mean random ${f(none?.mean_ms)} vs least-outstanding ${f(lo?.mean_ms)} ms`,
    );
  }
}
