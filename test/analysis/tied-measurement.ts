// The simulator as a tied point's measurement, for the tests of sim+net's replay (tie-replay.test.ts) and of
// the tied verdict (tied-verdict.test.ts): the point run behind a random network, each hold overshooting what
// its server intended, with what a target server would record of its peer cancels — when each took effect on
// the other copy's server, and what it did there.

import type { AttemptRecord, PeerCancelFate } from '../../contract/index.ts';
import {
  DEFAULT_MODEL,
  type Perturbation,
  type Point,
  peerCancelDelayMs,
  replayKey,
  type TransportParams,
  timeScaleOf,
} from '../../model/index.ts';
import { runPoint, type SimResult } from '../../simulator/index.ts';

/** Tied, gap 0 ms, at 0.85 on 2 replicas: its copies race, and a busy server decides some races by µs. */
export const TIED_POINT: Point = {
  config: { name: 'tied, gap 0 ms', tied: { gapMs: 0, budgetPercent: 0 } },
  load: 0.85,
  cancellation: 'ignore',
  seed: 1,
  calls: 4000,
  warmupFraction: 0.1,
  model: DEFAULT_MODEL,
  dims: { replicas: 2 },
};

// A network whose trips vary call by call about a few hundredths of a ms, as loopback's do on the dilated clock.
const LN = { kind: 'lognormal', medianMs: 0.03, sigma: 0.8 } as const;
export const NET: TransportParams = { request: LN, response: LN, cancel: LN };

/** Each attempt's hold overshoot in the measurement (the pool's lateness in ending it), model ms: 2–32 µs. */
export function overshootMs(call: number, attempt: number): number {
  const x = Math.sin(replayKey(call, attempt) * 12.9898) * 43758.5453;
  return 0.002 + 0.03 * (x - Math.floor(x));
}

/** A measurement, in the simulation clock's ms (wall ms of a dilated point). */
export interface TiedMeasurement {
  sim: SimResult;
  /** Every attempt's record; its `serviceMs` is the hold, overshoot included. */
  records: AttemptRecord[];
  /** Per record: what its target intended to hold it for (the record's service less its overshoot). */
  service: number[];
  /** Per record: when its sibling's peer cancel took effect at its server; NaN when none was sent. */
  effect: number[];
  /** Per record: what that cancel did; undefined when none reached it while it was open. */
  fate: (PeerCancelFate | undefined)[];
}

/** Point `p` measured behind NET, its target perturbed by `perturb` (the point's own perturbation is not read). */
export function measureTied(p: Point, perturb?: Perturbation): TiedMeasurement {
  const k = timeScaleOf(p);
  const overshoot = new Map<number, number>();
  for (let call = 0; call < p.calls; call++)
    for (const attempt of [1, 2]) overshoot.set(replayKey(call, attempt), overshootMs(call, attempt));
  const none = new Map<number, number>();
  const records: AttemptRecord[] = [];
  const sim = runPoint(p, {
    transport: {
      ...NET,
      replay: { replica: none, request: none, response: none, cancel: none, peerCancel: none, overshoot },
    },
    callRecords: true,
    onAttempt: (r) => records.push(r),
    ...(perturb ? { perturb } : {}),
  });
  const startOf = new Map(records.map((r) => [replayKey(r.call, r.attempt), r.startMs]));
  const effect = records.map((r) => {
    const from = 3 - r.attempt;
    const sent = startOf.get(replayKey(r.call, from));
    return sent === undefined || Number.isNaN(sent)
      ? Number.NaN
      : sent + k * peerCancelDelayMs(NET, p.seed, r.call, from, r.attempt);
  });
  // As the server saw it; none when the client's own cancel (propagate) ended the copy first.
  const fate = records.map((r, i): PeerCancelFate | undefined => {
    if (Number.isNaN(effect[i])) return undefined;
    if (!Number.isNaN(r.startMs)) return effect[i] < r.endMs ? 'too-late' : undefined;
    if (effect[i] < r.enqueueMs) return 'dropped';
    return Math.abs(effect[i] - r.endMs) < 1e-9 ? 'removed' : undefined;
  });
  const service = records.map((r) => r.serviceMs - k * overshootMs(r.call, r.attempt));
  return { sim, records, service, effect, fate };
}
