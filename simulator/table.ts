// The summary printed after a simulation: per cancellation mode (and seed), configs × loads with
// `p99 / p99.9` in ms or `collapse`, then requests per call, rejected % and utilisation. Pure: rows in, text out.

import { formatLoad, formatMs, type PointRow, rowLabel } from '../contract/index.ts';

/** Renders the tables for any points.csv rows (sim or real); rows and columns keep first-seen order. */
export function formatSimTables(rows: readonly PointRow[]): string {
  // A configuration swept over a dimension (e.g. the hedge delay) gets one line per value.
  const configs = unique(rows.map(rowLabel));
  const loads = unique(rows.map((r) => r.load)).sort((a, b) => a - b);
  const modes = unique(rows.map((r) => r.cancellation));
  const seeds = unique(rows.map((r) => r.seed));
  const sources = unique(rows.map((r) => r.source));
  const out: string[] = [];
  for (const source of sources) {
    for (const mode of modes) {
      for (const seed of seeds) {
        const pick = (config: string, load: number) =>
          rows.find(
            (r) =>
              r.source === source &&
              r.cancellation === mode &&
              r.seed === seed &&
              rowLabel(r) === config &&
              formatLoad(r.load) === formatLoad(load),
          );
        const present = configs.filter((c) => loads.some((l) => pick(c, l) !== undefined));
        if (present.length === 0) continue;
        const title = `${source === 'sim' ? 'simulated' : 'measured'}, cancellation ${mode}${seeds.length > 1 ? `, seed ${seed}` : ''}`;
        out.push(
          grid(`${title}: p99 / p99.9 ms`, present, loads, (c, l) => latencyCell(pick(c, l))),
          grid(`${title}: requests per call · rejected % · utilisation`, present, loads, (c, l) =>
            loadCell(pick(c, l)),
          ),
        );
      }
    }
  }
  return `${out.join('\n\n')}\n`;
}

/** `p99 / p99.9`, `collapse`, or `–` when there is no row or no successful call. */
export function latencyCell(r: PointRow | undefined): string {
  if (r === undefined) return '–';
  if (r.collapsed) return 'collapse';
  if (r.p99_ms === null || r.p999_ms === null) return '–';
  return `${formatMs(r.p99_ms, { cell: true })} / ${formatMs(r.p999_ms, { cell: true })}`;
}

function loadCell(r: PointRow | undefined): string {
  if (r === undefined) return '–';
  const rpc = r.requests_per_call === null ? '–' : r.requests_per_call.toFixed(2);
  const rej = r.rejected_rate === null ? '–' : `${(r.rejected_rate * 100).toFixed(1)} %`;
  const util = r.utilization === null ? '–' : r.utilization.toFixed(2);
  return `${rpc} · ${rej} · ${util}`;
}

function grid(
  title: string,
  configs: string[],
  loads: number[],
  cell: (c: string, l: number) => string,
): string {
  const header = ['config', ...loads.map(formatLoad)];
  const body = configs.map((c) => [c, ...loads.map((l) => cell(c, l))]);
  const widths = header.map((h, j) => Math.max(h.length, ...body.map((row) => row[j].length)));
  const line = (cells: string[]) =>
    cells
      .map((s, j) => (j === 0 ? s.padEnd(widths[j]) : s.padStart(widths[j])))
      .join('  ')
      .trimEnd();
  return [title, line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
