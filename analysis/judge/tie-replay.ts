// sim+net of a tied point replays the point's own measured harness (model/transport-replay.ts), in model ms:
// which replica the client sent each copy to, each copy's arrival at its server, each hold's overshoot, each
// response's and client cancel's way, and each peer cancel's way between the servers. The race a tie is — which
// copy starts first, whether its cancel reaches the other before that one starts — is then run by the
// simulator with the timing the measurement had, call by call, and the model alone (queue, service draws, the
// policies) decides the rest. A model that is wrong still shows.
//
// Where each trip starts and ends: the simulator sends copy j of a call (j − 1) × gapMs after the call's
// intended start, so a copy's replayed request trip runs from that instant to its arrival at the server (send
// lag, the gap timer's lateness and the transit, together), on the generator's timeline through the point's
// clock offset. That offset was measured to replica 0, and each target server stamps its attempts on a clock
// of its own origin: every replica's stamps are set on the servers' shared epoch clock by the origin its
// /stats reported (status.json `target_check.replicas[r].clockEpochMs`). A peer cancel runs, as the simulator
// sends it, from its copy's start — not from when the server got round to sending it — to the instant the
// other server decided what it did (`peer_cancel_decided_ms`: the pool's removal, or finding its copy started),
// not to when it arrived: at gap 0 the race is decided inside those hand-offs between a server's threads.
//
// The records hold µs of wall time. Where they cannot order two events, what the measurement says of them does,
// by a tick: a cancel found too late comes after its copy's start, a removal before it; a loser's answer after
// the winner's; two copies that reached one server in the same µs queue in the order they started. A point
// without a clock offset replays only its holds and its peer cancels.

import { ATTEMPT_TIME_RESOLUTION_MS, percentileOf } from '../../contract/index.ts';
import type { Point, TransportReplay } from '../../model/index.ts';
import { intendedHoldMs, modelMs, peerReplayKey, replayKey, replicaSetupOf } from '../../model/index.ts';
import type { RawAttempts } from '../read/raw-files.ts';
import { attemptsByCall, clockEpochsOf, earliestOther, FATE } from '../read/tied-figures.ts';
import { clockOffsetOf, serverToGenerator } from './attribution.ts';
import type { RealPoint } from './real-row.ts';

/** The replay being built: TransportReplay's maps, writable. */
type Replay = { [K in keyof TransportReplay]: Map<number, number> };

/** What the pieces of a replay read: the point's attempts, on one clock. */
interface Measured {
  a: RawAttempts;
  peer: NonNullable<RawAttempts['tied']>;
  k: number;
  /** The records' resolution in model ms. */
  tick: number;
  /** How replica 0's clock sits on the epoch; null when no replica's can be placed. */
  clocks: ReplicaClocks | null;
  /** What to subtract from attempt j's times to read them on the generator's timeline; undefined: unknown. */
  shift(j: number): number | undefined;
  /** What to add to attempt j's times to read them on replica 0's clock; undefined: unknown. */
  toZero(j: number): number | undefined;
}

/** When a call's winner was read (generator's timeline), and its response's transit (written → read). */
type Readings = Map<number, { read: number; transit: number }>;

/**
 * The measured harness of tied point `p`, measured as `rp` (time scale `k`; `intendedMs`, its schedule: a
 * call's intended start); null when its attempt records carry no peer cancels. The warm-up calls' copies,
 * holds and cancels are replayed too — their races set the queues the first measured calls meet.
 */
export function tieReplay(
  rp: RealPoint,
  p: Point,
  k: number,
  intendedMs: (call: number) => number,
): TransportReplay | null {
  const a = rp.attempts;
  if (a === null || a.tied === undefined) return null;
  const toGen = serverToGenerator(rp.status, clockOffsetOf(rp.status));
  const clocks = replicaClocks(rp, k);
  const toZero = (j: number) => clocks?.toZero[a.replica?.[j] ?? 0];
  const m: Measured = {
    a,
    peer: a.tied,
    k,
    tick: modelMs(ATTEMPT_TIME_RESOLUTION_MS, k),
    clocks,
    toZero,
    shift: (j) => {
      const own = toZero(j);
      return toGen === null || own === undefined ? undefined : toGen(a.call[j]) - own;
    },
  };
  const out: Replay = {
    replica: new Map(),
    request: new Map(),
    response: new Map(),
    cancel: new Map(),
    peerCancel: new Map(),
    overshoot: new Map(),
  };
  holds(m, p, out);
  arrivals(m, p.config.tied?.gapMs ?? 0, intendedMs, out);
  losers(m, readings(m, rp, out), out);
  peerCancels(m, out);
  return out;
}

