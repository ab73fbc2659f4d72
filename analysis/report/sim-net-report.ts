// The report's sim+net section: what transport the run measured, and for every metric where the two
// predictions disagree about the measurement, which one explains it. Where sim diverges and sim+net agrees
// the gap is the transport, not the model. Pure: the analysis in, blocks out.

import type { ComparisonRow } from '../../contract/index.ts';
import { formatLoad, metricSpec, type PointRow } from '../../contract/index.ts';
import { comparePoint } from '../judge/compare.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { formatSimNetLine } from '../judge/sim-net.ts';
import type { Block } from './report-doc.ts';

/** What a pair of verdicts (sim, sim+net) on the same metric says. */
type GapReading = 'transport' | 'model' | 'transport-overshoots';

/** The reading of one metric where sim and sim+net were both judged, or null when they say the same. */
function gapReading(sim: ComparisonRow, net: ComparisonRow): GapReading | null {
  const judged = (r: ComparisonRow) => r.verdict === 'agrees' || r.verdict === 'diverges';
  if (!judged(sim) || !judged(net)) return null;
  if (sim.verdict === 'diverges' && net.verdict === 'agrees') return 'transport';
  if (sim.verdict === 'agrees' && net.verdict === 'diverges') return 'transport-overshoots';
  if (sim.verdict === 'diverges') return 'model';
  return null;
}

const READING_TEXT: Readonly<Record<GapReading, string>> = {
  transport: 'the gap is the transport, not the model',
  model:
    "not the calibration's transport: the model, or a harness effect it leaves out (hold overshoot, delays that grow with load)",
  'transport-overshoots': 'sim agrees, sim+net does not: the calibration transport does not hold here',
};

function cell(r: ComparisonRow, v: number | null): string {
  if (v === null) return '—';
  if (r.metric === 'collapse') return v ? 'collapse' : 'no';
  return v.toFixed(metricSpec(r.metric).decimals);
}

function where(p: PointAnalysis): string {
  return `${configLabel(p)} ${formatLoad(p.id.load)} ${p.id.cancellation} s${p.id.seed}`;
}

/**
 * The (sim, sim+net) line pairs of a point. An invalid point's lines all say `invalid`; its pairs are judged
 * again by the metric rules on its numbers (as if valid), so the reading still shows, marked invalid.
 */
function pairs(
  a: RunAnalysis,
  p: PointAnalysis,
): { sim: ComparisonRow; net: ComparisonRow; invalid: boolean }[] {
  const invalid = p.real !== undefined && !p.real.valid;
  let sim = p.rows;
  let net = p.simNetRows;
  if (invalid && p.simNet) {
    const real: PointRow = { ...p.real!, valid: true };
    sim = comparePoint({ ...p, real }, a.margins);
    net = comparePoint(
      { ...p, sim: p.simNet, real, diffs: p.simNetDiffs ?? null, harness: undefined },
      a.margins,
    );
  }
  return net.flatMap((n, i) => (sim[i]?.metric === n.metric ? [{ sim: sim[i], net: n, invalid }] : []));
}

const triple = (p: PointAnalysis, f: (r: PointRow) => number | null, d: number): string =>
  [p.sim, p.simNet, p.real].map((r) => (r && f(r) !== null ? f(r)!.toFixed(d) : '—')).join(' / ');

/** sim, sim+net and real side by side for every point with a sim+net row. */
function valuesTable(a: RunAnalysis): Block {
  const rows = a.points
    .filter((p) => p.simNet)
    .map((p) => [
      `${where(p)}${p.real && !p.real.valid ? ' (invalid)' : ''}`,
      triple(p, (r) => r.p50_ms, 3),
      triple(p, (r) => r.p99_ms, 3),
      triple(p, (r) => r.requests_per_call, 4),
      triple(p, (r) => r.utilization, 4),
    ]);
  return {
    kind: 'table',
    head: ['point', 'p50 ms sim / sim+net / real', 'p99 ms', 'requests per call', 'utilisation'],
    rows,
    align: ['left', 'right', 'right', 'right', 'right'],
  };
}

/** The section's blocks (heading included). */
export function simNetBlocks(a: RunAnalysis): Block[] {
  const s = a.simNet;
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: 'The network in the simulator (sim+net)' },
    { kind: 'paragraph', text: `**${formatSimNetLine(s)}**` },
  ];
  if (!s.measured) return blocks;
  blocks.push({
    kind: 'paragraph',
    text: `sim+net is the simulator with a transport: every request, response and cancellation takes a delay drawn from what the calibration point measured (${s.measured.method}${s.measured.clamped > 0 ? `; ${s.measured.clamped} negative samples, from the clock offset's uncertainty, raised to 0` : ''}). Its verdicts follow the same rule as sim's, paired by call, with the measurement whole (sim+net's transport stands for the harness's parts, which sim's verdict takes out of each call). Where sim diverges from the measurement and sim+net agrees, the gap is the transport, not the model.`,
  });
  if (s.missing.length > 0) blocks.push({ kind: 'list', items: s.missing });
  const rows: string[][] = [];
  const counts: Record<GapReading, number> = { transport: 0, model: 0, 'transport-overshoots': 0 };
  blocks.push(valuesTable(a));
  for (const p of a.points) {
    for (const { sim, net, invalid } of pairs(a, p)) {
      const reading = gapReading(sim, net);
      if (reading === null) continue;
      counts[reading]++;
      rows.push([
        `${where(p)}${invalid ? ' (invalid: rules applied to its numbers)' : ''}`,
        net.metric,
        cell(sim, sim.sim),
        cell(net, net.sim),
        cell(sim, sim.real),
        `${sim.verdict} / ${net.verdict}`,
        READING_TEXT[reading],
      ]);
    }
  }
  if (rows.length === 0) {
    blocks.push({
      kind: 'paragraph',
      text: 'sim and sim+net reach the same verdict on every judged metric: the transport explains no divergence here.',
    });
    return blocks;
  }
  blocks.push({
    kind: 'paragraph',
    text: `Metrics where the two predictions disagree about the measurement, or both diverge: ${counts.transport} where the gap is the transport, not the model; ${counts.model} where it is not the transport; ${counts['transport-overshoots']} where sim+net is further off than sim.`,
  });
  blocks.push({
    kind: 'table',
    head: ['point', 'metric', 'sim', 'sim+net', 'real', 'verdict sim / sim+net', 'reading'],
    rows,
    align: ['left', 'left', 'right', 'right', 'right', 'left', 'left'],
  });
  return blocks;
}
