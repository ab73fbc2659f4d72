// What a real point says about tied requests, from its raw files: the extra work its attempts cost
// (`extra_service_share`, as the simulator defines it: service of the attempts that did not win their call over
// all service, measured calls), what its peer cancels did, and how long a cancel took from the server that sent
// it to the server of the copy it cancelled (the `tie_cancel` figure of attribution.csv).

import { PEER_CANCEL_FATES } from '../../contract/index.ts';
import { modelMs } from '../../model/index.ts';
import type { PointStatus, RawAttempts, RawCalls } from './raw-files.ts';

/** A tied point's peer cancels over its measured calls (counted as the simulator's SimResult.tied counts them). */
interface PeerCancelFigures {
  /** Cancels sent: each copy that started cancels every other copy of its call. */
  sent: number;
  /** … that removed a queued copy. */
  removed: number;
  /** Copies dropped on arrival: a sibling's cancel was at their server first. */
  droppedOnArrival: number;
  /** … that arrived after their copy had started, later than the sender's copy: both ran. */
  tooLate: number;
  /** Calls of which more than one copy started. */
  callsBothRan: number;
  /** Cancels that failed on their way (every call, warm-up included: the targets' /stats); null: unknown. */
  failed: number | null;
}

/** A tied point's own figures. */
export interface TiedFigures {
  counts: PeerCancelFigures;
  /** Each cancel's transit, sent → arrived at the copy's server, model ms (wall ÷ k), in record order. */
  transitMs: Float64Array;
}

/** RawAttempts' `tied.fate` codes (1 + the fate's index in PEER_CANCEL_FATES; 0: no cancel reached it). */
export const FATE = {
  removed: 1 + PEER_CANCEL_FATES.indexOf('removed'),
  dropped: 1 + PEER_CANCEL_FATES.indexOf('dropped'),
  tooLate: 1 + PEER_CANCEL_FATES.indexOf('too-late'),
} as const;

/**
 * Σ service of the attempts of measured calls that did not win their call / Σ service of all of them: a served
 * (or failed) attempt counts its service draw, one cancelled in service the time it held its worker, one never
 * started nothing — the simulator's worker time with the harness's hold overshoot left out. Null when no attempt
 * of a measured call held a worker.
 */
export function extraServiceShare(calls: RawCalls, attempts: RawAttempts): number | null {
  const winner = new Map<number, number>();
  for (let i = 0; i < calls.n; i++) winner.set(calls.call[i], calls.winner[i]);
  let all = 0;
  let won = 0;
  for (let i = 0; i < attempts.n; i++) {
    const w = winner.get(attempts.call[i]);
    if (w === undefined) continue;
    const held = heldMs(attempts, i);
    all += held;
    if (attempts.attempt[i] === w) won += held;
  }
  return all > 0 ? Math.max(0, all - won) / all : null;
}

function heldMs(a: RawAttempts, i: number): number {
  const e = a.ended[i];
  if (e === 'served' || e === 'failed') return a.serviceMs[i];
  const s = a.startMs[i];
  return Number.isFinite(s) && Number.isFinite(a.endMs[i]) ? a.endMs[i] - s : 0;
}

/**
 * The peer cancels of a tied point's measured calls (`copies` per call) and their transits, from its attempt
 * records; null when the records carry no peer cancels (not a tied point, or no attempts file). `k` is the
 * point's time scale (transits come out in model ms).
 */
export function tiedFigures(
  calls: RawCalls,
  attempts: RawAttempts | null,
  status: PointStatus | null,
  copies: number,
  k: number,
): TiedFigures | null {
  const t = attempts?.tied;
  if (attempts === null || t === undefined) return null;
  const measured = new Set<number>();
  for (let i = 0; i < calls.n; i++) measured.add(calls.call[i]);
  const byCall = attemptsByCall(attempts, (c) => measured.has(c));
  const counts: PeerCancelFigures = {
    sent: 0,
    removed: 0,
    droppedOnArrival: 0,
    tooLate: 0,
    callsBothRan: 0,
    failed: failedOf(status),
  };
  const transits: number[] = [];
  for (const list of byCall.values()) {
    let startedCopies = 0;
    for (const i of list) {
      if (Number.isFinite(attempts.startMs[i])) startedCopies++;
      if (Number.isFinite(t.sentMs[i])) counts.sent += copies - 1;
      const fate = t.fate[i];
      if (fate === FATE.removed) counts.removed++;
      else if (fate === FATE.dropped) counts.droppedOnArrival++;
      // The sender is the sibling that sent first; both ran, and the pair counts once: when this copy
      // started (sent its own cancels) after the sender did.
      const sender = earliestOther(list, i, t.sentMs);
      if (fate === FATE.tooLate && sender >= 0 && t.sentMs[i] > t.sentMs[sender]) counts.tooLate++;
      if (Number.isFinite(t.arrivedMs[i]) && sender >= 0)
        transits.push(modelMs(t.arrivedMs[i] - t.sentMs[sender], k));
    }
    if (startedCopies > 1) counts.callsBothRan++;
  }
  return { counts, transitMs: Float64Array.from(transits) };
}

/** The record indices of each call's attempts, by call (only the calls `keep` accepts, when given). */
export function attemptsByCall(a: RawAttempts, keep?: (call: number) => boolean): Map<number, number[]> {
  const byCall = new Map<number, number[]>();
  for (let i = 0; i < a.n; i++) {
    const c = a.call[i];
    if (keep !== undefined && !keep(c)) continue;
    const list = byCall.get(c);
    if (list === undefined) byCall.set(c, [i]);
    else list.push(i);
  }
  return byCall;
}

/** The record of the call's other copy (in `list`) that sent its cancels first; −1 when none did. */
export function earliestOther(list: readonly number[], i: number, sentMs: Float64Array): number {
  let best = -1;
  for (const j of list) {
    if (j === i || !Number.isFinite(sentMs[j])) continue;
    if (best < 0 || sentMs[j] < sentMs[best]) best = j;
  }
  return best;
}

/**
 * Each replica's clock origin on the epoch clock its servers share (status.json `target_check.replicas[r]
 * .clockEpochMs`, wall ms): replica r's attempt time + its origin is an epoch time. Null when the status does
 * not hold one for every replica (a run recorded before the servers reported it).
 */
export function clockEpochsOf(status: PointStatus | null): number[] | null {
  const check = (status as { target_check?: { replicas?: unknown } } | null)?.target_check;
  const replicas = check?.replicas;
  if (!Array.isArray(replicas) || replicas.length === 0) return null;
  const epochs = replicas.map((r) => (r as { clockEpochMs?: unknown } | null)?.clockEpochMs);
  return epochs.every((e) => typeof e === 'number' && Number.isFinite(e)) ? (epochs as number[]) : null;
}

// The targets' count of cancels that failed (status.json target_check.peerCancel, summed over the replicas).
function failedOf(status: PointStatus | null): number | null {
  const check = (status as { target_check?: { peerCancel?: { failed?: unknown } } } | null)?.target_check;
  const n = check?.peerCancel?.failed;
  return typeof n === 'number' ? n : null;
}