// Each hold's overshoot over what its server intended (the record's service): the harness's part alone, so a
// server whose service is not the model's still shows. Where the record is the model's draw to its µs, the
// exact draw, so that a busy server's starts follow the measured ones without the rounding piling up over a
// queue. One cut short by its client's cancel while it overshot was still in service when the cancel came.
function holds(m: Measured, p: Point, out: Replay): void {
  const { a, tick } = m;
  const setup = replicaSetupOf(p.dims);
  for (let j = 0; j < a.n; j++) {
    const held = a.endMs[j] - a.startMs[j];
    if (!Number.isFinite(held)) continue;
    const key = replayKey(a.call[j], a.attempt[j]);
    const draw = intendedHoldMs(p.model, setup, p.seed, a.call[j], a.attempt[j], a.replica?.[j] ?? 0);
    const intended = Math.abs(draw - a.serviceMs[j]) <= tick ? draw : a.serviceMs[j];
    if (a.ended[j] === 'served' || a.ended[j] === 'failed') out.overshoot.set(key, held - intended);
    else if (a.ended[j] === 'cancelled-in-service' && held + tick > intended)
      out.overshoot.set(key, held - intended + tick);
  }
}

// Each copy's replica as the client picked it, and its way from the instant the simulator sends it to its
// arrival at the server. Copies that reached one server within the same µs queued in the order they started
// (FIFO), which the simulator, seeing one instant, would otherwise choose by itself.
function arrivals(m: Measured, gapMs: number, intendedMs: (call: number) => number, out: Replay): void {
  const { a, tick } = m;
  const sameInstant = new Map<string, number[]>();
  for (let j = 0; j < a.n; j++) {
    const key = replayKey(a.call[j], a.attempt[j]);
    out.replica.set(key, a.replica?.[j] ?? 0);
    const shift = m.shift(j);
    if (shift === undefined) continue;
    const sent = intendedMs(a.call[j]) + (a.attempt[j] - 1) * gapMs;
    out.request.set(key, Math.max(0, a.enqueueMs[j] - shift - sent));
    const at = `${a.replica?.[j] ?? 0} ${a.enqueueMs[j]}`;
    const group = sameInstant.get(at);
    if (group === undefined) sameInstant.set(at, [j]);
    else group.push(j);
  }
  const started = (j: number) => (Number.isFinite(a.startMs[j]) ? a.startMs[j] : Number.POSITIVE_INFINITY);
  for (const group of sameInstant.values()) {
    if (group.length < 2) continue;
    group.sort((x, y) => started(x) - started(y));
    for (const [rank, j] of group.entries()) {
      const key = replayKey(a.call[j], a.attempt[j]);
      out.request.set(key, out.request.get(key)! + (rank * tick) / 16);
    }
  }
}

// Each winner's response, from its worker's release to the client reading it (as the calibration point's
// response samples are: the server's own delay before it writes the answer is the harness's too,
// net-transport.ts). A warm-up call's reading is not recorded (calls.csv holds measured calls): its first answer
// written is taken as read the point's median transit later — a balancer that counts attempts in flight sees
// the warm-up too.
function readings(m: Measured, rp: RealPoint, out: Replay): Readings {
  const { a } = m;
  const c = rp.calls;
  const read = new Map<number, number>();
  for (let i = 0; i < c.n; i++) {
    if (c.outcome[i] === 0 && c.winner[i] > 0)
      read.set(replayKey(c.call[i], c.winner[i]), c.intendedMs[i] + c.latencyMs[i]);
  }
  const winners: Readings = new Map();
  const answer = (j: number, at: number, transit: number) => {
    const shift = m.shift(j)!;
    out.response.set(replayKey(a.call[j], a.attempt[j]), Math.max(0, at - (a.endMs[j] - shift)));
    winners.set(a.call[j], { read: at, transit });
  };
  for (let j = 0; j < a.n; j++) {
    const at = read.get(replayKey(a.call[j], a.attempt[j]));
    const shift = m.shift(j);
    if (at !== undefined && shift !== undefined && Number.isFinite(a.endMs[j]))
      answer(j, at, at - (a.respondedMs[j] - shift));
  }
  const transits = [...winners.values()].map((w) => w.transit).filter(Number.isFinite);
  const typical = transits.length === 0 ? 0 : percentileOf(transits, 50);
  for (const list of attemptsByCall(a).values()) {
    if (winners.has(a.call[list[0]])) continue;
    let first = -1;
    for (const j of list)
      if (Number.isFinite(a.respondedMs[j]) && (first < 0 || a.respondedMs[j] < a.respondedMs[first]))
        first = j;
    const shift = first < 0 ? undefined : m.shift(first);
    if (shift !== undefined) answer(first, a.respondedMs[first] - shift + typical, typical);
  }
  return winners;
}

