// The load generator's status of one point, declared once: the Redis status hash it keeps while it runs
// (progress, heartbeat) and its summary when it ends; the status.json the drain makes of them; their readers.

import { z } from 'zod';
import { StatusJsonError } from './errors.ts';

/** Progress of a running point, as written to the status hash and shown on stderr. */
export interface LoadProgress {
  state: 'running' | 'done' | 'failed';
  /** Seconds since the point's t0. */
  t: number;
  sent: number;
  completed: number;
  /** Attempts in flight. */
  inflight: number;
  /** Latency p99 of the measured ok calls so far, ms (NaN before the first). */
  p99Ms: number;
  sendLagP99Ms: number;
}

/** The status hash as Redis returns it (every field a string; absent until first written). */
export interface StatusHash {
  state?: string;
  sent?: string;
  completed?: string;
  inflight?: string;
  p99_ms?: string;
  send_lag_p99_ms?: string;
  /** The generator's Date.now() at its last write: the orchestrator judges a silent generator hung. */
  heartbeat_ms?: string;
  started_ms?: string;
  ended_ms?: string;
  error?: string;
  /** The summary as JSON text ('' until the point ends). */
  summary?: string;
}

/** The hash fields of one progress update, `nowMs` its heartbeat. */
export function progressFields(p: LoadProgress, nowMs: number): Record<string, string> {
  return {
    state: p.state,
    sent: String(p.sent),
    completed: String(p.completed),
    inflight: String(p.inflight),
    p99_ms: Number.isFinite(p.p99Ms) ? p.p99Ms.toFixed(3) : '',
    send_lag_p99_ms: Number.isFinite(p.sendLagP99Ms) ? p.sendLagP99Ms.toFixed(3) : '',
    heartbeat_ms: String(nowMs),
  };
}

// A percentile of no samples is NaN in memory and null in JSON: such fields read as number | null.
const nanable = z.number().nullable();
const clockOffset = z.object({
  offsetMs: z.number(),
  uncertaintyMs: z.number(),
  /** Round trip of the sample used. */
  rttMs: z.number(),
  samples: z.number(),
});

/** The load generator's summary of one point (the hash's `summary` and its CLI's stdout line). */
export const loadSummarySchema = z.object({
  /** done = the point ran (it may still be invalid or collapsed); failed = it could not be trusted at all. */
  state: z.enum(['done', 'failed']),
  /** Set when state = failed: interrupted, records dropped, Redis unusable … */
  error: z.string().nullable(),
  /** With several load generators per point: this one's index and their number (absent with one). */
  client: z.number().optional(),
  clients: z.number().optional(),
  target: z.string(),
  config: z.string(),
  load: z.number(),
  seed: z.number(),
  // Null only in the merge of K clients of which none wrote a summary (orchestrator/point/clients-status.ts).
  calls: z.number().nullable(),
  warmupCalls: z.number().nullable(),
  /** Calls sent (warm-up included) and completed (with any outcome). */
  sent: z.number(),
  completed: z.number(),
  /** Calls still in flight when the point stopped (collapse, interruption); never recorded. */
  abandoned: z.number(),
  /** Measured (post-warm-up) completed calls by outcome. */
  measured: z.object({
    ok: z.number(),
    rejected: z.number(),
    failed: z.number(),
    hedged: z.number(),
    skipped: z.number(),
  }),
  /** Attempts started but cancelled before their request was written (the server never saw them). */
  attemptsUnwritten: z.number(),
  /** Why attempts failed, counted (e.g. `HTTP 503`, `ECONNREFUSED`, `UND_ERR_SOCKET`). */
  attemptFailures: z.record(z.number()),
  /** Latency from the intended start of measured ok calls, ms. */
  latency: z.object({ p50Ms: nanable, p99Ms: nanable, maxMs: nanable }),
  /** Client latency − server-reported time of measured calls won by their first attempt (serverTiming only). */
  overhead: z.object({ n: z.number(), p50Ms: nanable, p99Ms: nanable }).nullable(),
  durationMs: z.number(),
  /** CPU this process used from t0 to the end, in cores (1 = one core busy all the time; polling costs ~1). */
  cpuCores: z.number(),
  /**
   * Scheduler lag of measured calls (when the scheduler handed the call to the pipeline − intended), ms.
   * Send lag (in selfCheck) is measured at the write; the difference is time spent getting a connection.
   */
  dispatchLag: z.object({ p50Ms: nanable, p99Ms: nanable, maxMs: nanable }),
  /** The generator's check of its own sends (loadgen/self-check.ts, whose SelfCheck fills it). */
  selfCheck: z.object({
    sendLag: z.object({
      n: z.number(),
      p50Ms: nanable,
      p99Ms: nanable,
      maxMs: nanable,
      thresholdMs: z.number(),
    }),
    rate: z.object({
      targetPerS: nanable,
      /** Rate of the actual sends: (n − 1) / (last send − first send). */
      achievedPerS: nanable,
      /** Rate of the intended schedule over the same calls (its own Poisson noise). */
      schedulePerS: nanable,
      /** achieved / target − 1. */
      errorVsTarget: nanable,
      /** achieved / schedule − 1: the generator's own error. */
      errorVsSchedule: nanable,
      tolerance: z.number(),
      /** Tolerance of the schedule vs target: max(tolerance, 3/√n), the sampling noise of a Poisson count. */
      toleranceVsTarget: nanable,
    }),
    arrivals: z.object({
      test: z.string(),
      sampleSize: z.number(),
      statistic: nanable,
      /** Twice the 1 % critical value, as Lancet uses it. */
      critical: nanable,
      passed: z.boolean(),
    }),
    valid: z.boolean(),
    reasons: z.array(z.string()),
  }),
  /** In-flight attempts: the most seen, the cap, and samples [seconds since t0, count]. */
  inflight: z.object({
    max: z.number(),
    cap: z.number(),
    timeline: z.array(z.tuple([z.number(), z.number()])),
  }),
  collapsed: z.boolean(),
  collapseReason: z.string().nullable(),
  recorder: z.object({ written: z.number(), dropped: z.number(), failedBatches: z.number() }).nullable(),
  /** targetClock − generatorClock at the start and end of the point (loadgen/point-clock.ts); null = not measured. */
  clock: z
    .object({
      start: clockOffset.nullable(),
      end: clockOffset.nullable(),
      /** end.offsetMs − start.offsetMs; null unless both were measured. */
      driftMs: z.number().nullable(),
      /** The generator's clock.now() at the point's t0, ms (the origin of calls.csv times). */
      t0AbsMs: z.number(),
    })
    .nullable(),
  valid: z.boolean(),
  reasons: z.array(z.string()),
});

