// What runPoint (run-point.ts) takes and gives back: the knobs of one simulation and what the simulator
// says about the point.

import type { AttemptRecord, CollapseEvidence, PointRow, SimCalls } from '../contract/index.ts';
import type { CallState } from '../library/index.ts';
import type { Perturbation, PoolStats, TransportParams } from '../model/index.ts';
import type { PeerCancelCounts } from './tied-calls.ts';

/** Knobs of one simulation (defaults suit the reference study). */
export interface RunPointOptions {
  /**
   * Memory guard: when an arrival finds more attempts than this queued or in service, no further calls
   * arrive, the point is marked collapsed and truncated, and the calls already started run to the end.
   */
  maxInFlight?: number;
  /** Sees every attempt as it ends (in-process only: a function cannot cross to a worker thread). */
  onAttempt?: (r: AttemptRecord) => void;
  /** Sees every measured call as it ends, with its latency (in-process only, like onAttempt). */
  onCall?: (state: CallState, latencyMs: number) => void;
  /**
   * The network between client and server (model/transport-delays.ts). Absent: every trip is instant and the row's
   * source is `sim`; present: trips take their drawn delays and the row's source is `sim+net`.
   */
  transport?: TransportParams;
  /** Keep every measured call's record (SimResult.calls): the verdict pairs them with the real calls. */
  callRecords?: boolean;
  /**
   * Serve the calls as a perturbed target would (model/perturb.ts): what the report's sensitivity section asks
   * of the simulator, to say which points a perturbation moves. A point's own `perturb` is never read here.
   */
  perturb?: Perturbation;
}

/** What the simulator says about one point. */
export interface SimResult {
  key: string;
  row: PointRow;
  collapse: CollapseEvidence;
  /** True when the memory guard stopped arrivals early (then collapsed is true too). */
  truncated: boolean;
  /** Calls that arrived (all of them unless truncated). */
  arrived: number;
  /** The pool's counters over the whole point (warm-up included), summed over replicas. */
  pool: PoolStats;
  /** With more than one replica: each replica's counters and its utilisation by measured calls. */
  replicas?: { pool: PoolStats; utilization: number | null }[];
  /** Simulated time at the end of the point (last attempt ended), ms. */
  simulatedMs: number;
  /** Timer events the clock fired. */
  events: number;
  /** Mean queue wait of the attempts of measured calls that reached a worker, ms (exact, not from a histogram). */
  meanWaitMs: number;
  /** Attempts of measured calls that reached a worker. */
  startedMeasured: number;
  /**
   * Service time of the attempts of measured calls that did not win their call, over all their service time
   * (hedges' and tied copies' losers, served or cut short); null when no attempt was served.
   */
  extraServiceShare: number | null;
  /** A tied point whose copies cancel each other on start (model/tied.ts): what its peer cancels did. */
  tied?: PeerCancelCounts;
  /** Every measured call that arrived, in call order, model ms (only with `callRecords`). */
  calls?: SimCalls;
}
