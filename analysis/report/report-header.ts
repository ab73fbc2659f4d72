// The head of a run's report: its title, what the matrix and the machine were, the summary and calibration
// lines, and what a reader must know about the run (points not measured, notes).

import { percentileOfSorted } from '../../contract/index.ts';
import type { MarginMetric } from '../../model/index.ts';
import { agreementLine, detectable, marginText, metricWords } from '../judge/agreement.ts';
import { formatSummaryLine } from '../judge/compare.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { calibrationLines } from '../judge/time-scale-calibration.ts';
import type { Block } from './report-doc.ts';

/**
 * What the verdict rests on, in one sentence: the pairing, and the smallest divergence the run could have
 * caught per metric (the median over its judged points; the detection section gives each point's).
 */
function restsOnLine(a: RunAnalysis): string {
  const rows = a.points.flatMap((p) => p.rows);
  const parts: string[] = [];
  for (const m of Object.keys(a.margins) as MarginMetric[]) {
    const ds = rows
      .filter((r) => r.metric === m)
      .map(detectable)
      .filter((x): x is number => x !== null && Number.isFinite(x))
      .sort((x, y) => x - y);
    if (ds.length > 0) parts.push(`${metricWords(m)} ${marginText(m, percentileOfSorted(ds, 50))}`);
  }
  const tied =
    a.summary.replayed === 0
      ? ''
      : `; the ${a.summary.replayed} tied points' against the model run on their own measured trips, the measurement whole (which copy runs is a race the harness decides)`;
  const pairing = a.manifest.matrix.target
    ? 'two independent samples per metric (a foreign service draws its own service times)'
    : `each metric's difference over the same calls (common random numbers), each call's own harness parts taken out${tied}`;
  if (parts.length === 0) return `What it rests on: ${pairing}.`;
  return `What it rests on: ${pairing}; the smallest difference this run would have called a divergence, the median over its points: ${parts.join(', ')}.`;
}

/**
 * The title, the run's description, then its answer — the verdict count, how close sim and real came, what
 * that rests on — the calibration lines, and the run's notes.
 */
export function headerBlocks(a: RunAnalysis): Block[] {
  const mf = a.manifest.raw;
  const m = a.manifest.matrix;
  const machine = mf.machine
    ? `${mf.machine.cpus ?? '?'} CPUs, ${mf.machine.memGiB ?? '?'} GiB, ${mf.machine.os ?? '?'}, host ${mf.machine.hostname ?? '?'}`
    : 'unknown';
  const hosts =
    mf.hosts === 'local' || mf.hosts === undefined
      ? 'local (everything on this machine)'
      : 'separate hosts (see manifest.json)';
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: reportTitle(a) },
    {
      kind: 'paragraph',
      text: `Matrix \`${m.name}\`: ${m.configs.length} configurations × ${m.loads.length} loads × ${m.cancellation.length} cancellation modes × ${m.seeds.length} seeds, ${m.calls} calls per point (the first ${Math.round(m.warmupFraction * 100)} % not measured), ${m.model.workers} workers. Created ${mf.createdAt ?? '?'}, finished ${mf.finishedAt ?? 'not finished'}; git ${mf.gitCommit ?? 'unknown'}; Node ${mf.node ?? '?'}; machine: ${machine}; hosts: ${hosts}.`,
    },
    { kind: 'paragraph', text: `**${formatSummaryLine(a.summary)}**` },
    {
      kind: 'paragraph',
      text: `**${agreementLine(
        a.points.flatMap((p) => p.rows),
        a.margins,
      )}**`,
    },
    { kind: 'paragraph', text: restsOnLine(a) },
    ...calibrationLines(a).map((line): Block => ({ kind: 'paragraph', text: `**${line}**` })),
  ];
  const done = a.points.filter((p) => p.entry.state === 'done').length;
  if (done < a.points.length || a.notes.length > 0) {
    blocks.push({
      kind: 'paragraph',
      text: `${done} of ${a.points.length} points were measured. Things to know about this run:`,
    });
    blocks.push({ kind: 'list', items: a.notes.length > 0 ? a.notes : ['some points were not measured'] });
  }
  return blocks;
}

/** The title of a run's report (report.md's heading, report.html's <title>). */
export function reportTitle(a: RunAnalysis): string {
  return `hedgebench report — ${a.manifest.run}`;
}
