// sim+net of a tied point replays the point's own measured harness (analysis/judge/tie-replay.ts). The
// "measurement" here is the simulator itself behind a known random network, its holds overshooting
// (tied-measurement.ts), its raw records written out as a real point's would be (each replica's clock, peer
// cancels sent, arrived and decided a hand-off apart): replaying them must run the same race call by call,
// where drawing the same delays afresh (the calibration point's way) races differently; and a model error
// (the measurement's service × 1.05) must still show through the replay.

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
  replayKey,
  transportDelayMs,
  validateTransport,
  warmupCalls,
} from '../../model/index.ts';
import { runPoint, type SimResult } from '../../simulator/index.ts';
import { measureTied, NET, overshootMs, TIED_POINT } from './tied-measurement.ts';

const POINT = TIED_POINT;
// The servers' clock is the generator's: offset 0 from t0 = 0.
const SCHEDULE = ArrivalSchedule.forPoint(POINT);
const at = (call: number) => SCHEDULE.at(call);
const STATUS = {
  summary: { clock: { start: { offsetMs: 0, uncertaintyMs: 0 }, t0AbsMs: 0 } },
} as PointStatus;

// Each replica's clock origin on the epoch clock (clockEpochMs): replica 1's server started 33.3 ms later.
// (Small epoch times: a real one's double holds a quarter of a µs, and this replay must be exact to 1e-9.)
const ORIGIN = [1_000, 1_033.3];
// A server sends its cancels a hand-off after its copy started, and decides a cancel a hand-off after it
// arrived: the race is decided at the instants the pools stamp, which the replay must use.
const HAND_OFF_MS = 0.04;

interface Measurement {
  /** The point measured (POINT unless said; the same schedule). */
  point?: Point;
  /** The target's service, wrong (model/perturb.ts). */
  perturb?: Perturbation;
  /** As a run recorded before the servers reported their origins and the decisions' instants. */
  older?: boolean;
  /**
   * Every time written with the records' µs of the wall clock of a point dilated this much, as attempts.csv
   * holds them (its times then read in model ms, wall ÷ k; its epoch times in wall ms).
   */
  roundedAt?: number;
}

/**
 * The measurement (tied-measurement.ts) as its raw files would read (model ms, k = 1): each replica's attempt
 * times on a clock of its own origin, the peer cancels' times on the epoch clock. `older`: one clock for all,
 * cancels timed from their sending to their arrival.
 */
