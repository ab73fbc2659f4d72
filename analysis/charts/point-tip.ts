// What a chart mark says about its point when hovered (report.html) or read by a screen reader (the SVG
// files): the point's identity, its percentiles with the real 95 % interval, its verdict and why it is
// invalid or open-ended. Plain text, one figure per line; pure.

import { formatLoad, formatMs, LATENCY_METRICS, type PointRow } from '../../contract/index.ts';
import type { PercentileInterval } from '../judge/percentile-ci.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { pointVerdictText } from '../judge/point-verdict.ts';

const ms = (v: number | null | undefined) => formatMs(v, { missing: '—' });

/** A real percentile's 95 % interval in words; says when the sample cannot bound it. */
function intervalText(iv: PercentileInterval | null | undefined): string {
  if (!iv) return '';
  const low = iv.lowOpen ? `open below (sample min ${ms(iv.low)})` : ms(iv.low);
  const high = iv.highOpen
    ? `open above: ${iv.n} calls cannot bound it (sample max ${ms(iv.high)})`
    : ms(iv.high);
  return `95 % [${low}, ${high}]`;
}

/** The first line of every tip of a point: configuration, load, cancellation mode, seed. */
function pointTitle(p: Pick<PointAnalysis, 'id'>): string {
  const { config, load, cancellation, seed } = p.id;
  return `${config} · load ${formatLoad(load)} · cancellation ${cancellation} · seed ${seed}`;
}

function sideLines(p: PointAnalysis, source: 'sim' | 'real', row: PointRow | undefined): string[] {
  if (!row) {
    const why = source === 'real' && p.entry.state !== 'done' ? `point ${p.entry.state}` : 'no row';
    return [`${source}: ${why}`];
  }
  const out: string[] = [];
  if (row.collapsed) out.push(`${source}: collapsed (the queue never drained; percentiles not drawn)`);
  for (const { name, column } of LATENCY_METRICS) {
    const iv = source === 'real' ? p.intervals?.[name] : null;
    out.push(`${source} ${name}: ${ms(row[column])} ms ${intervalText(iv)}`.trimEnd());
  }
  if (source === 'real') {
    const reasons = p.invalidReasons.length > 0 ? p.invalidReasons : ['no reason recorded'];
    out.push(...(row.valid ? ['valid: yes'] : ['valid: NO, because', ...reasons.map((r) => `  · ${r}`)]));
  }
  return out;
}

/**
 * The tip of a point: identity, then (with `mark`) which mark this is, the figures of the sides asked
 * for, the verdict (when the point was compared) and the state of a point that was not measured.
 */
export function pointTip(p: PointAnalysis, sides: readonly ('sim' | 'real')[], mark?: string): string {
  const lines = [pointTitle(p)];
  if (mark) lines.push(mark);
  for (const s of sides) lines.push(...sideLines(p, s, s === 'sim' ? p.sim : p.real));
  if (p.rows.length > 0) lines.push(`verdict: ${pointVerdictText(p)}`);
  if (p.entry.state === 'failed') lines.push(`failed: ${p.entry.reason ?? 'no reason recorded'}`);
  return lines.join('\n');
}
