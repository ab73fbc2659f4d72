// The equivalence margins of the verdict (a matrix's `margins`): how far the measurement may sit from the
// simulation, per compared metric, for the two to be called the same — and the caps no matrix may widen them
// past. A latency margin is a fraction of the simulated value (never under LATENCY_MARGIN_FLOOR_MS); a rate's
// is absolute. results/README.md says why each cap is what it is; analysis/judge/equivalence.ts applies them;
// the metric table (contract/metric-table.ts, above model/) names each cap beside the metric's other
// attributes.

import { z } from 'zod';

/** The widest margin of each metric, which is also its default. */
export const MARGIN_CAPS = Object.freeze({
  p50: 0.02,
  p99: 0.03,
  'p99.9': 0.05,
  requests_per_call: 0.01,
  hedge_rate: 0.01,
  utilization: 0.01,
  rejected_rate: 0.005,
});

/** A metric that has a margin (every compared metric but collapse, which is a yes or no). */
export type MarginMetric = keyof typeof MARGIN_CAPS;

/** Each metric's margin. */
export type Margins = Record<MarginMetric, number>;

/** The latency metrics (the metric table's in ms; test/contract/metric-table.test.ts holds both together). */
const RELATIVE: ReadonlySet<string> = new Set(['p50', 'p99', 'p99.9']);

/** No latency margin is narrower than this, in model ms (a fraction of a fast percentile would be noise). */
export const LATENCY_MARGIN_FLOOR_MS = 0.1;

/** Whether a metric's margin is a fraction of the simulated value (latency) rather than absolute (rates). */
export function isRelativeMargin(metric: MarginMetric): boolean {
  return RELATIVE.has(metric);
}

function marginField(metric: MarginMetric) {
  const cap = MARGIN_CAPS[metric];
  const what = isRelativeMargin(metric)
    ? `a fraction of the simulated value: ${cap} = ${cap * 100} %`
    : `an absolute difference, e.g. ${cap}`;
  return z
    .number({ invalid_type_error: `must be a number (${what})` })
    .positive(`must be > 0 (${what}); a margin of 0 could never be met`)
    .max(
      cap,
      `must be ≤ ${cap} (${what}): a wider margin would call results the same that this harness can tell apart`,
    )
    .optional();
}

/** The matrix's `margins`: any of the metrics, each in (0, cap]. */
export const marginsSchema = z
  .object(
    Object.fromEntries(
      (Object.keys(MARGIN_CAPS) as MarginMetric[]).map((m) => [m, marginField(m)]),
    ) as Record<MarginMetric, ReturnType<typeof marginField>>,
  )
  .strict();

/** Every metric's margin: the matrix's where it gives one, the cap elsewhere. */
export function resolveMargins(given: Partial<Margins> | undefined): Margins {
  return { ...MARGIN_CAPS, ...given };
}
