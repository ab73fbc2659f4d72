// sim+net of a tied point replays the point's own measured trips (model/transport-replay.ts): each copy's
// arrival at its server, each winning response's way back from its worker's release (the server's delay in
// answering included, as in the calibration point's samples) and each peer cancel's way between the servers,
// all in model ms. The race a tie is — which copy starts first, whether its cancel reaches the other before
// that one starts — is then run by the simulator with the delays the measurement had, call by call, and the
// model alone (queue, service, the balancer's picks) decides the rest. A model that is wrong still shows.
//
// Where each trip starts and ends: the simulator sends copy j of a call (j − 1) × gapMs after the call's
// intended start, so a copy's replayed request trip runs from that instant to its arrival at the server (send
// lag, the gap timer's lateness and the transit, together), on the generator's timeline through the point's
// clock offset. That offset was measured to replica 0, and each target server stamps its attempts on a clock
// of its own origin: another replica's stamps are moved onto replica 0's by replicaClocks. A point without a
// clock offset replays only its peer cancels, which the servers' shared epoch clock measures.

import { percentileOf } from '../../contract/index.ts';
import type { TransportReplay } from '../../model/index.ts';
import { modelMs, peerReplayKey, replayKey } from '../../model/index.ts';
import { attemptsByCall, earliestOther } from '../read/tied-figures.ts';
import { clockOffsetOf, serverToGenerator } from './attribution.ts';
import type { RealPoint } from './real-row.ts';

/**
 * The measured trips of tied point `rp` (its copies `gapMs` model ms apart, time scale `k`; `intendedMs`, its
 * schedule: a call's intended start); null when its attempt records carry no peer cancels. The warm-up calls'
 * copies and cancels are replayed too — their races set the queues the first measured calls meet — but not
 * their responses, whose reading calls.csv does not hold. Trips a clock offset's error makes negative count as 0.
 */
export function tieReplay(
  rp: RealPoint,
  gapMs: number,
  k: number,
  intendedMs: (call: number) => number,
): TransportReplay | null {
  const a = rp.attempts;
  const t = a?.tied;
  if (a === null || t === undefined) return null;
  const c = rp.calls;
  const winnerRead = new Map<number, number>();
  for (let i = 0; i < c.n; i++) {
    if (c.outcome[i] === 0 && c.winner[i] > 0)
      winnerRead.set(replayKey(c.call[i], c.winner[i]), c.intendedMs[i] + c.latencyMs[i]);
  }
  const toGen = serverToGenerator(rp.status, clockOffsetOf(rp.status));
  const fromReplica = replicaClocks(a.replica, a.startMs, t.sentMs, k);
  const request = new Map<number, number>();
  const response = new Map<number, number>();
  const peerCancel = new Map<number, number>();
  for (let j = 0; j < a.n; j++) {
    const call = a.call[j];
    const own = fromReplica[a.replica?.[j] ?? 0];
    if (toGen === null || own === undefined) continue;
    const shift = toGen(call) - own;
    const key = replayKey(call, a.attempt[j]);
    const sent = intendedMs(call) + (a.attempt[j] - 1) * gapMs;
    request.set(key, Math.max(0, a.enqueueMs[j] - shift - sent));
    // From the worker's release, as the calibration point's response samples are: the server's own delay
    // before it writes the answer is the harness's too (net-transport.ts).
    const read = winnerRead.get(key);
    if (read !== undefined && Number.isFinite(a.endMs[j]))
      response.set(key, Math.max(0, read - (a.endMs[j] - shift)));
  }
  for (const list of attemptsByCall(a).values()) {
    for (const j of list) {
      const from = earliestOther(list, j, t.sentMs);
      if (from < 0 || !Number.isFinite(t.arrivedMs[j])) continue;
      const ms = modelMs(t.arrivedMs[j] - t.sentMs[from], k);
      peerCancel.set(peerReplayKey(a.call[j], a.attempt[from], a.attempt[j]), Math.max(0, ms));
    }
  }
  return { request, response, peerCancel };
}

/**
 * Per replica, what to add to its attempt times to read them on replica 0's clock (each target server stamps
 * attempts on a clock of its own origin; the clock offset was measured to replica 0): from the instant a
 * copy started, which its server stamps on both its own clock (start) and the epoch clock the servers share
 * (the peer cancel it sent then) — the median over the replica's copies. Undefined for a replica with no such
 * copy, or when replica 0 has none; attempts times in model ms, the cancels' in wall ms (÷ k here).
 */
function replicaClocks(
  replica: Float64Array | undefined,
  startMs: Float64Array,
  sentMs: Float64Array,
  k: number,
): (number | undefined)[] {
  const diffs: number[][] = [];
  for (let j = 0; j < startMs.length; j++) {
    if (!Number.isFinite(startMs[j]) || !Number.isFinite(sentMs[j])) continue;
    const r = replica?.[j] ?? 0;
    if (diffs[r] === undefined) diffs[r] = [];
    diffs[r].push(modelMs(sentMs[j], k) - startMs[j]);
  }
  const epoch = diffs.map((d) => (d === undefined ? undefined : percentileOf(d, 50)));
  const zero = epoch[0];
  return zero === undefined ? [] : epoch.map((e) => (e === undefined ? undefined : e - zero));
}
