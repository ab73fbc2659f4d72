// The summary `hedgebench run` prints at the end: sim vs real p99 per point, where the files are, the exit
// status. A pure function: run facts in, text out.
import {
  dimCellsOf,
  formatLoad,
  formatMs,
  type PointEntry,
  type PointRow,
  rowKey,
  rowLabel,
} from '../../contract/index.ts';
import { formatDuration } from '../plan/progress-reporter.ts';
import { invalidToRetry } from './retry-invalid.ts';

/** What the summary shows. */
interface SummaryInput {
  name: string;
  runDir: string;
  entries: readonly PointEntry[];
  rows: readonly PointRow[];
  elapsedMs: number;
  exitCode: number;
  /** The analysis's one-line verdict count, when the comparison ran. */
  comparisonLine?: string | null;
  /** Files written next to points.csv (e.g. comparison.csv, report.md). */
  extraFiles?: readonly string[];
  resumeCommand?: string | null;
}

const cellMs = (v: number | null | undefined) => formatMs(v, { cell: true });

function cell(sim: PointRow | undefined, real: PointRow | undefined, entry: PointEntry | undefined): string {
  const side = (r: PointRow | undefined) =>
    r === undefined ? '–' : r.collapsed ? 'collapse' : cellMs(r.p99_ms);
  if (entry?.state === 'failed') return `${side(sim)} → failed`;
  if (entry?.state === 'pending') return `${side(sim)} → pending`;
  return `${side(sim)} → ${side(real)}${real && !real.valid ? '*' : ''}`;
}

/** The end-of-run summary (several lines, trailing newline). */
export function formatRunSummary(s: SummaryInput): string {
  const out: string[] = [];
  const done = s.entries.filter((e) => e.state === 'done').length;
  const failed = s.entries.filter((e) => e.state === 'failed');
  const pending = s.entries.filter((e) => e.state === 'pending').length;
  out.push(
    `hedgebench run ${s.name}: ${s.entries.length} points, ${done} done, ${failed.length} failed${pending ? `, ${pending} pending` : ''} (${formatDuration(s.elapsedMs)})`,
  );
  const find = (e: PointEntry, source: 'sim' | 'real') =>
    s.rows.find((r) => r.source === source && rowKey(r) === e.key);
  // A row per configuration and dimension variant (`hedge, default budget · over gRPC`).
  const label = (e: PointEntry) => rowLabel({ config: e.config, ...dimCellsOf(e.dims) });
  const matrix = s.entries.filter((e) => !e.calibration);
  const seeds = [...new Set(matrix.map((e) => e.seed))];
  for (const mode of [...new Set(matrix.map((e) => e.cancellation))]) {
    for (const seed of seeds) {
      const es = matrix.filter((e) => e.cancellation === mode && e.seed === seed);
      const loads = [...new Set(es.map((e) => e.load))].sort((a, b) => a - b);
      const configs = [...new Set(es.map(label))];
      const header = ['config', ...loads.map(formatLoad)];
      const body = configs.map((c) => [
        c,
        ...loads.map((l) => {
          const e = es.find((x) => label(x) === c && formatLoad(x.load) === formatLoad(l));
          return e ? cell(find(e, 'sim'), find(e, 'real'), e) : '';
        }),
      ]);
      const widths = header.map((h, j) => Math.max(h.length, ...body.map((r) => r[j].length)));
      const line = (cells: string[]) =>
        cells
          .map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j])))
          .join('   ')
          .trimEnd();
      out.push(
        '',
        `p99 ms, simulated → measured — cancellation ${mode}${seeds.length > 1 ? `, seed ${seed}` : ''}`,
        line(header),
        ...body.map(line),
      );
    }
  }
  const cal = s.entries.find((e) => e.calibration);
  if (cal) {
    const sim = find(cal, 'sim');
    const real = find(cal, 'real');
    out.push(
      '',
      `calibration (no hedge, load ${formatLoad(cal.load)}): p50 ${cellMs(sim?.p50_ms)} → ${cellMs(real?.p50_ms)} ms, p99 ${cellMs(sim?.p99_ms)} → ${cellMs(real?.p99_ms)} ms (what this setup's clock, network and HTTP add; every verdict takes each call's own harness parts out)`,
    );
  }
  if (s.rows.some((r) => r.source === 'real' && !r.valid)) {
    out.push(
      "* the point failed a self-check, the load generator's or the target's (reasons in report.md; figures in raw/<point>.status.json)",
    );
  }
  for (const f of failed) out.push(`failed: ${f.key}: ${f.reason ?? 'no reason recorded'}`);
  if (s.comparisonLine) out.push('', s.comparisonLine);
  out.push(
    '',
    `results: ${s.runDir}/`,
    `  manifest.json, points.csv${(s.extraFiles ?? []).map((f) => `, ${f}`).join('')}, raw/`,
  );
  if (s.resumeCommand) out.push(`continue with: ${s.resumeCommand}`);
  else {
    // Only those points measured again: a stall of a shared machine invalidates the points measured in it,
    // and a failed point's cause may be fixed.
    const again = [
      ...(invalidToRetry(s.rows).size > 0 ? ['--retry-invalid'] : []),
      ...(failed.length > 0 ? ['--retry-failed'] : []),
    ];
    if (again.length > 0)
      out.push(`measure them again with: hedgebench run --resume ${s.runDir} ${again.join(' ')}`);
  }
  out.push(`exit status ${s.exitCode}`);
  return `${out.join('\n')}\n`;
}
