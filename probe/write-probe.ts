// Writes a probe's folder: model.json only when the probe completed (a stopped probe writes its report
// marked INCOMPLETE and the steps it measured, never a model that looks finished).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSvg } from '../analysis/index.ts';
import type { ProbeError } from './errors.ts';
import {
  chartSpec,
  formatModelJson,
  formatPartialReport,
  formatProbeReport,
  formatServiceQuantilesCsv,
  formatStepsCsv,
} from './probe-formats.ts';
import type { ProbeResult, RampStep } from './probe-result.ts';

/** Files written, by name. */
export const PROBE_FILES = {
  model: 'model.json',
  report: 'probe.md',
  steps: 'steps.csv',
  chart: 'latency-vs-rate.svg',
  quantiles: 'service-quantiles.csv',
} as const;

/** Writes a complete probe's files into `out` (created); returns their paths. */
export async function writeProbe(out: string, r: ProbeResult): Promise<string[]> {
  mkdirSync(out, { recursive: true });
  const svg = await renderSvg(chartSpec(r) as Parameters<typeof renderSvg>[0]);
  const files: [string, string][] = [
    [PROBE_FILES.report, formatProbeReport(r)],
    [PROBE_FILES.steps, formatStepsCsv(r.steps, r)],
    [PROBE_FILES.chart, svg],
    [PROBE_FILES.quantiles, formatServiceQuantilesCsv(r)],
    // Last: a model.json on disk means every other file is there too.
    [PROBE_FILES.model, formatModelJson(r)],
  ];
  for (const [name, text] of files) writeFileSync(join(out, name), text);
  return files.map(([name]) => join(out, name));
}

/** Writes what a stopped probe measured (no model.json); returns the paths. */
export function writePartialProbe(out: string, target: string, err: ProbeError): string[] {
  mkdirSync(out, { recursive: true });
  const steps = ((err.partial.data as { steps?: RampStep[] } | undefined)?.steps ?? []) as RampStep[];
  const files: [string, string][] = [
    [PROBE_FILES.report, formatPartialReport(target, err.code, err.message, err.partial)],
  ];
  if (steps.length > 0) files.push([PROBE_FILES.steps, formatStepsCsv(steps)]);
  for (const [name, text] of files) writeFileSync(join(out, name), text);
  return files.map(([name]) => join(out, name));
}
