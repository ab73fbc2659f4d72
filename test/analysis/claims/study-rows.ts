// Synthetic rows shaped like the reference study's simulation (seed 1, 200 000 calls, rounded): a set on
// which every claim holds, for tests to break one figure at a time.

import type { ClaimRow } from '../../../analysis/claims/index.ts';

type Mode = 'ignore' | 'propagate';

/** A row with neutral defaults; `o` sets what the test is about. */
export function row(config: string, load: number, cancellation: Mode, o: Partial<ClaimRow> = {}): ClaimRow {
  return {
    config,
    load,
    cancellation,
    seed: 1,
    source: 'sim',
    calls: 200_000,
    measured_calls: 180_000,
    p50_ms: 10.3,
    p90_ms: 13,
    p99_ms: 204,
    p999_ms: 289,
    max_ms: 300,
    mean_ms: 14.1,
    requests_per_call: 1,
    hedge_rate: 0,
    skipped_rate: 0,
    rejected_rate: 0,
    failed_rate: 0,
    utilization: load,
    collapsed: false,
    send_lag_p99_ms: null,
    valid: true,
    ...o,
  };
}

const LOADS = [0.3, 0.5, 0.7, 0.85, 0.95];
const COLLAPSE = { collapsed: true, p99_ms: 9000, p999_ms: 9500 };

/** p99 / p99.9 / requests per call / rejected, cancellation ignore, by config and load (seed 1 rounded). */
const IGNORE: Record<string, Record<number, Partial<ClaimRow>>> = {
  'no hedge': {
    0.3: { p99_ms: 204, p999_ms: 289 },
    0.5: { p50_ms: 10.1, p90_ms: 14.3, p99_ms: 204, p999_ms: 289 },
    0.7: { p99_ms: 204, p999_ms: 290 },
    0.85: { p50_ms: 11.8, p90_ms: 27.4, p99_ms: 208, p999_ms: 294 },
    0.95: { p99_ms: 260, p999_ms: 351 },
  },
  'hedge, no budget': {
    0.3: { p99_ms: 30.1, p999_ms: 36.3, requests_per_call: 1.0228 },
    0.5: { p99_ms: 72.4, p999_ms: 158, requests_per_call: 1.04 },
    0.7: { ...COLLAPSE, requests_per_call: 2 },
    0.85: { ...COLLAPSE, requests_per_call: 2 },
    0.95: { ...COLLAPSE, requests_per_call: 2 },
  },
  'hedge, default budget': {
    0.3: { p99_ms: 30.1, p999_ms: 36.3, requests_per_call: 1.0228 },
    0.5: { p99_ms: 31, p999_ms: 48.7, requests_per_call: 1.026, hedge_rate: 0.028 },
    0.7: { p99_ms: 350, p999_ms: 493, requests_per_call: 1.0754 },
    0.85: { p99_ms: 441, p999_ms: 542, requests_per_call: 1.0982, hedge_rate: 0.1018 },
    0.95: { ...COLLAPSE, requests_per_call: 1.1009 },
  },
  'hedge, budget 5 %': {
    0.3: { p99_ms: 30.1, p999_ms: 36.3, requests_per_call: 1.0228 },
    0.5: { p99_ms: 30.6, p999_ms: 46.2, requests_per_call: 1.02 },
    0.7: { p99_ms: 128, p999_ms: 265, requests_per_call: 1.04 },
    0.85: { p99_ms: 190, p999_ms: 330, requests_per_call: 1.05 },
    0.95: { p99_ms: 1318, p999_ms: 1466, requests_per_call: 1.05 },
  },
  'hedge, default budget, adaptive limit': {
    0.3: { p99_ms: 30.1, p999_ms: 36.3, requests_per_call: 1.0228 },
    0.5: { p99_ms: 30.5, p999_ms: 40.7, requests_per_call: 1.02 },
    0.7: { p99_ms: 59, p999_ms: 263, requests_per_call: 1.05, rejected_rate: 0.014 },
    0.85: { p99_ms: 140, p999_ms: 291, requests_per_call: 1.04, rejected_rate: 0.04 },
    0.95: { p99_ms: 165, p999_ms: 306, requests_per_call: 1.01, rejected_rate: 0.077 },
  },
  '3 attempts, no budget': {
    0.3: { p99_ms: 30.1, p999_ms: 36.3, requests_per_call: 1.0228 },
    0.5: { ...COLLAPSE, requests_per_call: 2.67 },
    0.7: { ...COLLAPSE, requests_per_call: 3 },
    0.85: { ...COLLAPSE, requests_per_call: 3 },
    0.95: { ...COLLAPSE, requests_per_call: 3 },
  },
};

