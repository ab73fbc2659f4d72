// The report's section on tied requests (docs/replicas.md): tied, hedged, two-choices and unhedged points at each
// load side by side, p99.9 with the extra work each costs (`extra_service_share`), simulated and measured; then
// what each tied point's peer cancels did on the real clock and how long one took between the servers. Absent
// when the run has no tied point, so other reports stay as they were.

import { formatLoad, type PointRow, percentileOfSorted } from '../../contract/index.ts';
import { peerCancelCopies } from '../../model/index.ts';
import type { PointAnalysis } from '../judge/point-analysis.ts';
import { configLabel } from '../judge/point-label.ts';
import { everyPoint, type RunAnalysis } from '../judge/run-analysis.ts';
import { DASH, ms, POINT_ID_HEAD, pct } from './report-cells.ts';
import type { Block } from './report-doc.ts';
import { studyTables } from './study-tables.ts';

/** One side's cell: `p99.9 · extra work`, or `collapse`. */
function tiedCell(row: PointRow | undefined): string {
  if (!row) return DASH;
  if (row.collapsed) return 'collapse';
  return `${ms(row.p999_ms)} · ${pct(row.extra_service_share, 1)}`;
}

/** The section, or nothing when no configuration of the run is tied. */
export function tiedBlocks(a: RunAnalysis): Block[] {
  const m = a.manifest.matrix;
  if (!m.configs.some((c) => c.tied !== undefined)) return [];
  const tied = everyPoint(a).filter(
    (p): p is PointAnalysis & { tied: NonNullable<PointAnalysis['tied']> } => p.tied !== null,
  );
  const head = [
    ...POINT_ID_HEAD,
    'cancels sent',
    'removed',
    'dropped on arrival',
    'too late',
    'calls both ran',
    'failed',
    'transit p50 ms',
    'transit p99 ms',
  ];
  const rows = tied.map((p) => {
    const c = p.tied.counts;
    const s = Float64Array.from(p.tied.transitMs).sort();
    const q = (x: number) => (s.length > 0 ? ms(percentileOfSorted(s, x)) : DASH);
    return [
      configLabel(p),
      formatLoad(p.id.load),
      p.id.cancellation,
      String(p.id.seed),
      String(c.sent),
      String(c.removed),
      String(c.droppedOnArrival),
      String(c.tooLate),
      String(c.callsBothRan),
      c.failed === null ? DASH : String(c.failed),
      q(50),
      q(99),
    ];
  });
  const copies = Math.max(...m.configs.map(peerCancelCopies));
  return [
    { kind: 'heading', level: 2, text: 'Tied requests' },
    {
      kind: 'paragraph',
      text: "Each cell is `p99.9 ms · extra work` (`extra_service_share`: service of the attempts that did not win their call over all service, measured calls), simulated and measured, for every configuration of the run: tied, hedged, unhedged, and each on its balancer (`two-choices` in the label). A tied call's copies cost no service when a peer cancel removes one from its queue or drops it on arrival; a hedge's losers cost what they ran. The simulated cells are the pure model's (its peer cancel takes no time); the comparison judges a tied point whose own trips sim+net replayed against the model run on them, the measurement whole — which copy runs is a race the harness decides (results/README.md, comparison.csv).",
    },
    ...studyTables(a, (p) => (p ? [tiedCell(p.sim), tiedCell(p.real)] : [DASH, 'not planned'])),
    ...(rows.length === 0
      ? []
      : ([
          {
            kind: 'paragraph',
            text: `What the peer cancels of each tied point's measured calls did on the real clock, from the target servers' attempt records: cancels sent (every copy that started cancels its ${copies - 1 === 1 ? 'sibling' : 'siblings'}), copies removed from their queue, copies dropped on arrival (the cancel came first), cancels too late (their copy had started, after the sender's: both ran), calls of which more than one copy ran, cancels that failed on their way (every call, the targets' /stats), and the cancel's transit from the server that sent it to the copy's server (epoch clocks of the two processes, so across machines only as good as their clock sync; model ms; attribution.csv part \`tie_cancel\`).`,
          },
          { kind: 'table', head, rows, align: head.map((_, i) => (i >= 4 ? 'right' : 'left')) },
        ] as Block[])),
  ];
}
