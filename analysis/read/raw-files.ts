// Readers of a point's raw files (raw/<slug>.calls.csv, .attempts.csv, .status.json), column-oriented so a
// 200 000-call point costs a few typed arrays, not 200 000 objects; status.json through the contract's reader.

import { existsSync, readFileSync } from 'node:fs';
import {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  ATTEMPT_TIED_FIELDS_ADDED,
  type AttemptEnd,
  attemptFields,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  CALL_OUTCOMES,
  type CallOutcome,
  callFields,
  PEER_CANCEL_FATES,
  type PeerCancelFate,
  type PointStatus,
  parseStatusJson,
  StatusJsonError,
  statusInflightTimelineMs,
  statusSendLagP99,
} from '../../contract/index.ts';
import { RawFileError } from '../errors.ts';
import { CsvScanner } from './csv-scan.ts';

/** The measured calls of a point, one entry per line of calls.csv (times in ms on the generator's clock). */
export interface RawCalls {
  n: number;
  call: Float64Array;
  intendedMs: Float64Array;
  sendLagMs: Float64Array;
  latencyMs: Float64Array;
  /** 0 ok, 1 rejected, 2 failed (contract's OUTCOME_CODE). */
  outcome: Uint8Array;
  attempts: Float64Array;
  skipped: Float64Array;
  winner: Float64Array;
  /** When the winning attempt's request was written, ms from t0 (NaN: no winner, or an older file). */
  winnerWrittenMs: Float64Array;
  /**
   * Hedges each call started because an attempt failed; absent when the file has no such column (a point
   * that does not count them, or a file from before they were counted).
   */
  hedgedOnError?: Float64Array;
}

/** Every attempt of a point as the server saw it (server clock, ms); startMs is NaN when never started. */
export interface RawAttempts {
  n: number;
  call: Float64Array;
  attempt: Float64Array;
  enqueueMs: Float64Array;
  startMs: Float64Array;
  endMs: Float64Array;
  ended: string[];
  worker: Float64Array;
  serviceMs: Float64Array;
  /** When the server wrote the response (NaN: none sent, or an older file). */
  respondedMs: Float64Array;
  /** Which replica served each attempt; absent when the point has one replica (the file has no such column). */
  replica?: Float64Array;
  /** A tied point's peer cancels (ATTEMPT_TIED_FIELDS); absent for other points. */
  tied?: RawPeerCancels;
}

/** A tied point's peer cancels, per attempt. Times are epoch ms on the servers' shared clock, never scaled. */
interface RawPeerCancels {
  /** When the attempt's server sent its peer cancels (it started the attempt); NaN: none. */
  sentMs: Float64Array;
  /** When the first peer cancel for the attempt arrived; NaN: none. */
  arrivedMs: Float64Array;
  /** What that cancel did: 0 none, else 1 + its index in PEER_CANCEL_FATES (removed, dropped, too-late). */
  fate: Uint8Array;
  /** When its server decided that (the pool's removal, or finding the attempt started); NaN: not said, or an older file. */
  decidedMs: Float64Array;
}

/**
 * A scanner past the header of a raw file with columns `fields`; files from before the `added` columns
 * existed are read too (those columns then read as NaN). `full` says which kind the file is.
 */
function scanner(
  path: string,
  fields: readonly string[],
  added: readonly string[],
  also: readonly string[] = [],
): { sc: CsvScanner; F: number; full: boolean; header: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new RawFileError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  const sc = new CsvScanner(text, path);
  const header = fields.join(',');
  const older = fields.filter((f) => !added.includes(f)).join(',');
  const first = sc.header(header, [older, ...also]);
  const full = first !== older;
  return { sc, F: first.split(',').length, full, header: first };
}

const ENDS: readonly AttemptEnd[] = ['served', 'failed', 'cancelled-queued', 'cancelled-in-service'];

/**
 * Reads raw/<slug>.calls.csv (header = CALL_FIELDS, the older one without CALL_FIELDS_ADDED, or that of a
 * point counting hedges on error, which ends in the hedged_on_error column).
 */
