// sim+net of a tied point replays the point's own measured trips (analysis/judge/tie-replay.ts). The
// "measurement" here is the simulator itself behind a known random network, its raw records written out as a
// real point's would be (arrivals on the servers, peer cancels sent and arrived): replaying them must run
// the same race call by call, where drawing the same delays afresh (the calibration point's way) races
// differently; and a model error (the measurement's service × 1.05) must still show through the replay.

import { describe, expect, it } from 'vitest';
import { pairPoint } from '../../analysis/judge/point-pairing.ts';
import type { RealPoint } from '../../analysis/judge/real-row.ts';
import { tieReplay } from '../../analysis/judge/tie-replay.ts';
import type { RawAttempts, RawCalls } from '../../analysis/read/raw-files.ts';
import { type AttemptRecord, PEER_CANCEL_FATES, type PointStatus } from '../../contract/index.ts';
import {
  ArrivalSchedule,
  constantTransport,
  DEFAULT_MODEL,
  empiricalDelay,
  type Perturbation,
  type Point,
  peerCancelDelayMs,
  type TransportParams,
  transportDelayMs,
  validateTransport,
  warmupCalls,
} from '../../model/index.ts';
import { runPoint, type SimResult } from '../../simulator/index.ts';

const GAP = 0;
const POINT: Point = {
  config: { name: 'tied, gap 0 ms', tied: { gapMs: GAP, budgetPercent: 0 } },
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
const NET: TransportParams = { request: LN, response: LN, cancel: LN };
// The servers' clock is the generator's: offset 0 from t0 = 0.
const SCHEDULE = ArrivalSchedule.forPoint(POINT);
const at = (call: number) => SCHEDULE.at(call);
const STATUS = {
  summary: { clock: { start: { offsetMs: 0, uncertaintyMs: 0 }, t0AbsMs: 0 } },
} as PointStatus;

/** The simulated point behind NET, as its raw files would read (model ms, k = 1). */
function measure(perturb?: Perturbation): { rp: RealPoint; sim: SimResult } {
  const records: AttemptRecord[] = [];
  const sim = runPoint(POINT, {
    transport: NET,
    callRecords: true,
    onAttempt: (r) => records.push(r),
    ...(perturb ? { perturb } : {}),
  });
  const c = sim.calls!;
  const calls: RawCalls = {
    n: c.n,
    call: Float64Array.from(c.call),
    intendedMs: Float64Array.from(c.call, (i) => at(i)),
    sendLagMs: new Float64Array(c.n),
    latencyMs: Float64Array.from(c.latencyMs),
    outcome: Uint8Array.from(c.outcome),
    attempts: Float64Array.from(c.attempts),
    skipped: Float64Array.from(c.skipped),
    winner: Float64Array.from(c.winner),
    winnerWrittenMs: Float64Array.from(c.call, (i) => at(i)),
  };
  const n = records.length;
  const col = (f: (r: AttemptRecord) => number) => Float64Array.from(records, f);
  // A copy that started sent its peer cancel then; each copy's first cancel arrived one drawn trip later.
  const startOf = new Map(records.map((r) => [r.call * 16 + r.attempt, r.startMs]));
  const arrived = records.map((r) => {
    const from = 3 - r.attempt;
    const sent = startOf.get(r.call * 16 + from);
    return sent === undefined || Number.isNaN(sent)
      ? Number.NaN
      : sent + peerCancelDelayMs(NET, POINT.seed, r.call, from, r.attempt);
  });
  const attempts: RawAttempts = {
    n,
    call: col((r) => r.call),
    attempt: col((r) => r.attempt),
    enqueueMs: col((r) => r.enqueueMs),
    startMs: col((r) => r.startMs),
    endMs: col((r) => r.endMs),
    ended: records.map((r) => r.ended),
    worker: col((r) => r.worker),
    serviceMs: col((r) => r.serviceMs),
    respondedMs: col((r) => r.respondedMs),
    replica: col((r) => r.replica ?? 0),
    tied: {
      sentMs: col((r) => r.startMs),
      arrivedMs: Float64Array.from(arrived),
      fate: new Uint8Array(n).fill(1 + PEER_CANCEL_FATES.indexOf('too-late')),
    },
  };
  return { rp: { calls, attempts, status: STATUS } as RealPoint, sim };
}

/** Calls whose latency differs between two simulations of the point (beyond float rounding). */
function differing(a: SimResult, b: SimResult): number {
  let n = 0;
  for (let i = 0; i < a.calls!.n; i++)
    if (Math.abs(a.calls!.latencyMs[i] - b.calls!.latencyMs[i]) > 1e-6) n++;
  return n;
}

describe('sim+net of a tied point replays its measured trips', () => {
  const measured = measure();
  const replay = tieReplay(measured.rp, GAP, 1, at)!;

  it('holds every measured call’s copies, winning responses and peer cancels', () => {
    const warm = warmupCalls(POINT);
    expect(measured.sim.tied!.callsBothRan).toBeGreaterThan(100);
    const a = measured.rp.attempts!;
    // Every copy that reached a server, the warm-up calls' too (their races set the first queues); the
    // responses of measured calls only (calls.csv holds no warm-up call).
    expect(replay.request.size).toBe(a.n);
    expect(a.call.filter((c) => c < warm).length).toBeGreaterThan(300);
    expect(replay.response.size).toBe(measured.rp.calls.n);
    expect(replay.peerCancel.size).toBeGreaterThan(measured.rp.calls.n);
    for (const [key, ms] of replay.request) {
      const call = Math.floor(key / 16);
      expect(ms).toBeCloseTo(transportDelayMs(NET, 'request', POINT.seed, call, key % 16), 9);
    }
  });

  it('runs the race the measurement ran, call by call; fresh draws of the same delays do not', () => {
    // Requests default to 0 ms: only the replay can bring them back; losers' responses still draw from NET.
    const replayed = runPoint(POINT, {
      transport: { ...NET, request: constantTransport(0).request, replay },
      callRecords: true,
    });
    expect(differing(measured.sim, replayed)).toBe(0);
    expect(replayed.tied).toEqual(measured.sim.tied);
    expect(replayed.extraServiceShare).toBeCloseTo(measured.sim.extraServiceShare!, 9);
    // The calibration point's way: every trip drawn from the measured samples, so the same delays, shuffled.
    const samples = empiricalDelay([...replay.request.values()]);
    const drawn = runPoint(POINT, {
      transport: { request: samples, response: samples, cancel: samples },
      callRecords: true,
    });
    expect(differing(measured.sim, drawn)).toBeGreaterThan(50);
  });

  it('a dilated point replays the same trips: its calls in model ms are the measurement’s', () => {
    // The simulator runs a point dilated ×10 on a clock 10 times slower; the replay (model ms) goes with it.
    const dilated = { ...POINT, dims: { ...POINT.dims, timeScale: 10 } };
    const replayed = runPoint(dilated, {
      transport: { ...NET, request: constantTransport(0).request, replay },
      callRecords: true,
    });
    expect(differing(measured.sim, replayed)).toBe(0);
  });

  it('a model error still shows: the measurement’s service × 1.05 moves every paired percentile', () => {
    const wrong = measure({ serviceFactor: 1.05 });
    const sim = runPoint(POINT, {
      transport: { ...NET, replay: tieReplay(wrong.rp, GAP, 1, at)! },
      callRecords: true,
    });
    const { diffs } = pairPoint(wrong.rp, sim.calls!, 2 * DEFAULT_MODEL.workers, {
      independent: false,
      harnessFree: false,
    });
    const p50 = diffs.p50!;
    // The paired interval of measured − replayed lies wholly above the 2 % margin.
    expect(p50.low).toBeGreaterThan(0.02 * sim.row.p50_ms!);
  });

  it('a replayed trip below 0 or not finite is refused, naming the key', () => {
    const bad = { ...replay, peerCancel: new Map([[16 * 256 + 18, -0.5]]) };
    expect(() => validateTransport({ ...NET, replay: bad })).toThrow(
      /peerCancel trip of key 4114 is -0.5 ms/,
    );
  });
});
