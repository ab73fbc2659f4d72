// Readers of a point's raw files (raw/<slug>.calls.csv, .attempts.csv, .status.json), column-oriented so a
// 200 000-call point costs a few typed arrays, not 200 000 objects.

import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  ATTEMPT_FIELDS,
  ATTEMPT_FIELDS_ADDED,
  type AttemptEnd,
  attemptFields,
  CALL_FIELDS,
  CALL_FIELDS_ADDED,
  type CallOutcome,
} from '../contract/index.ts';
import { CsvScanner } from './csv-scan.ts';
import { RawFileError } from './errors.ts';

/** Outcome codes of `RawCalls.outcome`. */
export const OUTCOME_CODE: Readonly<Record<CallOutcome, number>> = Object.freeze({
  ok: 0,
  rejected: 1,
  failed: 2,
});
const OUTCOMES: readonly CallOutcome[] = ['ok', 'rejected', 'failed'];

/** The measured calls of a point, one entry per line of calls.csv (times in ms on the generator's clock). */
export interface RawCalls {
  n: number;
  call: Float64Array;
  intendedMs: Float64Array;
  sendLagMs: Float64Array;
  latencyMs: Float64Array;
  /** 0 ok, 1 rejected, 2 failed (see OUTCOME_CODE). */
  outcome: Uint8Array;
  attempts: Float64Array;
  skipped: Float64Array;
  winner: Float64Array;
  /** When the winning attempt's request was written, ms from t0 (NaN: no winner, or an older file). */
  winnerWrittenMs: Float64Array;
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

const ENDS: readonly AttemptEnd[] = ['served', 'cancelled-queued', 'cancelled-in-service'];

/** Reads raw/<slug>.calls.csv (header = CALL_FIELDS, or the older one without CALL_FIELDS_ADDED). */
export function readCallsCsv(path: string): RawCalls {
  const { sc, F, full } = scanner(path, CALL_FIELDS, CALL_FIELDS_ADDED);
  const n = sc.countRecords();
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
  };
  for (let i = 0; i < n; i++) {
    c.call[i] = sc.num(F);
    c.intendedMs[i] = sc.num(F);
    c.sendLagMs[i] = sc.num(F);
    c.latencyMs[i] = sc.num(F);
    const code = OUTCOMES.indexOf(sc.str(F, OUTCOMES) as CallOutcome);
    c.attempts[i] = sc.num(F);
    c.skipped[i] = sc.num(F);
    c.winner[i] = sc.num(F);
    if (full) c.winnerWrittenMs[i] = sc.num(F);
    if (code < 0 || !Number.isFinite(c.latencyMs[i])) {
      throw sc.error('is not a call record (outcome must be ok|rejected|failed and latency_ms a number)');
    }
    c.outcome[i] = code;
    sc.endRecord(F);
  }
  return c;
}

/**
 * Reads raw/<slug>.attempts.csv (header = ATTEMPT_FIELDS, the older one without ATTEMPT_FIELDS_ADDED, or
 * that of a point with several replicas, which ends in the replica column).
 */
export function readAttemptsCsv(path: string): RawAttempts {
  const replicated = attemptFields(2).join(',');
  const { sc, F, full, header } = scanner(path, ATTEMPT_FIELDS, ATTEMPT_FIELDS_ADDED, [replicated]);
  const n = sc.countRecords();
  const replica = header === replicated ? new Float64Array(n) : undefined;
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
    sc.endRecord(F);
  }
  return a;
}

const pointsPair = z.tuple([z.number(), z.number()]);
const clockEstimate = z.object({ offsetMs: z.number(), uncertaintyMs: z.number() }).passthrough();
const percentiles = z.object({ p99: z.number().nullable().optional() }).passthrough();

/** The parts of the load generator's status.json the analysis reads; everything else passes through. */
export const statusSchema = z
  .object({
    state: z.string().optional(),
    summary: z
      .object({
        valid: z.boolean().optional(),
        reasons: z.array(z.string()).optional(),
        sendLag: z
          .object({
            p50: z.number().nullable().optional(),
            p99: z.number().nullable().optional(),
            max: z.number().nullable().optional(),
            p99Ms: z.number().nullable().optional(),
          })
          .passthrough()
          .optional(),
        achievedRate: z.number().nullable().optional(),
        targetRate: z.number().nullable().optional(),
        collapsed: z.boolean().optional(),
        collapseReason: z.string().nullable().optional(),
        inflightTimeline: z.array(pointsPair).optional(),
        // The load generator's LoadResult spells two of the above differently; both are read.
        selfCheck: z
          .object({ sendLag: z.object({ p99Ms: z.number().nullable().optional() }).passthrough().optional() })
          .passthrough()
          .optional(),
        inflight: z
          .object({ timeline: z.array(pointsPair).optional() })
          .passthrough()
          .optional(),
        state: z.string().optional(),
        error: z.string().nullable().optional(),
        recorder: z.object({ written: z.number(), dropped: z.number() }).passthrough().nullable().optional(),
        // The clock offset to the target (loadgen/point-clock.ts); a null end = not measured.
        clock: z
          .object({ start: clockEstimate.nullable(), end: clockEstimate.nullable(), t0AbsMs: z.number() })
          .passthrough()
          .nullable()
          .optional(),
      })
      .passthrough()
      .optional(),
    send_lag_p99_ms: z.union([z.string(), z.number()]).nullable().optional(),
    // The target's own figures of the point (orchestrator/point-runner.ts); absent in older runs.
    target_check: z
      .object({ holdErrorMs: percentiles.optional(), responseDelayMs: percentiles.optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** The load generator's final status of a point. */
export type PointStatus = z.infer<typeof statusSchema>;

/** Reads raw/<slug>.status.json; null when the file does not exist. */
export function readStatusJson(path: string): PointStatus | null {
  if (!existsSync(path)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RawFileError(`${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const r = statusSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new RawFileError(
      `${path}: field ${i.path.join('.') || '(top level)'} ${i.message}; expected the load generator's status { state, summary: { valid, sendLag, collapsed, inflightTimeline, … } }`,
      { cause: r.error },
    );
  }
  return r.data;
}

/** The send-lag p99 (ms) a status reports, wherever the writer put it; null when it reports none. */
export function statusSendLagP99(status: PointStatus | null): number | null {
  const s = status?.summary;
  const candidates = [
    s?.sendLag?.p99,
    s?.sendLag?.p99Ms,
    s?.selfCheck?.sendLag?.p99Ms,
    status?.send_lag_p99_ms,
  ];
  for (const c of candidates) {
    const v = typeof c === 'string' && c !== '' ? Number(c) : c;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return null;
}

/**
 * The generator's in-flight samples as [t_ms, count]: `summary.inflightTimeline` is already in ms;
 * the load generator's `summary.inflight.timeline` is in seconds since its start.
 */
export function statusInflightTimelineMs(status: PointStatus | null): [number, number][] {
  const s = status?.summary;
  if (s?.inflightTimeline && s.inflightTimeline.length > 0) return s.inflightTimeline.map(([t, v]) => [t, v]);
  return (s?.inflight?.timeline ?? []).map(([t, v]) => [t * 1000, v]);
}
