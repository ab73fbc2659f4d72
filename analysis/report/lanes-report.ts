// The report's section on a run measured on several lanes (points in parallel): which lane measured each
// point and on which hosts, since lanes are different machines. Absent with one lane. Pure: the analysis
// in, blocks out.

import { formatLoad } from '../../contract/index.ts';
import { configLabel } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { stealPercent } from '../judge/steal.ts';
import { ms, POINT_ID_HEAD } from './report-cells.ts';
import type { Block } from './report-doc.ts';

interface LaneHosts {
  target?: { address?: string } | { address?: string }[];
  loadgen?: { address?: string };
}

/** "target 198.18.0.2, load generator 198.18.0.3" from the manifest's hosts, or "this machine". */
function hostsOf(hosts: unknown, lane: number): string {
  const lanes = (hosts as { lanes?: (LaneHosts | null)[] } | undefined)?.lanes;
  if (!Array.isArray(lanes)) return 'this machine';
  const l = lanes[lane];
  if (!l) return 'unknown';
  const targets = (Array.isArray(l.target) ? l.target : [l.target]).map((t) => t?.address ?? '?');
  return `target ${targets.join(', ')}, load generator ${l.loadgen?.address ?? '?'}`;
}

/** The heading, how to read it and the per-point table; nothing when the run had one lane. */
export function lanesBlocks(a: RunAnalysis): Block[] {
  const lanes = a.manifest.raw.lanes;
  if (lanes === undefined || lanes < 2) return [];
  const all = everyPoint(a);
  const head = [...POINT_ID_HEAD, 'lane', 'hosts', 'state', 'real p99 ms'];
  const rows = all.map((p) => [
    configLabel(p),
    formatLoad(p.id.load),
    p.id.cancellation,
    String(p.id.seed),
    p.entry.lane === undefined ? '—' : String(p.entry.lane),
    p.entry.lane === undefined ? '—' : hostsOf(a.manifest.raw.hosts, p.entry.lane),
    p.entry.state,
    ms(p.real?.p99_ms ?? null),
  ]);
  const used = new Set(all.map((p) => p.entry.lane).filter((l) => l !== undefined));
  const cpu = a.manifest.raw.cpu;
  const cpuText =
    cpu === undefined
      ? ''
      : ` The machine the run was started on kept ${cpu.busyCores.toFixed(2)} of its ${cpu.cores} cores busy on average over the ${Math.round(cpu.seconds)} s of points, about ${(cpu.busyCores / lanes).toFixed(2)} a lane (everything on it counts).${cpu.stealShare ? ` Its hypervisor took ${stealPercent(cpu.stealShare)} of its CPU time (steal), which delays every timer of the harness at once.` : ''}`;
  return [
    { kind: 'heading', level: 2, text: 'Lanes' },
    {
      kind: 'paragraph',
      text: `The run measured ${lanes} points at a time, one per lane (its own target and load generator; Redis shared); ${used.size} of the ${lanes} lanes measured points. Points of different lanes ran on different machines, or on one machine's shared cores when the lanes were made there (\`--lanes\`, or a lab): compare such points with care, since each lane's load took CPU from the others'.${cpuText}`,
    },
    { kind: 'table', head, rows, align: head.map((_, i) => (i === 7 ? 'right' : 'left')) },
  ];
}
