// The report's section on points measured by several load generators (`clients: K`): each client's share
// of the calls, its requests per call and hedge rate (each client has its own budget and limit), and its
// own self-check. Absent when every point had one load generator. Pure: the analysis in, blocks out.

import { formatLoad } from '../../contract/index.ts';
import { configLabel } from '../judge/point-label.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import { fixed, ms, POINT_ID_HEAD, pct } from './report-cells.ts';
import type { Block } from './report-doc.ts';

/** The heading, how to read it and the table; nothing when no point had several clients. */
export function clientsBlocks(a: RunAnalysis): Block[] {
  const split = a.points.filter((p) => p.clients !== undefined && p.clients.length > 0);
  if (split.length === 0) return [];
  const head = [
    ...POINT_ID_HEAD,
    'client',
    'measured calls',
    'requests/call',
    'hedge rate',
    'p99 ms',
    'send-lag p99 ms',
    'self-check',
  ];
  const rows = split.flatMap((p) =>
    p.clients!.map((c) => [
      configLabel(p),
      formatLoad(p.id.load),
      p.id.cancellation,
      String(p.id.seed),
      `${c.client} of ${p.clients!.length}`,
      String(c.measuredCalls),
      fixed(c.requestsPerCall, 3),
      pct(c.hedgeRate),
      ms(c.p99Ms),
      ms(c.sendLagP99Ms),
      c.selfCheckPassed === null
        ? 'unknown'
        : c.selfCheckPassed
          ? 'passed'
          : `FAILED: ${c.reasons.join('; ') || 'no reason recorded'}`,
    ]),
  );
  return [
    { kind: 'heading', level: 2, text: 'Load generators per point' },
    {
      kind: 'paragraph',
      text: "A point with `clients: K` was measured by K load-generator processes: client i sent the calls whose index mod K is i, through its own pipeline (its own hedge budget and adaptive limit), as K independent clients would. The point's rows above are over all its calls; here is each client's share. Each client's self-check judges its own sends (send lag, its rate, Erlang(K) gaps); the point is valid only if every client's passed.",
    },
    { kind: 'table', head, rows, align: head.map((_, i) => (i >= 5 && i <= 9 ? 'right' : 'left')) },
  ];
}