function measure(m: Measurement = {}): { rp: RealPoint; sim: SimResult } {
  const { point = POINT, perturb, older = false, roundedAt } = m;
  const k = roundedAt ?? 1;
  const { sim, records, service, effect, fate } = measureTied(point, perturb);
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
  const epoch = ORIGIN[0];
  // Wall ms as a record writes them, in model ms; epoch times as a record writes them.
  const µs = (ms: number) => (roundedAt === undefined ? ms : Number((ms * k).toFixed(3)) / k);
  const µsEpoch = (ms: number) => (roundedAt === undefined ? ms : Number(ms.toFixed(3)));
  // What replica r's clock reads at an instant of the generator's (= replica 0's) timeline, and the epoch clock.
  const local = (r: AttemptRecord, ms: number) => µs(older ? ms : ms + (epoch - ORIGIN[r.replica ?? 0]) / k);
  const onEpoch = (ms: number) => µsEpoch(epoch + ms * k);
  const col = (f: (r: AttemptRecord) => number) => Float64Array.from(records, f);
  const attempts: RawAttempts = {
    n,
    call: col((r) => r.call),
    attempt: col((r) => r.attempt),
    enqueueMs: col((r) => local(r, r.enqueueMs)),
    startMs: col((r) => local(r, r.startMs)),
    endMs: col((r) => local(r, r.endMs)),
    ended: records.map((r) => r.ended),
    worker: col((r) => r.worker),
    serviceMs: Float64Array.from(service, µs),
    respondedMs: col((r) => local(r, r.respondedMs)),
    replica: col((r) => r.replica ?? 0),
    tied: {
      sentMs: col((r) => onEpoch(r.startMs + (older ? 0 : HAND_OFF_MS))),
      arrivedMs: Float64Array.from(effect, (ms) => onEpoch(older ? ms : ms - HAND_OFF_MS)),
      fate: Uint8Array.from(fate, (f) => (f === undefined ? 0 : 1 + PEER_CANCEL_FATES.indexOf(f))),
      decidedMs: Float64Array.from(effect, (ms) => (older ? Number.NaN : onEpoch(ms))),
    },
  };
  const replicas = ORIGIN.map((clockEpochMs) => ({ clockEpochMs }));
  const status = older ? STATUS : ({ ...STATUS, target_check: { replicas } } as PointStatus);
  return { rp: { calls, attempts, status } as RealPoint, sim };
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
  const replay = tieReplay(measured.rp, POINT, 1, at)!;

  it('holds every measured call’s copies, winning responses and peer cancels', () => {
    const warm = warmupCalls(POINT);
    expect(measured.sim.tied!.callsBothRan).toBeGreaterThan(100);
    const a = measured.rp.attempts!;
    // Every copy that reached a server, the warm-up calls' too (their races set the first queues); the
    // responses of measured calls only (calls.csv holds no warm-up call).
    expect(replay.request.size).toBe(a.n);
    expect(a.call.filter((c) => c < warm).length).toBeGreaterThan(300);
    // Every winner's response, and the losers' answers their servers wrote (read after the winner's).
    const c = measured.rp.calls;
    for (let i = 0; i < c.n; i++) expect(replay.response.has(replayKey(c.call[i], c.winner[i]))).toBe(true);
    expect(replay.response.size).toBeGreaterThan(c.n);
    expect(replay.peerCancel.size).toBeGreaterThan(measured.rp.calls.n);
    for (const [key, ms] of replay.request) {
      const call = Math.floor(key / 16);
      expect(ms).toBeCloseTo(transportDelayMs(NET, 'request', POINT.seed, call, key % 16), 9);
    }
    // Every hold that ran to its end, with its overshoot over what the target intended.
    expect(replay.overshoot.size).toBe(a.ended.filter((e) => e === 'served').length);
    for (const [key, ms] of replay.overshoot)
      expect(ms).toBeCloseTo(overshootMs(Math.floor(key / 16), key % 16), 9);
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

  it('a measurement written with the records’ µs runs the same races: a near tie keeps its fate’s order', () => {
    const rounded = measure({ roundedAt: 10 });
    const replayed = runPoint(POINT, {
      transport: {
        ...NET,
        request: constantTransport(0).request,
        replay: tieReplay(rounded.rp, POINT, 10, at)!,
      },
      callRecords: true,
    });
    expect(replayed.tied).toEqual(rounded.sim.tied);
    const a = rounded.sim.calls!;
    const b = replayed.calls!;
    let off = 0;
    for (let i = 0; i < a.n; i++) if (Math.abs(a.latencyMs[i] - b.latencyMs[i]) > 0.0002) off++;
    expect(off).toBe(0);
  });

  it('propagate on two-choices: the client’s cancels and picks are the measurement’s', () => {
    const point: Point = {
      ...POINT,
      cancellation: 'propagate',
      dims: { replicas: 2, balancer: 'two-choices' },
    };
    const m = measure({ point });
    const played = tieReplay(m.rp, point, 1, at)!;
    expect(played.cancel.size).toBeGreaterThan(100);
    expect(played.replica.size).toBe(m.rp.attempts!.n);
    // Cancels and requests default to 0 ms: only the replay brings them back.
    const zero = constantTransport(0);
    const replayed = runPoint(point, {
      transport: { ...NET, request: zero.request, cancel: zero.cancel, replay: played },
      callRecords: true,
    });
    expect(differing(m.sim, replayed)).toBe(0);
    expect(replayed.tied).toEqual(m.sim.tied);
    const noCancels = runPoint(point, {
      transport: {
        ...NET,
        request: zero.request,
        cancel: zero.cancel,
        replay: { ...played, cancel: new Map() },
      },
      callRecords: true,
    });
    expect(noCancels.row.utilization).not.toBe(m.sim.row.utilization);
  });

  it('a run recorded before the servers stamped their origins and decisions replays as it did', () => {
    const older = measure({ older: true });
    const replayed = runPoint(POINT, {
      transport: {
        ...NET,
        request: constantTransport(0).request,
        replay: tieReplay(older.rp, POINT, 1, at)!,
      },
      callRecords: true,
    });
    expect(differing(older.sim, replayed)).toBe(0);
  });

  it('a cancel runs from its copy’s start to its server’s decision, not from its sending to its arrival', () => {
    // The measurement's cancels take effect one drawn trip after their copy started; the records put a
    // hand-off on either side of sent → arrived. Only the cancels whose fate bounds them may move, by a tick.
    const trips = (r: ReturnType<typeof tieReplay>) => [...r!.peerCancel];
    const truth = ([key, _]: [number, number]) =>
      peerCancelDelayMs(NET, POINT.seed, Math.floor(key / 256), Math.floor(key / 16) % 16, key % 16);
    const off = (r: ReturnType<typeof tieReplay>) =>
      trips(r).filter((e) => Math.abs(e[1] - truth(e)) > 0.0011);
    expect(trips(replay).length).toBeGreaterThan(3000);
    expect(off(replay)).toEqual([]);
    const a = measured.rp.attempts!;
    const arrivals = { ...a, tied: { ...a.tied!, decidedMs: new Float64Array(a.n).fill(Number.NaN) } };
    expect(off(tieReplay({ ...measured.rp, attempts: arrivals }, POINT, 1, at)).length).toBeGreaterThan(1000);
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
    const wrong = measure({ perturb: { serviceFactor: 1.05 } });
    const sim = runPoint(POINT, {
      transport: { ...NET, replay: tieReplay(wrong.rp, POINT, 1, at)! },
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
    // A hold may read a hair shorter than intended (µs records), never an unknown amount.
    const short = { ...replay, overshoot: new Map([[17, -0.0004]]) };
    expect(() => validateTransport({ ...NET, replay: short })).not.toThrow();
    const unknown = { ...replay, overshoot: new Map([[17, Number.NaN]]) };
    expect(() => validateTransport({ ...NET, replay: unknown })).toThrow(
      /hold overshoot of key 17 is NaN ms/,
    );
  });
});