/** The summary of one point as its load generator ran it. */
export type LoadSummary = z.infer<typeof loadSummarySchema>;

/**
 * The self-check's reason for sends later than its threshold. The load generator writes it in wall-clock ms;
 * the analysis writes it again in model ms for a dilated point (analysis/read/model-time.ts), as its tables are.
 */
export function sendLagReason(p99Ms: number, thresholdMs: number): string {
  return `send-lag p99 ${selfCheckFigure(p99Ms)} ms exceeds the threshold ${selfCheckFigure(thresholdMs)} ms`;
}

/** A figure in a self-check's reason: at most three decimals (NaN and ∞ as they are). */
export function selfCheckFigure(x: number): string {
  return Number.isFinite(x) ? String(Math.round(x * 1000) / 1000) : String(x);
}

/** The summary as the hash's `summary` field holds it. */
export function formatSummary(s: LoadSummary): string {
  return JSON.stringify(s);
}

// A reader takes any part of it: older runs lack fields, and a point of K clients holds their merge. A
// clock, though, is whole or absent: attribution puts server times on the generator's timeline with it.
const summaryReadSchema = loadSummarySchema
  .deepPartial()
  .extend({ clock: loadSummarySchema.shape.clock.optional() })
  .passthrough();

/** A summary as a reader may find it: every field optional. */
export type SummaryRead = z.infer<typeof summaryReadSchema>;

const percentiles = z.object({ p99: z.number().nullable().optional() }).passthrough();

/** raw/<slug>.status.json: the status hash (numbers parsed, summary parsed), plus what the drain adds. */
const pointStatusSchema = z
  .object({
    state: z.string().optional(),
    // Earlier runs wrote the empty summary of a point that failed before it ended as "": no summary.
    summary: z.preprocess((v) => (v === '' ? undefined : v), summaryReadSchema.optional()),
    send_lag_p99_ms: z.union([z.string(), z.number()]).nullable().optional(),
    // The target's own figures of the point (orchestrator/point/point-targets.ts); absent in older runs.
    target_check: z
      .object({ holdErrorMs: percentiles.optional(), responseDelayMs: percentiles.optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** The final status of a point, as status.json holds it. */
export type PointStatus = z.infer<typeof pointStatusSchema>;

/** One client's status inside status.json `clients` (a point of K load generators): its own hash. */
export interface ClientStatus {
  client?: number;
  state?: string;
  summary?: SummaryRead;
}

/**
 * The status hash with `summary` parsed from JSON (kept as text if it is not JSON); null when empty. The
 * hash holds `summary` empty until the point ends: a point that failed before then has none.
 */
export function parseStatusHash(h: Record<string, string>): Record<string, unknown> | null {
  if (Object.keys(h).length === 0) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(h)) {
    if (k === 'summary') {
      if (v === '') continue;
      try {
        out[k] = JSON.parse(v);
      } catch {
        out[k] = v;
      }
    } else {
      const num = Number(v);
      out[k] = v !== '' && Number.isFinite(num) && k !== 'error' && k !== 'state' ? num : v;
    }
  }
  return out;
}

/** The text of status.json. */
export function formatStatusJson(status: Record<string, unknown>): string {
  return `${JSON.stringify(status, null, 2)}\n`;
}

/** Parses status.json's text (`path` names it in errors); throws StatusJsonError naming the field. */
export function parseStatusJson(text: string, path: string): PointStatus {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new StatusJsonError(`${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const r = pointStatusSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new StatusJsonError(
      `${path}: field ${i.path.join('.') || '(top level)'} ${i.message}; expected the load generator's status { state, summary: { valid, selfCheck, collapsed, inflight, … } }`,
      { cause: r.error },
    );
  }
  return r.data;
}

/** The send-lag p99 (ms) a status reports — its summary's, else its last progress update's; null if none. */
export function statusSendLagP99(status: PointStatus | null): number | null {
  for (const c of [status?.summary?.selfCheck?.sendLag?.p99Ms, status?.send_lag_p99_ms]) {
    const v = typeof c === 'string' && c !== '' ? Number(c) : c;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return null;
}

/** The generator's in-flight samples as [t_ms, count] (the summary keeps seconds since its t0). */
export function statusInflightTimelineMs(status: PointStatus | null): [number, number][] {
  return (status?.summary?.inflight?.timeline ?? []).map(([t, v]) => [t * 1000, v]);
}
