// The report's Charts section, and what a chart is to the report: its file, caption and kind. Shared by a
// run's report and a simulation's (sim-report.ts).

import type { Block } from './report-doc.ts';

/** A chart the report shows: its path relative to the run folder and its caption. */
export interface ChartRef {
  file: string;
  title: string;
  kind: 'agreement' | 'latency' | 'collapse' | 'attribution' | 'time-scale';
}

/** The Charts section: how to read the latency charts, then every chart (or why there is none). */
export function chartBlocks(charts: readonly ChartRef[], simulationOnly = false): Block[] {
  if (charts.length === 0) return [{ kind: 'paragraph', text: 'No chart: no point has data yet.' }];
  const how = simulationOnly
    ? "Latency charts share one log scale; ▲ at the top of a chart marks a load where the simulation collapsed; each seed has its own shape. In report.html, hovering a mark shows the point's figures."
    : "Latency charts share one log scale. Filled marks are simulated or valid measurements; a hollow grey mark is a measurement that failed its self-check (the legend names why), a hollow mark with a dashed bar an interval the sample cannot bound above; ▲ at the top of a chart marks a load where a side collapsed. Each seed has its own shape. In report.html, hovering a mark shows the point's figures.";
  return [
    { kind: 'paragraph', text: how },
    ...charts.map((c): Block => ({ kind: 'chart', file: c.file, title: c.title })),
  ];
}
