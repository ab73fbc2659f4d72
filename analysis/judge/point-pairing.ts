// A measured point set against a simulation of the same calls: the differences the verdict judges (paired
// by call, or as two independent samples for a foreign service) and what the harness's own parts added.

import {
  LATENCY_METRICS,
  type LatencyMetric,
  percentileOf,
  percentileOfSorted,
  type SimCalls,
} from '../../contract/index.ts';
import { type CallTable, okLatencies, realCallTable, simCallTable } from './call-table.ts';
import { type PointDiffs, pairedDiffs, unpairedDiffs } from './paired-comparison.ts';
import type { RealPoint } from './real-row.ts';

/** What pairing a point with a simulation gives. */
interface PairedPoint {
  diffs: PointDiffs;
  /** real − real′ at each latency percentile: what the harness's parts added (absent: not subtracted). */
  harness: Partial<Record<LatencyMetric, number>>;
  /** Ok calls whose latency could not be split and were compared whole. */
  unsplit: number;
}

/** How to set the measurement against the simulation. */
interface PairingMode {
  /** The service draws its own service times (a foreign target): two independent samples, nothing split. */
  independent: boolean;
  /** Take each call's harness parts out of the measurement (against sim); false against sim+net. */
  harnessFree: boolean;
}

/** Utilisation per unit of mean worker time per call: calls ÷ (workers × the measured span); null without a span. */
function utilScale(t: CallTable, intendedMs: Float64Array, workers: number): number | null {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const x of intendedMs) {
    if (x < first) first = x;
    if (x > last) last = x;
  }
  const span = last - first;
  return t.n > 1 && span > 0 ? t.n / (workers * span) : null;
}

/** The measured point `rp` against `sim`'s calls; `workers` = every worker of the service (R pools). */
export function pairPoint(rp: RealPoint, sim: SimCalls, workers: number, mode: PairingMode): PairedPoint {
  const harnessFree = mode.harnessFree && !mode.independent;
  const real = realCallTable(rp.calls, rp.attempts, rp.attribution, harnessFree);
  const simTable = simCallTable(sim);
  const diffs = mode.independent
    ? unpairedDiffs(real, simTable)
    : pairedDiffs(real, simTable, utilScale(real, rp.calls.intendedMs, workers));
  const harness: Partial<Record<LatencyMetric, number>> = {};
  if (harnessFree) {
    const free = okLatencies(real).latencyMs;
    for (const m of LATENCY_METRICS) {
      if (free.length > 0 && rp.okLatencies.length > 0)
        harness[m.name] = percentileOfSorted(rp.okLatencies, m.percentile) - percentileOf(free, m.percentile);
    }
  }
  return { diffs, harness, unsplit: real.unsplit };
}
