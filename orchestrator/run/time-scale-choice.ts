// `timeScale: "auto"`: the smallest k of a fixed ladder at which this machine's own harness delays,
// in wall-clock ms, fall under the fidelity thresholds in model time with room to spare — room for the
// reading itself and for the run-to-run drift of this host, so that the run the choice is for can hold it.

import { type RealPoint, roundTrips } from '../../analysis/index.ts';
import { percentileOf } from '../../contract/index.ts';
import { type FidelityThresholds, TIME_SCALE_LADDER } from '../../model/index.ts';

/** A delay at k must sit at or below this share of its threshold (model ms), so noise does not tip it. */
export const AUTO_MARGIN = 0.8;

/**
 * How far one probe's reading moves from run to run on one machine with the host quiet, as a factor either
 * side of the middle: the square root of the spread between the lowest and highest of several readings
 * (bench/RESULTS.md, '"auto": how steady the time-scale choice is'). The choice must hold for the run after
 * the probe, which may read that much higher: k is chosen for a reading this many times the probe's.
 */
const AUTO_HOST_DRIFT = 1.7;

/** The harness's own delays as the auto probe measured them, wall-clock ms (null = not measured). */
export interface HarnessDelays {
  sendLagP99Ms: number | null;
  transitP99Ms: number | null;
  holdOvershootP99Ms: number | null;
  responseDelayP99Ms: number | null;
}

/** What "auto" chose, and why. */
export interface TimeScaleChoice {
  k: number;
  delays: HarnessDelays;
  /** One line with the evidence, e.g. `time scale 5: transit p99 here 9.8 ms = 2.0 model-ms …`. */
  reason: string;
  /** False when even the ladder's largest k leaves a delay above its margin. */
  quiet: boolean;
  /**
   * Set when the probe's reading alone would have allowed a smaller k than the one chosen for a reading
   * AUTO_HOST_DRIFT times higher: that smaller k (a run at it would fail its checks on a worse minute).
   */
  readingK?: number;
  /** How many lanes the probe measured at once; `delays` is the worst of them. */
  lanes: number;
  /** The share of the CPU the hypervisor took during the probe that decided (steal, /proc/stat). */
  stealShare?: number;
}

const CHECKS = [
  ['sendLagP99Ms', 'send lag'],
  ['transitP99Ms', 'transit'],
  ['holdOvershootP99Ms', 'hold overshoot'],
  ['responseDelayP99Ms', 'response delay'],
] as const;

/** Each delay's worst over the probe's lanes (null where no lane measured it). */
export function worstDelays(ds: readonly HarnessDelays[]): HarnessDelays {
  const worst = (f: keyof HarnessDelays) => {
    const v = ds.map((d) => d[f]).filter((x): x is number => x !== null);
    return v.length === 0 ? null : Math.max(...v);
  };
  return Object.fromEntries(CHECKS.map(([f]) => [f, worst(f)])) as unknown as HarnessDelays;
}

/**
 * The harness delays of the auto probe, a real point measured at time scale `k`, back in wall-clock ms (its
 * figures are read in model ms, wall ÷ k): the harness's delays are fixed in wall ms, whatever k a run takes.
 */
export function harnessDelays(p: RealPoint, k: number): HarnessDelays {
  const check = p.status?.target_check;
  const wall = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v * k : null);
  return {
    sendLagP99Ms: wall(p.row.send_lag_p99_ms),
    transitP99Ms:
      p.attribution && p.attribution.n > 0 ? wall(percentileOf(roundTrips(p.attribution), 99)) : null,
    holdOvershootP99Ms: wall(check?.holdErrorMs?.p99),
    responseDelayP99Ms: wall(check?.responseDelayMs?.p99),
  };
}

/**
 * The smallest ladder k at which every delay × AUTO_HOST_DRIFT ÷ k ≤ AUTO_MARGIN × its threshold (else the
 * largest k); `lanes` is how many lanes the delays were measured on at once (the worst of them, worstDelays).
 */
export function chooseTimeScale(d: HarnessDelays, t: FidelityThresholds, lanes = 1): TimeScaleChoice {
  const fits = (k: number, drift = 1) =>
    CHECKS.every(([f]) => d[f] === null || ((d[f] as number) * drift) / k <= AUTO_MARGIN * t[f]);
  const found = TIME_SCALE_LADDER.find((k) => fits(k, AUTO_HOST_DRIFT));
  const largest = TIME_SCALE_LADDER[TIME_SCALE_LADDER.length - 1];
  const k = found ?? largest;
  const bare = TIME_SCALE_LADDER.find((k) => fits(k)) ?? largest;
  const readingK = bare < k ? bare : undefined;
  // The evidence: the delay that needs the largest k, in wall and model ms, against its threshold.
  const worst = CHECKS.filter(([f]) => d[f] !== null).sort(
    ([a], [b]) => (d[b] as number) / t[b] - (d[a] as number) / t[a],
  )[0];
  const why =
    worst === undefined
      ? 'no harness delay was measured'
      : `${worst[1]} p99 here ${(d[worst[0]] as number).toFixed(1)} ms = ${((d[worst[0]] as number) / k).toFixed(2)} model-ms (${((AUTO_HOST_DRIFT * (d[worst[0]] as number)) / k).toFixed(2)} at a ${AUTO_HOST_DRIFT}× higher reading) against fidelity.${worst[0]} = ${t[worst[0]]} ms`;
  const of = lanes > 1 ? `, the worst of ${lanes} lanes measured at once` : '';
  const above =
    found === undefined
      ? ` (at a ${AUTO_HOST_DRIFT}× higher reading still above ${AUTO_MARGIN * 100} % of it at the ladder's largest k)`
      : '';
  const near =
    readingK === undefined
      ? ''
      : `; the reading alone would allow ${readingK}, but this machine may read ${AUTO_HOST_DRIFT}× higher on the run that follows, and ${k} holds that too`;
  return {
    k,
    delays: d,
    quiet: found !== undefined,
    ...(readingK === undefined ? {} : { readingK }),
    lanes,
    reason: `time scale ${k}: ${why}${of}${above}${near}`,
  };
}