export function readCallsCsv(path: string): RawCalls {
  const counted = callFields(true).join(',');
  const { sc, F, full, header } = scanner(path, CALL_FIELDS, CALL_FIELDS_ADDED, [counted]);
  const n = sc.countRecords();
  const hedgedOnError = header === counted ? new Float64Array(n) : undefined;
  const c: RawCalls = {
    n,
    call: new Float64Array(n),
    intendedMs: new Float64Array(n),
    sendLagMs: new Float64Array(n),
    latencyMs: new Float64Array(n),
    outcome: new Uint8Array(n),
    attempts: new Float64Array(n),
    skipped: new Float64Array(n),
    winner: new Float64Array(n),
    winnerWrittenMs: new Float64Array(n).fill(Number.NaN),
    ...(hedgedOnError ? { hedgedOnError } : {}),
  };
  for (let i = 0; i < n; i++) {
    c.call[i] = sc.num(F);
    c.intendedMs[i] = sc.num(F);
    c.sendLagMs[i] = sc.num(F);
    c.latencyMs[i] = sc.num(F);
    const code = CALL_OUTCOMES.indexOf(sc.str(F, CALL_OUTCOMES) as CallOutcome);
    c.attempts[i] = sc.num(F);
    c.skipped[i] = sc.num(F);
    c.winner[i] = sc.num(F);
    if (full) c.winnerWrittenMs[i] = sc.num(F);
    if (hedgedOnError) hedgedOnError[i] = sc.num(F);
    if (code < 0 || !Number.isFinite(c.latencyMs[i])) {
      throw sc.error('is not a call record (outcome must be ok|rejected|failed and latency_ms a number)');
    }
    c.outcome[i] = code;
    sc.endRecord(F);
  }
  return c;
}

/**
 * Reads raw/<slug>.attempts.csv (header = ATTEMPT_FIELDS, the older one without ATTEMPT_FIELDS_ADDED, that
 * of a point with several replicas, which ends in the replica column, or that of a tied point, which then
 * ends in its peer cancels' columns, ATTEMPT_TIED_FIELDS_ADDED among them or not).
 */
export function readAttemptsCsv(path: string): RawAttempts {
  const replicated = attemptFields(2).join(',');
  const tiedHeader = attemptFields(2, true).join(',');
  const tiedOlder = attemptFields(2, true)
    .filter((f) => !(ATTEMPT_TIED_FIELDS_ADDED as readonly string[]).includes(f))
    .join(',');
  const { sc, F, full, header } = scanner(path, ATTEMPT_FIELDS, ATTEMPT_FIELDS_ADDED, [
    replicated,
    tiedHeader,
    tiedOlder,
  ]);
  const n = sc.countRecords();
  const isTied = header === tiedHeader || header === tiedOlder;
  const replica = header === replicated || isTied ? new Float64Array(n) : undefined;
  const tied: RawPeerCancels | undefined = isTied
    ? {
        sentMs: new Float64Array(n),
        arrivedMs: new Float64Array(n),
        fate: new Uint8Array(n),
        decidedMs: new Float64Array(n).fill(Number.NaN),
      }
    : undefined;
  const a: RawAttempts = {
    n,
    call: new Float64Array(n),
    attempt: new Float64Array(n),
    enqueueMs: new Float64Array(n),
    startMs: new Float64Array(n),
    endMs: new Float64Array(n),
    ended: new Array<string>(n),
    worker: new Float64Array(n),
    serviceMs: new Float64Array(n),
    respondedMs: new Float64Array(n).fill(Number.NaN),
    ...(replica ? { replica } : {}),
    ...(tied ? { tied } : {}),
  };
  for (let i = 0; i < n; i++) {
    a.call[i] = sc.num(F);
    a.attempt[i] = sc.num(F);
    a.enqueueMs[i] = sc.num(F);
    a.startMs[i] = sc.num(F);
    a.endMs[i] = sc.num(F);
    a.ended[i] = sc.str(F, ENDS);
    a.worker[i] = sc.num(F);
    a.serviceMs[i] = sc.num(F);
    if (full) a.respondedMs[i] = sc.num(F);
    if (replica) replica[i] = sc.num(F);
    if (tied) {
      tied.sentMs[i] = sc.num(F);
      tied.arrivedMs[i] = sc.num(F);
      const fate = sc.str(F, PEER_CANCEL_FATES);
      const k = PEER_CANCEL_FATES.indexOf(fate as PeerCancelFate);
      if (fate !== '' && k < 0) {
        throw sc.error(
          `peer_cancel ${JSON.stringify(fate)} is not one of ${PEER_CANCEL_FATES.join(', ')} or empty`,
        );
      }
      tied.fate[i] = k + 1;
      if (header === tiedHeader) tied.decidedMs[i] = sc.num(F);
    }
    sc.endRecord(F);
  }
  return a;
}

// The status is the contract's (contract/point-status.ts); the analysis's modules import it from here.
export { type PointStatus, statusInflightTimelineMs, statusSendLagP99 };

/** Reads raw/<slug>.status.json; null when the file does not exist. */
export function readStatusJson(path: string): PointStatus | null {
  if (!existsSync(path)) return null;
  try {
    return parseStatusJson(readFileSync(path, 'utf8'), path);
  } catch (err) {
    if (err instanceof StatusJsonError) throw new RawFileError(err.message, { cause: err.cause });
    throw new RawFileError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
}
