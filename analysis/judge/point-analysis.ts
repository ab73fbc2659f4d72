// What the analysis knows about one point of a run: its rows, intervals, reasons, timelines, attribution and
// comparison lines; and the blank a point starts from before its measurement is read.

import type {
  ClientFigures,
  CollapseEvidence,
  ComparisonRow,
  LatencyMetric,
  ManifestPoint,
  PointId,
  PointRow,
} from '../../contract/index.ts';
import type { ReplicaUse } from '../read/replica-use.ts';
import type { ServerTimeline } from '../read/server-timeline.ts';
import type { TiedFigures } from '../read/tied-figures.ts';
import type { Attribution } from './attribution.ts';
import type { RealIntervals } from './compare.ts';
import type { PointDiffs } from './paired-comparison.ts';
import type { RealPoint } from './real-row.ts';

/** Everything known about one point of the run. */
export interface PointAnalysis {
  entry: ManifestPoint;
  key: string;
  id: PointId;
  sim?: PointRow;
  real?: PointRow;
  /** Where the real row came from: recomputed from raw files, read from points.csv, or nowhere. */
  realSource: 'raw' | 'points.csv' | 'none';
  /**
   * The point's raw files as real-row.ts read them (model time), kept where a later step reads the calls
   * themselves: a calibration point (sim+net's transport) and a collapsed one (its chart); null elsewhere,
   * since at 200 000 calls a point's calls and attempts take about 30 MB.
   */
  raw: RealPoint | null;
  intervals: RealIntervals | null;
  /** measured − simulated per metric with its interval, paired by call; null when not computed. */
  diffs: PointDiffs | null;
  /** What the harness's parts added at each latency percentile (real − real′); absent = not split. */
  harness?: Partial<Record<LatencyMetric, number>>;
  /** Ok calls whose latency the attribution could not split, compared whole (the verdict says how many). */
  invalidReasons: string[];
  collapseReasons: string[];
  /** In-flight attempts over time from the generator's status.json, [t_ms, count]; empty when unknown. */
  inflightTimeline: [number, number][];
  /** Queue and in-flight over the point from the server's records (or the generator's samples); null if unknown. */
  timeline: ServerTimeline | null;
  /** The collapse criterion's evidence on the real side; null when there is no timeline. */
  collapse: CollapseEvidence | null;
  /** Where the real calls' latency went; null without raw attempt records. */
  attribution: Attribution | null;
  /** Each load generator's figures when several measured the point (`clients: K`); absent with one. */
  clients?: ClientFigures[];
  /** Each replica's measured use when the point has several; null otherwise. */
  replicas: ReplicaUse[] | null;
  /** A tied point's peer cancels and their transits (analysis/read/tied-figures.ts); null otherwise. */
  tied: TiedFigures | null;
  rows: ComparisonRow[];
  /** The simulator with the run's measured transport (sim-net.ts); absent when not computed. */
  simNet?: PointRow;
  /** simNet replayed this point's own measured trips (a tied point: tie-replay.ts) rather than drawing them. */
  simNetReplayed?: boolean;
  /** This point's comparison lines against sim+net. */
  simNetRows: ComparisonRow[];
  /** measured − sim+net per metric, paired by call with the measurement whole; absent when not computed. */
  simNetDiffs?: PointDiffs;
  /** A foreign service: client-side metrics, intervals for two independent samples (compare.ts). */
  clientSide?: boolean;
}

/** A point as known before its measurement is read: the entry, its key and id, and its sim row if any. */
export function pointWithoutMeasurement(
  entry: ManifestPoint,
  key: string,
  id: PointId,
  sim: PointRow | undefined,
): PointAnalysis {
  return {
    entry,
    key,
    id,
    sim,
    real: undefined,
    realSource: 'none',
    raw: null,
    intervals: null,
    diffs: null,
    invalidReasons: [],
    collapseReasons: [],
    inflightTimeline: [],
    timeline: null,
    collapse: null,
    attribution: null,
    replicas: null,
    tied: null,
    rows: [],
    simNetRows: [],
  };
}