// The others of each call. One that ran to its end: the client read the winner first, so its answer comes a
// tick after, or later — its server's own delay in writing it, then the winner's transit — when its server
// wrote it (a client that gave up first gets none); drawn instead, a server's delay in answering (a busy event
// loop, a perturbed response delay) could let it win in the simulation. And the client's cancel, sent as it read
// the winner: it reached the server when the server ended the attempt for it (propagate), or after the attempt
// had ended on its own.
function losers(m: Measured, winners: Readings, out: Replay): void {
  const { a, peer, tick } = m;
  for (let j = 0; j < a.n; j++) {
    const key = replayKey(a.call[j], a.attempt[j]);
    const w = winners.get(a.call[j]);
    const shift = m.shift(j);
    if (w === undefined || shift === undefined || out.response.has(key) || !Number.isFinite(a.endMs[j]))
      continue;
    const ended = a.endMs[j] - shift;
    const ranOut = a.ended[j] === 'served' || a.ended[j] === 'failed';
    const byPeer = peer.fate[j] === FATE.removed || peer.fate[j] === FATE.dropped;
    if (!byPeer) out.cancel.set(key, Math.max(0, ended - w.read + (ranOut ? tick : 0)));
    if (!ranOut) continue;
    const written = a.respondedMs[j] - a.endMs[j] + w.transit;
    out.response.set(key, Math.max(0, w.read + tick - ended, Number.isFinite(written) ? written : 0));
  }
}

// Each peer cancel, from its copy's start to the instant the other copy's server decided what it did (a run
// from before decisions were stamped has only the cancel's arrival, a hand-off earlier). Too late: the server
// found the copy started; dropped: the copy had not arrived; removed: it had, and had not started.
function peerCancels(m: Measured, out: Replay): void {
  const { a, peer, k, tick, clocks } = m;
  if (clocks === null) return;
  for (const list of attemptsByCall(a).values()) {
    for (const j of list) {
      const from = earliestOther(list, j, peer.sentMs);
      const decided = Number.isFinite(peer.decidedMs[j]) ? peer.decidedMs[j] : peer.arrivedMs[j];
      const theirs = from < 0 ? undefined : m.toZero(from);
      const mine = m.toZero(j);
      if (theirs === undefined || mine === undefined || !Number.isFinite(decided)) continue;
      // Epoch differences first: an epoch time's double is good to a quarter of a µs, its quotient by k is not.
      let at = modelMs(decided - clocks.zeroEpochMs, k);
      const fate = peer.fate[j];
      if (fate === FATE.tooLate && Number.isFinite(a.startMs[j]))
        at = Math.max(at, a.startMs[j] + mine) + tick;
      else if (fate === FATE.dropped) at -= tick;
      else if (fate === FATE.removed) at = Math.max(at - tick, a.enqueueMs[j] + mine + tick / 2);
      const ms = at - (a.startMs[from] + theirs);
      out.peerCancel.set(peerReplayKey(a.call[j], a.attempt[from], a.attempt[j]), Math.max(0, ms));
    }
  }
}

/** How each replica's attempt times read on replica 0's clock, and where that clock's 0 lies on the epoch. */
interface ReplicaClocks {
  /** The epoch time (wall ms) at which replica 0's clock read 0. */
  zeroEpochMs: number;
  /** Per replica, what to add to its attempt times (model ms) to read them on replica 0's clock. */
  toZero: (number | undefined)[];
}

/**
 * From the origins the servers' /stats reported for the point (status.json `target_check.replicas[r]
 * .clockEpochMs`). A run recorded before they did estimates each origin from the instants its copies started,
 * which its server stamped on both clocks (start, and the peer cancel it sent then, a hand-off later): the median
 * over the replica's copies. A replica with neither stays undefined; null when replica 0 has none.
 */
function replicaClocks(rp: RealPoint, k: number): ReplicaClocks | null {
  let origins: (number | undefined)[] | null = clockEpochsOf(rp.status);
  if (origins === null) {
    const a = rp.attempts!;
    const sentMs = a.tied!.sentMs;
    const diffs: number[][] = [];
    for (let j = 0; j < a.n; j++) {
      if (!Number.isFinite(a.startMs[j]) || !Number.isFinite(sentMs[j])) continue;
      const r = a.replica?.[j] ?? 0;
      if (diffs[r] === undefined) diffs[r] = [];
      diffs[r].push(sentMs[j] - a.startMs[j] * k);
    }
    origins = diffs.map((d) => (d === undefined ? undefined : percentileOf(d, 50)));
  }
  const zero = origins[0];
  if (zero === undefined) return null;
  return {
    zeroEpochMs: zero,
    toZero: origins.map((o) => (o === undefined ? undefined : modelMs(o - zero, k))),
  };
}
