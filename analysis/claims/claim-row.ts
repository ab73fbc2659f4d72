// What a claim reads: a points.csv row of any source (sim, real, sim+net, …) with, where a raw sample
// exists, the 95 % interval of its latency percentiles, and what is known about its collapse verdict.

import type { ClaimVerdict, LatencyColumn, PointRow } from '../../contract/index.ts';
import type { CallSample } from '../judge/block-bootstrap.ts';

/** The latency columns a claim may compare: the compared latency metrics' (contract/metric-table.ts). */
export type { LatencyColumn };

/** A percentile's 95 % interval as comparison.csv writes it: null end = open (the sample cannot bound it). */
interface ClaimInterval {
  low: number | null;
  high: number | null;
}

/**
 * One row a claim reads. `source` is any string, so a source added later (`sim+net`) needs no change here.
 * `ci` absent for a column: the value is taken as exact (a simulated row keeps no sample; its sampling
 * error shows as the spread between seeds, which the claims report).
 */
export type ClaimRow = Omit<PointRow, 'source'> & {
  source: string;
  ci?: Partial<Record<LatencyColumn, ClaimInterval>>;
  /** Set when the collapse criterion could not decide (e.g. too few samples): the row's `collapsed` is no evidence. */
  collapseUndecided?: string;
  /**
   * A real point's measured successful calls, read when a check first asks (null: unreadable). Two rows
   * that both have one are compared paired by call (block-bootstrap.ts), not by their own intervals.
   */
  sample?: () => CallSample | null;
};

/** The three verdicts of a claim (claims.csv's, so contract/claims-csv.ts owns the names). */
export type { ClaimVerdict };

/** One claim judged on one source: a claims.csv line. */
export interface ClaimResult {
  claim: number;
  source: string;
  verdict: ClaimVerdict;
  /** The figures and intervals used, `; `-separated. */
  evidence: string;
  /** One sentence: the verdict and why (the missing or invalid points named when inconclusive). */
  summary: string;
  /**
   * Each seed's verdict and notes, and the checks it could decide (holds or fails) — what the rows do show
   * of a claim they cannot decide whole (not claims.csv columns: the summary and evidence say them).
   */
  perSeed: { seed: number; verdict: ClaimVerdict; notes: string[]; decided: string[] }[];
}
