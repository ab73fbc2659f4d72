// Tied requests against the peer cancel's delay: experiments/tied.json's points on 4 random replicas with
// independent stragglers, simulated with a constant network of d ms a trip (sim+net: request, response, the
// client's cancel and the servers' peer cancel each take d), for d from 0 past the 1 ms gap. Prints, per
// cancellation mode, load and d: p99.9 of tied (gap 1 ms), of the hedge and of no hedge, tied's extra work and
// the share of its calls whose copies both ran; one line per seed.
//
//   npx tsx bench/tied-cancel-delay.ts [--delays 0,0.5,1,2,5] [--calls 200000] [--threads 1]
import { parseArgs } from 'node:util';
import type { PointRow } from '../contract/index.ts';
import { constantTransport, expandMatrix, type Point } from '../model/index.ts';
import { packageRoot, readMatrixFile, runPoints, type SimResult } from '../simulator/index.ts';

const { values } = parseArgs({
  options: {
    delays: { type: 'string', default: '0,0.5,1,2,5' },
    calls: { type: 'string', default: '200000' },
    threads: { type: 'string', default: '1' },
  },
});
const delays = values.delays.split(',').map(Number);
// The preset lists 2 replicas (what the real clock can tie with two-choices); this study is on 4 random ones.
const matrix = {
  ...readMatrixFile(`${packageRoot()}/experiments/tied.json`, { calls: Number(values.calls) }),
  replicas: [4],
};
const CONFIGS = ['no hedge', 'hedge, default budget', 'tied, gap 1 ms'];
const points = expandMatrix(matrix).filter(
  (p) =>
    CONFIGS.includes(p.config.name) &&
    p.dims?.replicas === 4 &&
    p.dims.balancer === undefined &&
    p.dims.correlation === undefined,
);

const byDelay = new Map<number, SimResult[]>();
for (const d of delays) {
  const t0 = performance.now();
  byDelay.set(
    d,
    await runPoints(points, { threads: Number(values.threads), transport: constantTransport(d) }),
  );
  process.stderr.write(
    `d = ${d} ms: ${points.length} points in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
}

const ms = (r: PointRow | undefined) =>
  r === undefined ? '–' : r.collapsed ? 'collapse' : (r.p999_ms?.toFixed(1) ?? '–');
const find = (rs: SimResult[], p: Pick<Point, 'load' | 'cancellation' | 'seed'>, config: string) =>
  rs.find(
    (r) =>
      r.row.config === config &&
      r.row.load === Number(p.load.toFixed(2)) &&
      r.row.cancellation === p.cancellation &&
      r.row.seed === p.seed,
  );

console.log(
  `${points.length} points × ${delays.length} delays, ${values.calls} calls, 4 random replicas, c = 0`,
);
console.log('mode      load  d ms  seed  tied p99.9  hedge p99.9  none p99.9  tied extra  tied both ran');
for (const mode of matrix.cancellation) {
  for (const load of matrix.loads) {
    for (const d of delays) {
      for (const seed of matrix.seeds) {
        const rs = byDelay.get(d)!;
        const q = { load, cancellation: mode, seed };
        const t = find(rs, q, 'tied, gap 1 ms');
        const both = t?.tied === undefined ? '–' : (t.tied.callsBothRan / t.row.measured_calls).toFixed(4);
        console.log(
          [
            mode.padEnd(9),
            load.toFixed(2),
            String(d).padStart(4),
            String(seed).padStart(5),
            ms(t?.row).padStart(11),
            ms(find(rs, q, 'hedge, default budget')?.row).padStart(12),
            ms(find(rs, q, 'no hedge')?.row).padStart(11),
            (t?.extraServiceShare?.toFixed(4) ?? '–').padStart(11),
            both.padStart(14),
          ].join(' '),
        );
      }
    }
  }
}