/** `hedge, default budget` at its swept delays (its own 20 ms is the row above), cancellation ignore. */
const SWEEP: { load: number; delay: number; o: Partial<ClaimRow> }[] = [
  { load: 0.5, delay: 5, o: { hedge_rate: 0.1018, p999_ms: 288 } },
  { load: 0.5, delay: 10, o: { hedge_rate: 0.1018, p999_ms: 286.7 } },
  { load: 0.5, delay: 40, o: { hedge_rate: 0.0206, p999_ms: 56 } },
  { load: 0.85, delay: 5, o: { hedge_rate: 0.101, p999_ms: 314.6 } },
  { load: 0.85, delay: 10, o: { hedge_rate: 0.101, p999_ms: 313.3 } },
  { load: 0.85, delay: 40, o: { hedge_rate: 0.1065, p999_ms: 651.8 } },
];

/** The delay sweep of claim 7 for one source and seed. */
export function sweepRows(source = 'sim', seed = 1): ClaimRow[] {
  return SWEEP.map(({ load, delay, o }) =>
    row('hedge, default budget', load, 'ignore', { source, seed, delay_ms: delay, ...o }),
  );
}

/**
 * Every point of the reference matrix for one source and seed, shaped like the study, plus the delay
 * sweep of claim 7: every claim holds.
 */
export function studyRows(source = 'sim', seed = 1): ClaimRow[] {
  const out: ClaimRow[] = [...sweepRows(source, seed)];
  for (const [config, byLoad] of Object.entries(IGNORE)) {
    for (const load of LOADS) out.push(row(config, load, 'ignore', { source, seed, ...byLoad[load] }));
  }
  for (const config of Object.keys(IGNORE)) {
    for (const load of LOADS) {
      const plain = config === 'no hedge';
      const p = plain
        ? IGNORE['no hedge'][load]
        : { p99_ms: 30.1 + (load === 0.95 ? 0.6 : 0), p999_ms: 36.3, requests_per_call: 1.02 };
      const utilization = plain ? load : Number((load * 0.79).toFixed(4));
      out.push(row(config, load, 'propagate', { source, seed, utilization, ...p }));
    }
  }
  return out;
}

const matches = (r: ClaimRow, config: string, load: number, cancellation: Mode, delay?: number) =>
  r.config === config &&
  r.load === load &&
  r.cancellation === cancellation &&
  (r.delay_ms ?? undefined) === delay;

/** Replaces the fields of one row (config, load, cancellation, and delay_ms if given) in a copy of `rows`. */
export function patch(
  rows: readonly ClaimRow[],
  config: string,
  load: number,
  cancellation: Mode,
  o: Partial<ClaimRow>,
  delay?: number,
): ClaimRow[] {
  return rows.map((r) => (matches(r, config, load, cancellation, delay) ? { ...r, ...o } : r));
}

/** A copy of `rows` without one point (the row without delay_ms unless `delay` is given). */
export function drop(
  rows: readonly ClaimRow[],
  config: string,
  load: number,
  cancellation: Mode,
  delay?: number,
): ClaimRow[] {
  return rows.filter((r) => !matches(r, config, load, cancellation, delay));
}
