// Record shapes that cross process boundaries: per-call and per-attempt rows (Redis streams, raw files).
// One definition, used by writers (load generator, target server, drain) and readers (analysis) alike.

import type { AttemptEnd } from '../model/index.ts';

// The pool (model/) decides how an attempt ends; the record only carries it, so the type lives there.
export type { AttemptEnd };

/** How a call ended: `rejected` = refused by the adaptive limit; `failed` = any other error. */
export type CallOutcome = 'ok' | 'rejected' | 'failed';

/** One call as the load generator (or the simulator) saw it. Times in ms on the generator's clock. */
export interface CallRecord {
  call: number;
  /** Intended start time, ms from the point's start (t0). */
  intendedMs: number;
  /** Actual send time minus intended, ms (0 in the simulator). */
  sendLagMs: number;
  /** From the intended start to the first valid response (or to the final error), ms. */
  latencyMs: number;
  outcome: CallOutcome;
  attempts: number;
  /** Hedges the budget refused for this call (0 or 1). */
  skipped: number;
  /** Attempt number (1-based) whose response won; 0 if none. */
  winner: number;
  /**
   * When the winning attempt's request was written, ms from t0 on the generator's clock (NaN when no
   * attempt won): with the server's times of that attempt it splits the latency into its parts.
   */
  winnerWrittenMs: number;
  /**
   * Hedges started because an attempt failed (library CallState.hedgedOnError), not because the delay
   * elapsed; present only for points that count them (model countsHedgesOnError), else undefined.
   */
  hedgedOnError?: number;
}

/** One attempt as the target server saw it. Times in ms on the server's monotonic clock. */
export interface AttemptRecord {
  call: number;
  /** 1-based. */
  attempt: number;
  enqueueMs: number;
  /** Empty (NaN) when cancelled while queued. */
  startMs: number;
  endMs: number;
  ended: AttemptEnd;
  /** Worker index, -1 when never started. */
  worker: number;
  /** Intended service time from the model, ms. */
  serviceMs: number;
  /** When the server wrote the response (NaN when none was sent: cancelled, or its client was gone). */
  respondedMs: number;
  /** Which replica served it (0..R−1); absent when the point has one replica. */
  replica?: number;
  /** Tied points only (ATTEMPT_TIED_FIELDS): when its server sent its peer cancels, epoch ms (NaN: none). */
  peerCancelSentMs?: number;
  /** … when a peer cancel for it arrived, epoch ms (NaN: none). */
  peerCancelArrivedMs?: number;
  /** … what that cancel did; undefined when none arrived. */
  peerCancel?: PeerCancelFate;
  /** … when its server decided that (the pool's removal, or finding the attempt started), epoch ms (NaN: none). */
  peerCancelDecidedMs?: number;
}

/** Column order of raw/<slug>.calls.csv and of the calls stream's single `r` field (comma-separated). */
export const CALL_FIELDS = [
  'call',
  'intended_ms',
  'send_lag_ms',
  'latency_ms',
  'outcome',
  'attempts',
  'skipped',
  'winner',
  'winner_written_ms',
] as const;

/** Columns a calls file written before attribution lacks (readers accept both). */
export const CALL_FIELDS_ADDED = ['winner_written_ms'] as const;

/**
 * The column a calls record gains, last, when its point counts hedges started on error (model
 * countsHedgesOnError: failures in the model, or `loneFailure: 'hedge-now'`). Other points have no such
 * column, so their files stay as they were, and readers take files with and without it.
 */
export const CALL_HEDGED_ON_ERROR_FIELD = 'hedged_on_error';

/** Column order of a point's calls records: CALL_FIELDS, then `hedged_on_error` when the point counts it. */
export function callFields(hedgedOnError: boolean): readonly string[] {
  return hedgedOnError ? [...CALL_FIELDS, CALL_HEDGED_ON_ERROR_FIELD] : CALL_FIELDS;
}

/** Column order of raw/<slug>.attempts.csv and of the attempts stream's single `r` field. */
export const ATTEMPT_FIELDS = [
  'call',
  'attempt',
  'enqueue_ms',
  'start_ms',
  'end_ms',
  'ended',
  'worker',
  'service_ms',
  'responded_ms',
] as const;

/** Columns an attempts file written before attribution lacks (readers accept both). */
export const ATTEMPT_FIELDS_ADDED = ['responded_ms'] as const;

/**
 * The column an attempts record gains, last, when its point has several replicas: which replica served the
 * attempt. A point with one replica has no such column, so its files stay as they were.
 */
export const ATTEMPT_REPLICA_FIELD = 'replica';

/**
 * The columns an attempts record of a tied point (cancel `on-start`, docs/replicas.md) gains, after `replica`:
 * when this attempt's server sent its peer cancels (it started the attempt), when the first peer cancel for this
 * attempt reached its server, what that cancel did (PEER_CANCEL_FATES), and when the server decided that — the
 * pool's removal, the instant the pool (or the server) found the attempt started, a dropped copy's cancel's
 * arrival; empty when the pool never said. The times are epoch ms with µs (performance.timeOrigin +
 * performance.now()), a clock every process of one machine shares, so a cancel's transit is arrived − sent;
 * across machines it is as good as their clock sync. Other points have none.
 */
export const ATTEMPT_TIED_FIELDS = [
  'peer_cancel_sent_ms',
  'peer_cancel_arrived_ms',
  'peer_cancel',
  'peer_cancel_decided_ms',
] as const;

/** Tied columns an attempts file written before the decision's stamp lacks (readers accept both). */
export const ATTEMPT_TIED_FIELDS_ADDED = ['peer_cancel_decided_ms'] as const;

/**
 * What a peer cancel did to the attempt it reached: `removed` (still queued: it left the queue, no service),
 * `dropped` (it came before the attempt, which was dropped on arrival, never queued), `too-late` (in service).
 */
export const PEER_CANCEL_FATES = ['removed', 'dropped', 'too-late'] as const;
export type PeerCancelFate = (typeof PEER_CANCEL_FATES)[number];

/**
 * Column order of a point's attempts records: ATTEMPT_FIELDS, then `replica` when R > 1, then the tied columns
 * when the point's copies cancel each other (`tied`; such a point always has R ≥ 2).
 */
export function attemptFields(replicas: number, tied = false): readonly string[] {
  if (tied) return [...ATTEMPT_FIELDS, ATTEMPT_REPLICA_FIELD, ...ATTEMPT_TIED_FIELDS];
  return replicas > 1 ? [...ATTEMPT_FIELDS, ATTEMPT_REPLICA_FIELD] : ATTEMPT_FIELDS;
}
